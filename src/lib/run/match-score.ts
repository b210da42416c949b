import { toIso } from '../../kernel/clock.js';
import type { AgentCrash } from '../../faults/run-faults.js';
import { findAgent } from '../../platform/identity/identity.js';
import { buildAgentMatch, type AgentMatch } from '../../report/agent-match.js';
import { agentNames } from '../../report/agent-names.js';
import { eloLine, scoreLine } from '../../report/match-lines.js';
import type { Tally } from '../../report/verdicts.js';
import type { World } from '../../sim/world.js';

/**
 * `run --agent`'s match: the agent under test's score against each opponent, kept game by game, with the
 * cutechess-style score line after each of its games (handed to `onScoreLine`) and the closing lines.
 */
export class MatchScore {
  readonly #world: World;
  readonly #target: number;
  readonly #onScoreLine: (line: string) => void;
  readonly #byOpponent = new Map<string, Tally>();
  #names = new Map<string, string>();
  #played = 0;

  constructor(world: World, target: number, onScoreLine: (line: string) => void) {
    this.#world = world;
    this.#target = target;
    this.#onScoreLine = onScoreLine;
  }

  /** The games are played, or the agent under test crashed (its code threw): it will play no more. */
  get finished(): boolean {
    return this.#played >= this.#target || this.#crash() !== undefined;
  }

  #crash(): AgentCrash | undefined {
    const first = this.#world.agents[0];
    return first === undefined ? undefined : this.#world.crashOf(first.handle);
  }

  get fractionDone(): number {
    return this.#played / this.#target;
  }

  get #player(): string {
    const first = this.#world.agents[0];
    return first === undefined ? 'agent' : this.#nameOfHandle(first.handle);
  }

  onGameEnded(whiteId: string, blackId: string, result: '1-0' | '0-1' | '1/2-1/2'): void {
    const me = this.#agentId();
    if (me === undefined || (whiteId !== me && blackId !== me)) return;
    const opponent = this.#nameOf(whiteId === me ? blackId : whiteId);
    const tally = this.#byOpponent.get(opponent) ?? { games: 0, wins: 0, draws: 0, losses: 0 };
    this.#byOpponent.set(opponent, tally);
    tally.games++;
    this.#played++;
    if (result === '1/2-1/2') tally.draws++;
    else if ((result === '1-0') === (whiteId === me)) tally.wins++;
    else tally.losses++;
    this.#onScoreLine(scoreLine(this.#player, opponent, tally));
  }

  /** Each opponent's score and Elo line, then the whole match's, then why it ended early if it did. */
  finalLines(): string[] {
    const total: Tally = { games: 0, wins: 0, draws: 0, losses: 0 };
    const lines: string[] = [];
    for (const [opponent, t] of [...this.#byOpponent.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
      lines.push(scoreLine(this.#player, opponent, t), eloLine(t));
      total.games += t.games;
      total.wins += t.wins;
      total.draws += t.draws;
      total.losses += t.losses;
    }
    if (this.#byOpponent.size > 1) lines.push(scoreLine(this.#player, 'all', total), eloLine(total));
    const ending = this.#endingLine();
    return ending === undefined ? lines : [...lines, ending];
  }

  #endingLine(): string | undefined {
    const crash = this.#crash();
    if (crash !== undefined)
      return `${this.#player} crashed at ${toIso(crash.atMs)}, ${crash.error}: the match ends there, after ${this.#played} of the ${this.#target} games asked for`;
    if (!this.finished)
      return `${this.#player} finished ${this.#played} of the ${this.#target} games asked for in the virtual time allowed; its refusals and timeouts are in its verdict (report.json, verdicts.agents)`;
    return undefined;
  }

  /** The agent under test is the first agent the world registered (group 0, count 1). */
  #agentId(): string | undefined {
    const sim = this.#world.agents[0];
    return sim === undefined ? undefined : findAgent(this.#world.platform, sim.handle)?.id;
  }

  /** The match as report.json, summary.md and report.html keep it. */
  toReport(): AgentMatch {
    return buildAgentMatch(this.#player, this.#target, this.#byOpponent);
  }

  #nameOf(agentId: string): string {
    return this.#nameOfHandle(this.#world.platform.state.agents.get(agentId)!.handle);
  }

  /** By the one rule (src/report/agent-names.ts), worked out once the world has registered everyone. */
  #nameOfHandle(handle: string): string {
    if (this.#names.size === 0)
      this.#names = agentNames(this.#world.agents.filter((a) => a.account === 'agent'));
    return this.#names.get(handle) ?? handle;
  }
}
