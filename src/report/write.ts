import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Scenario } from '../sim/scenario/scenario.js';
import type { RunOutcome } from '../sim/world.js';
import { prettyCanonicalJson } from '../kernel/canonical.js';
import type { MovetextSource } from './movetexts-ahead.js';
import { gamesToPgn } from './pgn.js';
import { agentNames } from './agent-names.js';
import { buildReport, type Report } from './report.js';
import { junitXml, type RunContext } from './junit.js';
import { summaryMarkdown } from './summary-md.js';
import { htmlReportPieces } from './html/index.js';

export type { RunContext } from './junit.js';

export interface WrittenReport {
  report: Report;
  files: string[];
}

/**
 * Every file a run may write into its output folder. Whatever a run does not write this time is removed,
 * so a file from an older run (a crosscheck.txt from a run with --cross-check) never sits next to the new
 * report looking current. Other files in the folder are left alone.
 */
export const REPORT_FILES = [
  'report.json',
  'games.pgn',
  'junit.xml',
  'summary.md',
  'crosscheck.txt',
  'report.html',
] as const;
type ReportFile = (typeof REPORT_FILES)[number];

/**
 * A file's text: whole, or in pieces written one after another (report.html, so that a long run's page is
 * never one string in memory; see pagePieces). Pieces are made as they are written, once.
 */
export type ReportText = string | Iterable<string>;

/** report.json is moved in last: once it is new, every other file of the run is too. */
const LAST = 'report.json';

export class OutputError extends Error {
  override readonly name = 'OutputError';
}

/**
 * An output folder being prepared: a staging folder next to it, made before the run (so an output that
 * cannot be written stops the run before it starts), filled when the run ends, then moved into place.
 */
export class OutputStage {
  readonly dir: string;
  readonly #staging: string;

  private constructor(dir: string, staging: string) {
    this.dir = dir;
    this.#staging = staging;
  }

  /** Checks `dir` (a folder or nothing yet; its parent creatable and writable) and makes the staging folder. Throws OutputError with one line. */
  static prepare(dir: string): OutputStage {
    const absolute = resolve(dir);
    if (existsSync(absolute)) {
      if (!statSync(absolute).isDirectory()) throw new OutputError(`--out ${dir}: is a file, not a folder`);
      try {
        accessSync(absolute, constants.W_OK);
      } catch {
        throw new OutputError(`--out ${dir}: the folder is not writable`);
      }
    }
    const parent = dirname(absolute);
    try {
      mkdirSync(parent, { recursive: true });
      return new OutputStage(dir, mkdtempSync(join(parent, `.${basename(absolute)}.partial-`)));
    } catch (error) {
      throw new OutputError(`--out ${dir}: cannot create it here (${describeFsError(error)})`);
    }
  }

  /** Writes the files into the staging folder, then moves them into `dir`, removing report files this run did not write. */
  commit(files: ReadonlyMap<ReportFile, ReportText>): string[] {
    for (const [name, text] of files) writeText(join(this.#staging, name), text);
    // Made here rather than by renaming the staging folder, which mkdtemp creates private (0700).
    const target = resolve(this.dir);
    mkdirSync(target, { recursive: true });
    for (const name of REPORT_FILES)
      if (name !== LAST && files.has(name)) renameSync(join(this.#staging, name), join(target, name));
    for (const name of REPORT_FILES) if (!files.has(name)) rmSync(join(target, name), { force: true });
    if (files.has(LAST)) renameSync(join(this.#staging, LAST), join(target, LAST));
    this.discard();
    return REPORT_FILES.filter((name) => files.has(name)).map((name) => join(this.dir, name));
  }

  /** Removes the staging folder and whatever is in it; the output folder is not touched. */
  discard(): void {
    rmSync(this.#staging, { recursive: true, force: true });
  }
}

function writeText(path: string, text: ReportText): void {
  if (typeof text === 'string') {
    writeFileSync(path, text);
    return;
  }
  const file = openSync(path, 'w');
  try {
    for (const piece of text) writeAll(file, Buffer.from(piece));
  } finally {
    closeSync(file);
  }
}

/** writeSync may write less than it was given; writeFileSync loops the same way. */
function writeAll(file: number, bytes: Buffer): void {
  for (let done = 0; done < bytes.length;) done += writeSync(file, bytes, done);
}

/**
 * The files of one run: report.json, games.pgn, junit.xml, summary.md, and crosscheck.txt when the run
 * replayed its ledger through litesvm (kept out of report.json, so a run with and without the cross-check
 * gives the same report bytes). Every one of them is a function of the scenario, the seed and `context`.
 */
export function renderRunReport(
  scenario: Scenario,
  outcome: RunOutcome,
  context: RunContext,
  movetexts?: MovetextSource,
): { report: Report; files: Map<ReportFile, ReportText> } {
  // The games still being played go to the movetexts' thread first: it writes them while the report's
  // other files are made here, and games.pgn is written last of the four.
  movetexts?.sendUnfinished(outcome.platform.state.games.values());
  const report = buildReport(scenario, outcome, context.match);
  const reportJson = prettyCanonicalJson(report);
  const junit = junitXml(report, context);
  const summary = summaryMarkdown(report, context);
  const names = agentNames(outcome.agents.filter((sim) => sim.account === 'agent'));
  const pgn = gamesToPgn(
    outcome.platform,
    `agent-chess-sim: ${scenario.name}`,
    { names: Object.fromEntries(names) },
    movetexts,
  );
  const files = new Map<ReportFile, ReportText>([
    ['report.json', reportJson],
    ['games.pgn', pgn],
    ['junit.xml', junit],
    ['summary.md', summary],
  ]);
  files.set('report.html', htmlReportPieces({ report, outcome, pgn }));
  if (context.crossCheck) files.set('crosscheck.txt', `${context.crossCheck.line}\n`);
  return { report, files };
}

/** Renders the run and writes it into `dir` through a staging folder (see OutputStage). */
export function writeRunReport(
  dir: string,
  scenario: Scenario,
  outcome: RunOutcome,
  context: RunContext,
): WrittenReport {
  const stage = OutputStage.prepare(dir);
  try {
    const { report, files } = renderRunReport(scenario, outcome, context);
    return { report, files: stage.commit(files) };
  } catch (error) {
    stage.discard();
    throw error;
  }
}

function describeFsError(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  const reasons: Record<string, string> = {
    ENOTDIR: 'a part of the path is a file',
    EEXIST: 'a part of the path is a file',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EROFS: 'read-only file system',
    ENOSPC: 'no space left on the device',
  };
  return (e.code && reasons[e.code]) ?? e.message;
}
