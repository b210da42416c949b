/**
 * `npm run bench`: figures are ratios of loops measured side by side in one run (this machine is shared,
 * so absolute times drift). Rounds alternate between the loops and each figure is the median of its rounds.
 */
import { spawnSync } from 'node:child_process';
import { bareRandomGames } from './bare-chessops.js';
import { sameGamesAsBare, tightRandomGames } from './bare-chessops-tight.js';
import { runEngineBench } from './engine.js';
import { levelByName } from '../agents/engines/levels.js';
import { runServeBench } from './serve.js';
import { runServeScaleBench } from './serve-scale.js';
import { platformRandomGames, rulesRandomGames } from './platform-loop.js';
import { runMemoryBench } from './game-memory.js';
import { SOCIAL_READS, socialReads, socialWorld, type SocialRead } from './social-loop.js';
import { runSweepBench } from './sweep.js';
import { runCrowdBench, runGcBench, runSmokeBench } from './scenario-run.js';
import { runStartupBench } from './startup.js';
import { runSplitLoadBench } from './http-split.js';
import { runAutocannonBench } from './http-autocannon.js';
import { figureLine, median, type Goal } from './figures.js';
import { runFaultsBench } from './faults.js';
import { BIN_NODE_FLAGS } from './cli-process.js';
import { runColdBoardsBench } from './cold-boards.js';

interface Sample {
  plies: number;
  ms: number;
}

async function timed(run: () => Promise<{ plies: number }> | { plies: number }): Promise<Sample> {
  const start = performance.now();
  const { plies } = await run();
  return { plies, ms: performance.now() - start };
}

export async function runBench(options: {
  rounds: number;
  games: number;
  log: (line: string) => void;
}): Promise<void> {
  const { rounds, games, log } = options;
  const bare: number[] = [];
  const tight: number[] = [];
  const rules: number[] = [];
  const platform: number[] = [];
  const differs = sameGamesAsBare(50, 'check');
  if (differs) throw new Error(`the tight bare loop does not play the plain loop's games: ${differs}`);
  await timed(() => bareRandomGames(20, 'warmup'));
  await timed(() => tightRandomGames(20, 'warmup'));
  await timed(() => platformRandomGames(20, 'warmup'));
  for (let round = 0; round < rounds; round++) {
    const seed = `bench-${round}`;
    const b = await timed(() => bareRandomGames(games, seed));
    const t = await timed(() => tightRandomGames(games, seed));
    const r = await timed(() => rulesRandomGames(games, seed));
    const p = await timed(() => platformRandomGames(games, seed));
    bare.push((b.plies / b.ms) * 1000);
    tight.push((t.plies / t.ms) * 1000);
    rules.push((r.plies / r.ms) * 1000);
    platform.push((p.plies / p.ms) * 1000);
    log(
      `round ${round + 1}/${rounds}: bare ${Math.round(bare.at(-1)!)}, tight bare ${Math.round(tight.at(-1)!)}, rules ${Math.round(rules.at(-1)!)}, platform ${Math.round(platform.at(-1)!)} plies/s`,
    );
  }
  logGameLoop(log, rounds, games, { bare, tight, rules, platform });
}

const P1_GOAL: Goal = { better: 'higher', goal: 0.5, strict: false, unit: (n) => n.toFixed(2) };

/** P1's lines: each loop's median rate, and the platform's ratio to the fair (tight) baseline with its goal. */
function logGameLoop(
  log: (line: string) => void,
  rounds: number,
  games: number,
  rates: { bare: number[]; tight: number[]; rules: number[]; platform: number[] },
): void {
  const [bare, tight, rules, platform] = [rates.bare, rates.tight, rates.rules, rates.platform].map(
    median,
  ) as [number, number, number, number];
  log(`random-game throughput (median of ${rounds} rounds of ${games} games each):`);
  log(`  bare chessops loop, plain (makeSanAndPlay, allDests): ${Math.round(bare)} plies/s`);
  log(
    `  bare chessops loop, tight (one context a ply, bit scans; same games and SAN): ${Math.round(tight)} plies/s, ${(tight / bare).toFixed(2)}x the plain one`,
  );
  log(
    `  agent (the tight loop's move listing) + platform rules (no API): ${Math.round(rules)} plies/s, ratio to tight bare ${(rules / tight).toFixed(3)}`,
  );
  log(
    `  platform game loop: ${Math.round(platform)} plies/s (through the in-process API; agents list moves as the tight loop does)`,
  );
  log(`  ratio platform/plain bare: ${(platform / bare).toFixed(3)} (the baseline of earlier rounds)`);
  log(
    `  ${figureLine('P1 platform loop / tight bare loop', (platform / tight).toFixed(3), platform / tight, P1_GOAL)}`,
  );
}

/**
 * Social reads in a world of 100 agents and 3000 posts (each liked and answered), against the my-turn poll
 * in the same rounds: how many my-turn polls one feed, unseen, notifications or search call costs.
 */
export async function runSocialBench(options: {
  rounds: number;
  calls: number;
  log: (line: string) => void;
}): Promise<void> {
  const { rounds, calls, log } = options;
  const world = await socialWorld(100, 3000, 'social-bench');
  const rates = new Map<SocialRead, number[]>(SOCIAL_READS.map((r) => [r, []]));
  for (const read of SOCIAL_READS) await timed(() => socialReads(world, read, Math.ceil(calls / 10))); // warm-up
  for (let round = 0; round < rounds; round++) {
    for (const read of SOCIAL_READS) {
      const sample = await timed(() => socialReads(world, read, calls));
      rates.get(read)!.push((sample.plies / sample.ms) * 1000);
    }
  }
  const baseline = median(rates.get('my-turn')!);
  log(
    `social reads (median of ${rounds} rounds of ${calls} calls; 100 agents, 3000 posts, 3000 likes, 3000 replies):`,
  );
  for (const read of SOCIAL_READS) {
    const rate = median(rates.get(read)!);
    log(
      `  ${read.padEnd(14)}: ${Math.round(rate)} requests/s, ratio to my-turn ${(rate / baseline).toFixed(3)}`,
    );
  }
}

/**
 * The in-process sections (games, memory, engine, social, serve) measure the code with the node flags a user's
 * `agent-chess-sim` runs it with (its shebang's, see cli-process.ts): started without them, as `npm run bench`
 * starts it, the bench runs itself again with them and exits with that run's status.
 */
function rerunWithBinFlags(): boolean {
  const missing = BIN_NODE_FLAGS.filter((flag) => !process.execArgv.includes(flag));
  if (missing.length === 0) return false;
  const args = [...missing, ...process.execArgv, ...process.argv.slice(1)];
  const run = spawnSync(process.execPath, args, { stdio: 'inherit' });
  process.exitCode = run.status ?? 1;
  return true;
}

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isMain && !rerunWithBinFlags()) {
  const rounds = Number(process.env['BENCH_ROUNDS'] ?? 5);
  const games = Number(process.env['BENCH_GAMES'] ?? 100);
  const log = (line: string) => process.stdout.write(`${line}\n`);
  // BENCH_SECTIONS=games,memory (a comma list) runs only those sections. The figures of issue 17: games (P1),
  // memory (P4 bytes per finished game), smoke (P2, ~20 s or more), crowd (P2b and P4's crowd memory, a minute
  // or more), cold (why the crowd costs more a request than the smoke: a move on a board whose data left the
  // caches, against one just touched), http (P3, the load in a child process), autocannon (P3 with autocannon against a real serve process). Also social, engine, serve, serve-scale (issue 25:
  // 200,000 profile edits from one key, a 100,000-agent restore and a day under 100 pollers) and sweep.
  const sections = new Set(
    (
      process.env['BENCH_SECTIONS'] ??
      'games,memory,smoke,crowd,cold,gc,startup,http,autocannon,social,engine,serve,serve-scale,sweep'
    )
      .split(',')
      .map((s) => s.trim()),
  );
  if (sections.has('games')) await runBench({ rounds, games, log });
  if (sections.has('memory'))
    await runMemoryBench({
      games: Number(process.env['BENCH_MEMORY_GAMES'] ?? 400),
      rounds: Number(process.env['BENCH_MEMORY_ROUNDS'] ?? 3),
      log,
    });
  if (sections.has('smoke'))
    await runSmokeBench({ scenario: process.env['BENCH_SMOKE_SCENARIO'] ?? 'scenarios/smoke.yaml', log });
  if (sections.has('crowd'))
    await runCrowdBench({
      scenario: process.env['BENCH_CROWD_SCENARIO'] ?? 'scenarios/crowd-5000.yaml',
      log,
    });
  if (sections.has('cold'))
    runColdBoardsBench({ rounds: Number(process.env['BENCH_COLD_ROUNDS'] ?? 5), log });
  if (sections.has('gc'))
    await runGcBench({ scenario: process.env['BENCH_CROWD_SCENARIO'] ?? 'scenarios/crowd-5000.yaml', log });
  if (sections.has('startup')) runStartupBench({ runs: Number(process.env['BENCH_STARTUP_RUNS'] ?? 7), log });
  if (sections.has('http'))
    await runSplitLoadBench({
      agents: Number(process.env['BENCH_HTTP_AGENTS'] ?? 500),
      seconds: Number(process.env['BENCH_HTTP_SECONDS'] ?? 2),
      rounds: Number(process.env['BENCH_HTTP_ROUNDS'] ?? 5),
      seed: 'http-bench',
      log,
    });
  if (sections.has('autocannon'))
    await runAutocannonBench({
      seconds: Number(process.env['BENCH_AUTOCANNON_SECONDS'] ?? 10),
      rounds: Number(process.env['BENCH_AUTOCANNON_ROUNDS'] ?? 3),
      log,
    });
  if (sections.has('social'))
    await runSocialBench({ rounds, calls: Number(process.env['BENCH_CALLS'] ?? 2000), log });
  if (sections.has('engine')) {
    const levelName = process.env['BENCH_ENGINE_LEVEL'] ?? 'sf-4';
    const level = levelByName(levelName);
    if (!level) throw new Error(`BENCH_ENGINE_LEVEL: no level ${levelName}`);
    // Each game is one pair (agents, bare); rounds x games of them, the figure their median.
    await runEngineBench({
      games: Number(process.env['BENCH_ENGINE_ROUNDS'] ?? 3) * Number(process.env['BENCH_ENGINE_GAMES'] ?? 4),
      level,
      log,
    });
  }
  if (sections.has('serve'))
    await runServeBench({ reads: Number(process.env['BENCH_SERVE_READS'] ?? 200_000), log });
  if (sections.has('serve-scale'))
    await runServeScaleBench({
      writes: Number(process.env['BENCH_PROFILE_WRITES'] ?? 200_000),
      agents: Number(process.env['BENCH_RESTORE_AGENTS'] ?? 100_000),
      pollers: Number(process.env['BENCH_POLLERS'] ?? 100),
      log,
    });
  if (sections.has('faults'))
    await runFaultsBench({ rounds: Number(process.env['BENCH_FAULTS_ROUNDS'] ?? 5), log });
  if (sections.has('sweep'))
    await runSweepBench({
      seeds: Number(process.env['BENCH_SWEEP_SEEDS'] ?? 12),
      rounds: Number(process.env['BENCH_SWEEP_ROUNDS'] ?? 3),
      log,
    });
}
