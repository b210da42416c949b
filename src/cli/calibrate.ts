import { writeFileSync } from 'node:fs';
import type { ArgumentsCamelCase, Argv } from 'yargs';
import { calibrate, type GameReport } from '../sim/calibration.js';
import { LEVELS } from '../../agents/engines/levels.js';
import { EnginePool } from '../../agents/engines/pool.js';
import type { Ladder } from '../../agents/engines/strength.js';
import { matchElo } from '../rules/chess/match-elo.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

interface CalibrateArgs {
  games: number;
  'check-games': number;
  'nodes-scale': number;
  seed: string;
  pool?: number;
  out: string;
}

export const calibrateCommand = {
  ...COMMAND_SUMMARIES.calibrate,
  builder: (y: Argv) =>
    y
      .option('games', {
        type: 'number',
        default: 30,
        describe: 'games of each level against the level below it (colours alternate)',
      })
      .option('check-games', {
        type: 'number',
        default: 10,
        describe: 'games of each upper level against random (a sanity check)',
      })
      .option('nodes-scale', {
        type: 'number',
        default: 1,
        describe: "multiplies every level's node budget (1 = as agents play)",
      })
      .option('seed', {
        type: 'string',
        default: 'calibration',
        describe: 'seed of every game and move choice',
      })
      .option('pool', {
        type: 'number',
        describe: 'engines in the pool (default: CPUs - 1, or ACS_ENGINE_POOL)',
      })
      .option('out', {
        type: 'string',
        default: 'agents/engines/ladder.json',
        describe: 'where the ladder is written',
      })
      .check((a) => checkArgs(a as unknown as ArgumentsCamelCase<CalibrateArgs>)),
  handler: async (args: ArgumentsCamelCase<CalibrateArgs>) => {
    const pool = EnginePool.shared(args.pool);
    const started = Date.now();
    const log = (line: string) => process.stdout.write(`${line}\n`);
    log(
      `calibrate: ${LEVELS.length} levels, ${args.games} games per link, ${args.checkGames} per check, nodes x${args.nodesScale}, ${pool.size} engine(s)`,
    );
    try {
      const ladder = await calibrate({
        seed: args.seed,
        gamesPerPairing: args.games,
        checkGames: args.checkGames,
        nodesScale: args.nodesScale,
        pool,
        onGame: (report) => log(progressLine(report, Date.now() - started)),
      });
      writeFileSync(args.out, `${JSON.stringify(ladder, null, 2)}\n`);
      for (const line of summary(ladder)) log(line);
      log(
        `wrote ${args.out} in ${((Date.now() - started) / 1000).toFixed(1)} s (${pool.stats().searches} searches, ${pool.stats().cacheHits} cache hits)`,
      );
    } finally {
      pool.close();
    }
  },
};

function checkArgs(a: ArgumentsCamelCase<CalibrateArgs>): true {
  if (!Number.isSafeInteger(a.games) || a.games < 1) throw new Error('--games: must be a whole number >= 1');
  if (!Number.isSafeInteger(a.checkGames) || a.checkGames < 0)
    throw new Error('--check-games: must be a whole number >= 0');
  if (!(a.nodesScale > 0) || !Number.isFinite(a.nodesScale))
    throw new Error('--nodes-scale: must be a number > 0');
  if (a.pool !== undefined && (!Number.isSafeInteger(a.pool) || a.pool < 1))
    throw new Error('--pool: must be a whole number >= 1');
  return true;
}

/** `[ 12/450  31s] sf-2 vs sf-1  +5 =2 -3` */
function progressLine(report: GameReport, elapsedMs: number): string {
  const p = report.pairing;
  const counter = `${report.done}`.padStart(`${report.total}`.length);
  return `[${counter}/${report.total} ${(elapsedMs / 1000).toFixed(0).padStart(4)}s] ${p.first} vs ${p.second}  +${p.wins} =${p.draws} -${p.losses}`;
}

/** Every match with its Elo difference, then the ladder. */
function summary(ladder: Ladder): string[] {
  const matches = ladder.pairings.map((p) => {
    const m = matchElo(p);
    return `  ${p.first} vs ${p.second}: +${p.wins} =${p.draws} -${p.losses}  score ${(m.score * 100).toFixed(1)}%  Elo ${signed(m.estimate)} [${signed(m.low)}, ${signed(m.high)}]`;
  });
  const levels = ladder.levels.map(
    (l) =>
      `  ${l.name.padEnd(8)} ${String(l.elo).padStart(5)}  [${bound(l.low)}, ${bound(l.high)}]  ${l.games} games`,
  );
  return [
    "matches (first player's side):",
    ...matches,
    `ladder (${ladder.anchor.name} = ${ladder.anchor.elo}):`,
    ...levels,
  ];
}

const signed = (x: number): string =>
  Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${x.toFixed(0)}` : x > 0 ? '+inf' : '-inf';
const bound = (x: number | null): string => (x === null ? 'unbounded' : String(x));
