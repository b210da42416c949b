import { basename } from 'node:path';

/**
 * One name per agent, the same in score lines, tables, report.json (`name`), PGN tags, `compare` output and
 * report.html. The rule:
 *
 * - an engine level plays under its level: `sf-2`;
 * - a UCI engine under its binary's file name: `stockfish` for `/usr/games/stockfish`;
 * - every other persona under its persona name, and a module under the name its factory declares, else its
 *   file stem made handle-safe (`my-agent.v2.ts` -> `my_agent.v2`): the name its handles start with.
 *
 * When several agents of one run share a name (a population group of count > 1, or two groups of one
 * persona), each of them is named by its platform handle instead, which is unique. The handles themselves
 * (`engine_0001`) are what the platform registered and stay as they are: naming is a display mapping, so
 * event logs and fingerprints do not depend on it.
 */
export interface NamedAgent {
  readonly handle: string;
  readonly persona: string;
  readonly impl: unknown;
}

/** The name the rule gives an agent of this persona whose implementation is `impl`. */
export function playerName(persona: string, impl: unknown): string {
  const level = (impl as { level?: { name?: unknown } } | null)?.level?.name;
  if (typeof level === 'string') return level;
  const binary = (impl as { engine?: { config?: { path?: unknown } } } | null)?.engine?.config?.path;
  if (persona === 'uci' && typeof binary === 'string') return basename(binary);
  return persona;
}

/** Each agent's name by handle: its player name, or its handle where another agent of the run has the same name. */
export function agentNames(agents: readonly NamedAgent[]): Map<string, string> {
  const names = agents.map((a) => playerName(a.persona, a.impl));
  const uses = new Map<string, number>();
  for (const name of names) uses.set(name, (uses.get(name) ?? 0) + 1);
  return new Map(agents.map((a, i) => [a.handle, uses.get(names[i]!) === 1 ? names[i]! : a.handle]));
}
