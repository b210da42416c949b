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

/**
 * The same text as canonicalJson for an object whose values are all primitives (every platform event),
 * without building a sorted copy: the fingerprint serialises one of these per event.
 */
function flatCanonicalJson(value: Record<string, unknown>): string | undefined {
  const keys = Object.keys(value).sort();
  let out = '{';
  for (const key of keys) {
    const v = value[key];
    if (v === undefined) continue;
    if (v !== null && typeof v === 'object') return undefined;
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${JSON.stringify(v)}`;
  }
  return `${out}}`;
}

/** A running SHA-256 over canonical lines: the fingerprint of an event log without keeping the log. */
export class Fingerprint {
  readonly #hash: Hash = createHash('sha256');
  #lines = 0;

  add(value: unknown): void {
    const flat = typeof value === 'object' && value !== null && !Array.isArray(value) ? flatCanonicalJson(value as Record<string, unknown>) : undefined;
    this.#hash.update(flat ?? canonicalJson(value));
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
