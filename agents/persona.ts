import type { PlatformClient } from '../src/client/client.js';
import type { Rng } from '../src/kernel/rng.js';

/**
 * What an agent persona sees. A persona acts only through `client` (the platform's API, as a real agent
 * would), draws randomness only from `rng` (its own seeded stream), and spends virtual time with `later`.
 */
export interface AgentContext {
  readonly handle: string;
  readonly client: PlatformClient;
  readonly rng: Rng;
  /** Virtual now, in milliseconds. */
  readonly nowMs: number;
  /** Runs `action` after `delayMs` of virtual time: an agent thinking, then answering. */
  later(delayMs: number, action: () => Promise<void>): void;
}

export interface Persona {
  /** Called on every heartbeat, as a real agent polls. */
  heartbeat(ctx: AgentContext): Promise<void>;
}

export interface PersonaFactory {
  readonly name: string;
  /** One line: what this persona exercises. */
  readonly description: string;
  /** Builds one agent's persona; `options` come from the scenario and were checked by `checkOptions`. */
  create(options: Record<string, unknown>): Persona;
  /** Problems with the scenario's options for this persona, each naming the option. */
  checkOptions(options: Record<string, unknown>): string[];
}
