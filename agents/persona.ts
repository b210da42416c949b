import type { PlatformClient } from '../src/client/client.js';
import { Field, type Json } from '../src/kernel/checkpoint.js';
import type { Rng } from '../src/kernel/rng.js';

/**
 * What an agent persona sees. A persona acts only through `client` (the platform's API, as a real agent
 * would), draws randomness only from `rng` (its own seeded stream), and spends virtual time with `later`
 * (a closure) or `defer` (a step as data, which a checkpoint can keep).
 */
export interface AgentContext {
  readonly handle: string;
  readonly client: PlatformClient;
  readonly rng: Rng;
  /** Virtual now, in milliseconds. */
  readonly nowMs: number;
  /** Runs `action` after `delayMs` of virtual time: an agent thinking, then answering. */
  later(delayMs: number, action: () => Promise<void>): void;
  /**
   * Schedules `step` (plain JSON data, never a closure) `delayMs` of virtual time from now, exactly where
   * `later` would: when it is due the world calls `resume(ctx, step)` on the agent's persona of that moment.
   * A world that checkpoints keeps pending steps as data, so a restored persona finishes them. Optional:
   * a world without it gets the same step through `later` (see `deferStep`).
   */
  defer?(delayMs: number, step: Json): void;
}

export interface Persona {
  /** Called on every heartbeat, as a real agent polls. */
  heartbeat(ctx: AgentContext): Promise<void>;
  /**
   * The persona's private state as JSON data (sets and maps as lists, in their iteration order, since
   * draws pick from them). Never its options: a restore recreates the persona from the scenario's options.
   * A persona without it cannot be checkpointed.
   */
  save?(): Json;
  /**
   * Restores `save()`'s data into a persona fresh from `factory.create(options)`. The data is untrusted:
   * it is read through `Field` (closed records), and anything wrong throws a CheckpointError naming the field.
   */
  load?(state: Field): void;
  /** Runs a step this persona deferred with `ctx.defer`, read through `Field` (it may come from a checkpoint). */
  resume?(ctx: AgentContext, step: Field): Promise<void>;
  /**
   * Throws a CheckpointError naming the field when `step` is not a step this persona defers; a world
   * loading a checkpoint checks its pending steps with it, so a bad one fails the load, not the run.
   */
  checkStep?(step: Field): void;
}

/** A persona whose deferred steps are data (`defer`/`resume`), whatever the world offers. */
export interface ResumablePersona extends Persona {
  resume(ctx: AgentContext, step: Field): Promise<void>;
}

/**
 * Defers `step` through `ctx.defer`, or, in a world without it, through `later` with the same delay (the
 * same virtual instant and order, so a run's events and draws are the same either way).
 */
export function deferStep(ctx: AgentContext, persona: ResumablePersona, delayMs: number, step: Json): void {
  if (ctx.defer) ctx.defer(delayMs, step);
  else ctx.later(delayMs, () => persona.resume(ctx, Field.root(step, 'step')));
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
