import { createHash, type Hash } from 'node:crypto';

/** JSON with object keys sorted at every level: one value, one text, on every machine. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

export function prettyCanonicalJson(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
  return out;
}

/** A running SHA-256 over canonical lines: the fingerprint of an event log without keeping the log. */
export class Fingerprint {
  readonly #hash: Hash = createHash('sha256');
  #lines = 0;

  add(value: unknown): void {
    this.#hash.update(canonicalJson(value));
    this.#hash.update('\n');
    this.#lines++;
  }

  get lines(): number {
    return this.#lines;
  }

  digest(): string {
    return `sha256:${this.#hash.copy().digest('hex')}`;
  }
}
