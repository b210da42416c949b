import { expect } from 'vitest';
import type { AgentContext, Persona } from '../../agents/persona.js';
import { PERSONAS } from '../../agents/registry.js';
import { canonicalJson } from '../../src/kernel/canonical.js';
import { Field, type Json } from '../../src/kernel/checkpoint.js';
import { stateFingerprint } from '../../src/platform/snapshot.js';
import { parseScenario } from '../../src/sim/scenario/scenario.js';
import { World, type SimAgent } from '../../src/sim/world.js';

/**
 * The personas' checkpoint proof (issue 25): twin worlds from one scenario. Each agent's persona sits in a
 * `Swappable`, which gives it a context with `defer` (the contract the world implements): a step goes out as
 * JSON text and comes back, when due, to whichever persona the agent has by then. At time T the second
 * world's personas are replaced by fresh ones loaded from their saved state; both worlds then run on.
 */
export class Swappable implements Persona {
  /** Steps deferred and not yet resumed. */
  pending = 0;
  readonly #contexts = new WeakMap<AgentContext, AgentContext>();

  constructor(public inner: Persona) {}

  heartbeat(ctx: AgentContext): Promise<void> {
    return this.inner.heartbeat(this.#withDefer(ctx));
  }

  /** The world's own context (its live `nowMs`, its `later`), plus `defer` sending the step as data. */
  #withDefer(ctx: AgentContext): AgentContext {
    let wrapped = this.#contexts.get(ctx);
    if (wrapped) return wrapped;
    const defer = (delayMs: number, step: Json) => {
      const text = JSON.stringify(step);
      this.inner.checkStep!(Field.root(JSON.parse(text), 'step'));
      this.pending++;
      ctx.later(delayMs, () => {
        this.pending--;
        return this.inner.resume!(wrapped!, Field.root(JSON.parse(text), 'step'));
      });
    };
    wrapped = Object.assign(Object.create(ctx) as AgentContext, { defer });
    this.#contexts.set(ctx, wrapped);
    return wrapped;
  }
}

export interface Twin {
  world: World;
  agents: Array<{ agent: SimAgent; persona: Swappable }>;
}

/** A world of `yaml`'s scenario, populated, each agent's persona in a `Swappable`. */
export async function twin(yaml: string): Promise<Twin> {
  const world = new World(parseScenario(yaml));
  await world.populate();
  const agents = world.agents.map((agent) => {
    const persona = new Swappable(agent.impl);
    (agent as { impl: Persona }).impl = persona;
    return { agent, persona };
  });
  return { world, agents };
}

/** The options the world made `agent`'s persona with (one group per persona in these scenarios). */
export function optionsOf(world: World, agent: SimAgent): Record<string, unknown> {
  return world.scenario.population.find((g) => g.persona === agent.persona)!.options;
}

/** A persona of the agent's kind, fresh from its factory, with `state` loaded. */
export function restored(world: World, agent: SimAgent, state: Json): Persona {
  const fresh = PERSONAS.get(agent.persona)!.create(optionsOf(world, agent));
  fresh.load!(Field.root(JSON.parse(JSON.stringify(state)) as unknown));
  return fresh;
}

/** Replaces every persona of `twin` by a fresh one loaded from its saved state, checking the round trip. */
export function swapAll(t: Twin): void {
  for (const { agent, persona } of t.agents) {
    const saved = persona.inner.save!();
    const fresh = restored(t.world, agent, saved);
    expect(canonicalJson(fresh.save!()), `${agent.handle}: save(load(save(x)))`).toBe(canonicalJson(saved));
    persona.inner = fresh;
  }
}

/** What must be equal in the two worlds: the event log, the platform's state, the invariants, every persona. */
export function endState(t: Twin): Record<string, unknown> {
  return {
    fingerprint: t.world.fingerprintSoFar(),
    state: stateFingerprint(t.world.platform, { includeUsage: true }),
    invariants: t.world.invariantResults().map((r) => [r.name, r.passed, r.checks]),
    personas: t.agents.map(({ persona }) => canonicalJson(persona.inner.save!())),
  };
}
