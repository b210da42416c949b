import type { LiveInput, RecordedRequest, Usage } from './live-snapshot.js';

/**
 * The live world's input log, kept compactly: each input is one flat string, and a request names its
 * route (method and path) and its caller by a number into tables of the distinct ones. A kept request
 * costs its body's JSON text and about thirty characters, where the nested objects it stands for cost
 * several times that (bench/serve-scale.ts). The snapshot writes the inputs in their JSON form (`toJson`).
 *
 * Each entry is the JSON text of: a number, an advance's `toMs`; an object, an airdrop as the snapshot
 * writes it; a list, a request as `[route, actor or -1, [dayIndex, requestsToday, totalRequests,
 * lastUsedMs] or null, body?]`. Every entry is made by one JSON.stringify, so it is one flat string (text
 * joined with + or a template is kept by V8 as a tree of its parts, three times the size), then copied once
 * (`tight`).
 */
export class InputLog {
  readonly #entries: string[] = [];
  readonly #routes = new Interned<string>();
  readonly #actors = new Interned<string>();
  /** Method and path by route number. */
  readonly #methods: string[] = [];
  readonly #paths: string[] = [];
  /** The last input is an advance: the next advance replaces it (the world runs the same events). */
  #lastIsAdvance = false;

  get length(): number {
    return this.#entries.length;
  }

  add(input: LiveInput): void {
    if (input.kind === 'advance') {
      if (this.#lastIsAdvance) this.#entries.pop();
      this.#entries.push(String(input.toMs)); // a number written is one flat string
      this.#lastIsAdvance = true;
      return;
    }
    this.#entries.push(tight(JSON.stringify(input.kind === 'airdrop' ? input : this.#encode(input.request))));
    this.#lastIsAdvance = false;
  }

  /** The inputs as the snapshot's JSON list. */
  toJson(): string {
    return [...this.jsonParts()].join('');
  }

  /** `toJson`'s text an input at a time, for a snapshot written between other requests. */
  *jsonParts(): Generator<string> {
    yield '[';
    for (const [i, entry] of this.#entries.entries())
      yield `${i === 0 ? '' : ','}${JSON.stringify(this.#decode(entry))}`;
    yield ']';
  }

  #encode(request: RecordedRequest): unknown[] {
    const route = this.#routes.idOf(JSON.stringify([request.method, request.path]));
    if (route === this.#methods.length) {
      this.#methods.push(request.method);
      this.#paths.push(request.path);
    }
    const actor = request.actorId === undefined ? -1 : this.#actors.idOf(request.actorId);
    const u = request.usage;
    const usage = u ? [u.dayIndex, u.requestsToday, u.totalRequests, u.lastUsedMs] : null;
    return request.body === undefined ? [route, actor, usage] : [route, actor, usage, request.body];
  }

  #decode(entry: string): LiveInput {
    const value = JSON.parse(entry) as number | LiveInput | EncodedRequest;
    if (typeof value === 'number') return { kind: 'advance', toMs: value };
    if (!Array.isArray(value)) return value;
    const [route, actor, usage, ...body] = value;
    const request: RecordedRequest = { method: this.#methods[route]!, path: this.#paths[route]! };
    if (body.length > 0) request.body = body[0];
    if (actor >= 0) request.actorId = this.#actors.at(actor);
    if (usage) request.usage = usageOf(usage);
    return { kind: 'request', request };
  }
}

type EncodedRequest = [number, number, UsageTuple | null, ...unknown[]];
type UsageTuple = [number, number, number, number | null];

function usageOf([dayIndex, requestsToday, totalRequests, lastUsedMs]: UsageTuple): Usage {
  return { dayIndex, requestsToday, totalRequests, lastUsedMs };
}
/**
 * The same text in a string of its own size: JSON.stringify's result keeps spare room (a 116-character
 * entry measured 257 B on the heap, its copy 162 B). Safe for any JSON text: JSON.stringify escapes lone
 * surrogates, so the text survives UTF-8.
 */
function tight(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** Distinct values numbered in order of first sight. */
class Interned<T> {
  readonly #ids = new Map<T, number>();
  readonly #values: T[] = [];

  idOf(value: T): number {
    let id = this.#ids.get(value);
    if (id === undefined) {
      id = this.#values.length;
      this.#ids.set(value, id);
      this.#values.push(value);
    }
    return id;
  }

  at(id: number): T {
    return this.#values[id]!;
  }
}
