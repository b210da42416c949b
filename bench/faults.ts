import { performance } from 'node:perf_hooks';
import { parseScenario } from '../src/sim/scenario/scenario.js';
import { runScenario } from '../src/sim/world.js';
import { median } from './figures.js';

/**
 * Issue 29's cost figure: a run with an empty fault profile against the same run with none (goal: a ratio of
 * at most 1.02), and with an inert profile (one rule scoped to an agent that does not exist), which sends
 * every request through the fault layer (the transport, the decision, the parked steps) without drawing a
 * fault. Rounds are interleaved (each starting with another variant, after one uncounted warm-up) so that
 * the machine's drift falls on every variant alike; each variant's fingerprint is printed too, since none of
 * them may change the history.
 */
const SCENARIO = (faults: string) => `
name: faults-bench
seed: 29
start: 2026-01-01T00:00:00Z
duration: 3h
ruleset: { api: { requestsPerDay: 100000 } }
population:
  - { persona: random, count: 60, heartbeat: { min: 30s, max: 60s }, options: { maxGames: 2 } }
  - { persona: slow, count: 20, heartbeat: { min: 30s, max: 90s }, options: { maxGames: 2 } }
${faults}
`;

const VARIANTS: Array<[string, string]> = [
  ['none', ''],
  ['empty', 'faults: { name: empty, rules: [] }'],
  ['inert', 'faults: { name: inert, rules: [{ kind: error, rate: 1, scope: { agents: [nobody] } }] }'],
];

export async function runFaultsBench(options: {
  rounds: number;
  log: (line: string) => void;
}): Promise<void> {
  const { log } = options;
  log(`fault injection's cost (80 agents, 3 virtual hours; ${options.rounds} interleaved rounds, median):`);
  const times = new Map<string, number[]>(VARIANTS.map(([name]) => [name, []]));
  // CPU time as well as wall time: on a shared machine the wall time carries other processes' load, the
  // process's own CPU time (user + system, GC threads included) much less of it.
  const cpu = new Map<string, number[]>(VARIANTS.map(([name]) => [name, []]));
  const prints = new Map<string, string>();
  await runScenario(parseScenario(SCENARIO(''), 'faults-bench')); // warm-up, not counted
  for (let round = 0; round < options.rounds; round++)
    // Each round starts with another variant, so no variant always runs first (after the previous round's garbage).
    for (const [name, faults] of rotated(VARIANTS, round)) {
      const scenario = parseScenario(SCENARIO(faults), 'faults-bench');
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      const outcome = await runScenario(scenario);
      times.get(name)!.push(performance.now() - started);
      const used = process.cpuUsage(cpuBefore);
      cpu.get(name)!.push((used.user + used.system) / 1000);
      prints.set(name, outcome.fingerprint);
    }
  const base = median(times.get('none')!);
  const cpuBase = median(cpu.get('none')!);
  for (const [name] of VARIANTS) {
    const ms = median(times.get(name)!);
    const cpuMs = median(cpu.get(name)!);
    log(
      `  ${name.padEnd(5)} ${ms.toFixed(0)} ms, ratio ${(ms / base).toFixed(3)}; CPU ${cpuMs.toFixed(0)} ms, ratio ${(cpuMs / cpuBase).toFixed(3)}; fingerprint ${prints.get(name)!.slice(0, 12)}`,
    );
  }
}

function rotated<T>(items: readonly T[], by: number): T[] {
  const k = by % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isMain) {
  await runFaultsBench({
    rounds: Number(process.env['BENCH_FAULTS_ROUNDS'] ?? 5),
    log: (line) => process.stdout.write(`${line}\n`),
  });
}
