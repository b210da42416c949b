import {
  closeSync,
  createReadStream,
  existsSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip, gzipSync } from 'node:zlib';

/**
 * The canonical event log on disk (`run --events FILE`): one canonical JSON line per platform event, the very
 * text the run's fingerprint hashes (src/kernel/canonical.ts `Fingerprint`), so `sha256sum` of the plain
 * file, or of the gzip's content, is the fingerprint. A name ending `.gz` is written gzip-compressed, in
 * members of about GZIP_MEMBER_CHARS each (a gzip file may hold several; every gunzip reads them as one
 * stream), so the log is never whole in memory. The file appears only once complete: it is written beside
 * its name and renamed at `close`.
 */
const GZIP_MEMBER_CHARS = 4 << 20;

/** The names `diff` looks for in a report folder, in this order. */
export const EVENT_LOG_NAMES = ['events.jsonl.gz', 'events.jsonl'] as const;

export class EventLogWriter {
  readonly path: string;
  readonly #partial: string;
  readonly #gzip: boolean;
  readonly #memberChars: number;
  #file: number | undefined;
  #pending = '';

  /** `memberChars`: how much text each gzip member holds (a test makes it small). */
  constructor(path: string, memberChars = GZIP_MEMBER_CHARS) {
    this.path = path;
    this.#memberChars = memberChars;
    this.#gzip = path.endsWith('.gz');
    this.#partial = `${path}.partial`;
    mkdirSync(dirname(path), { recursive: true });
    this.#file = openSync(this.#partial, 'w');
  }

  /** Takes the next piece of the log (whole lines). */
  write(text: string): void {
    if (!this.#gzip) return writeAll(this.#file!, Buffer.from(text));
    this.#pending += text;
    if (this.#pending.length >= this.#memberChars) this.#flush();
  }

  /** Writes what is left and moves the file into place. */
  close(): void {
    this.#flush();
    closeSync(this.#file!);
    this.#file = undefined;
    renameSync(this.#partial, this.path);
  }

  /** Drops the file (an interrupted run writes nothing). */
  discard(): void {
    if (this.#file !== undefined) closeSync(this.#file);
    this.#file = undefined;
    rmSync(this.#partial, { force: true });
  }

  #flush(): void {
    if (!this.#gzip || this.#pending === '') return;
    writeAll(this.#file!, gzipSync(this.#pending));
    this.#pending = '';
  }
}

function writeAll(file: number, bytes: Buffer): void {
  for (let done = 0; done < bytes.length;) done += writeSync(file, bytes, done);
}

export class EventLogError extends Error {
  override readonly name = 'EventLogError';
}

/**
 * The event log `where` names: a log file, or a report folder holding events.jsonl.gz or events.jsonl.
 * Throws EventLogError with one line when there is none.
 */
export function findEventLog(where: string): string {
  if (!existsSync(where)) throw new EventLogError(`${where}: no such file or folder`);
  if (!statSync(where).isDirectory()) return where;
  const found = EVENT_LOG_NAMES.map((name) => join(where, name)).find((file) => existsSync(file));
  if (found === undefined)
    throw new EventLogError(
      `${where}: a folder without ${EVENT_LOG_NAMES.join(' or ')} (write one with run --events ${join(where, EVENT_LOG_NAMES[0])})`,
    );
  return found;
}

/** The log's lines, gunzipped when the file starts with gzip's magic bytes (whatever its name). */
export function eventLogLines(file: string): AsyncIterable<string> {
  const stream = createReadStream(file);
  const input = isGzip(file) ? stream.pipe(createGunzip()) : stream;
  stream.on('error', (error) => input.destroy(error));
  return createInterface({ input, crlfDelay: Infinity });
}

function isGzip(file: string): boolean {
  const head = Buffer.alloc(2);
  const fd = openSync(file, 'r');
  try {
    return readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}
