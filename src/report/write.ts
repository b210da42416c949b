import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Scenario } from '../sim/scenario.js';
import type { RunOutcome } from '../sim/world.js';
import { prettyCanonicalJson } from '../kernel/canonical.js';
import { gamesToPgn } from './pgn.js';
import { buildReport, type Report } from './report.js';

export interface WrittenReport {
  report: Report;
  files: string[];
}

/** Writes DIR/report.json and DIR/games.pgn. */
export function writeRunReport(dir: string, scenario: Scenario, outcome: RunOutcome): WrittenReport {
  mkdirSync(dir, { recursive: true });
  const report = buildReport(scenario, outcome);
  const reportPath = join(dir, 'report.json');
  const pgnPath = join(dir, 'games.pgn');
  writeFileSync(reportPath, prettyCanonicalJson(report));
  writeFileSync(pgnPath, gamesToPgn(outcome.platform, `agent-chess-sim: ${scenario.name}`));
  return { report, files: [reportPath, pgnPath] };
}
