import { seedFailed, type SeedResult } from '../sweep/seed-result.js';

/**
 * Progress on stderr for a sweep or a comparison: runs done of total, failures so far, elapsed and ETA.
 * On a terminal a bar redrawn in place, each second too (a smoke seed takes a minute); otherwise plain
 * lines, one per 5% of the runs and one per failing seed, so a CI log stays short.
 */
export class SeedProgress {
  done = 0;
  #failed = 0;
  #lastStep = -1;
  #ticker: NodeJS.Timeout | undefined;
  readonly #started = performance.now();
  readonly #tty = Boolean(process.stderr.isTTY);

  constructor(
    private readonly name: string,
    /** What one unit of work is called in the lines: `seed` for a sweep, `run` for a comparison. */
    private readonly unit: string,
    private readonly total: number,
    private readonly enabled: boolean,
  ) {}

  start(where: string): void {
    if (!this.enabled) return;
    process.stderr.write(
      `${this.name}: ${this.total} ${this.unit}${this.total === 1 ? '' : 's'} on ${where}\n`,
    );
    if (this.#tty) this.#ticker = setInterval(() => this.#draw(), 1000).unref();
  }

  record(result: SeedResult): void {
    this.done++;
    if (seedFailed(result)) this.#failed++;
    if (!this.enabled) return;
    if (this.#tty) return this.#draw();
    if (seedFailed(result)) process.stderr.write(`seed ${result.seed} ${result.status}\n`);
    const step = Math.floor((this.done * 20) / this.total);
    if (step !== this.#lastStep || this.done === this.total) {
      this.#lastStep = step;
      process.stderr.write(`${this.#status()}\n`);
    }
  }

  notice(line: string): void {
    if (this.enabled) process.stderr.write(`${this.#tty ? '\r\u001b[K' : ''}${line}\n`);
  }

  end(): void {
    clearInterval(this.#ticker);
    if (this.enabled && this.#tty) process.stderr.write('\n');
  }

  #draw(): void {
    process.stderr.write(`\r${this.#bar()} ${this.#status()}\u001b[K`);
  }

  #status(): string {
    const elapsedMs = performance.now() - this.#started;
    const eta = this.done === 0 ? '?' : clock((elapsedMs / this.done) * (this.total - this.done));
    return `${this.done}/${this.total} ${this.unit}s, ${this.#failed} failed, ${clock(elapsedMs)} elapsed, ETA ${eta}`;
  }

  #bar(): string {
    const width = 24;
    const filled = Math.round((this.done / Math.max(1, this.total)) * width);
    return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
  }
}

/** m:ss (or h:mm:ss) of a duration in milliseconds. */
function clock(ms: number): string {
  const s = Math.round(ms / 1000);
  const [h, m, sec] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(sec).padStart(2, '0')}`;
}
