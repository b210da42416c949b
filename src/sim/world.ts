import type { Api } from '../api/dispatch.js';
import { errorCode, PlatformClient } from '../client/client.js';
import { WireContractError } from '../client/wire-check.js';
import type { Transport, TransportRequest, TransportResponse } from '../client/transport.js';
import { Rng } from '../kernel/rng.js';
import { Scheduler } from '../kernel/scheduler.js';
import type { Platform } from '../platform/index.js';
import type { PlatformEvent } from '../platform/events.js';
import { Fingerprint } from '../kernel/canonical.js';
import { CheckpointError, Field, type Json } from '../kernel/checkpoint.js';
import type { AleaState } from '../kernel/rng.js';
import { loadPlatform, platformCheckpoint } from '../platform/checkpoint.js';
import { JsonLater, JsonRows, materialized } from '../kernel/json-parts.js';
import {
  countsOf,
  loadAgentStats,
  loadRequestStats,
  readCounts,
  saveAgentStats,
  saveRequestStats,
  type AgentRequestStats,
  type RequestStats,
} from './request-stats.js';
import { PERSONAS } from '../../agents/registry.js';
import type { AgentContext, Persona, PersonaFactory } from '../../agents/persona.js';
import type { AccountKind } from '../../agents/registry.js';
import { AgentModuleError, loadAgentModule } from '../../agents/adapters/byo.js';
import { levelsFor } from '../../agents/engines/strength.js';
import { InvariantSuite, type InvariantResult } from './invariants/invariants.js';
import { InvariantModuleError, loadUserInvariants } from './invariants/user-invariants.js';
import { requiredNotExercised } from './invariants/exercised.js';
import { unknownRequired } from './scenario/require-exercised.js';
import { ScenarioError, type PopulationGroup, type Scenario } from './scenario/scenario.js';
import { drawPeriodMs, periodRange } from './scenario/population.js';
import { airdrop } from '../platform/money/transfers.js';
import type { crossCheck } from '../escrow/litesvm.js';
import type { CrossCheckResult } from '../escrow/cross-check-result.js';
import { DAY_MS } from '../rules/rate-limit.js';
import { wirePlatform, type WiredPlatform } from './wiring.js';
import { MinuteCounts } from './minute-counts.js';
import { crashLine, RunFaults, type AgentCrash, type FaultsMet } from '../faults/run-faults.js';

/**
 * The world runner: a bounded loop over one virtual timeline. Each step takes the next due event
 * (platform timers first at equal instants, then agent heartbeats and deferred agent actions in
 * insertion order) and runs it to completion before the next, so one seed always gives one history.
 */
export interface SimAgent {
  readonly index: number;
  readonly handle: string;
  readonly persona: string;
  readonly account: AccountKind;
  readonly client: PlatformClient;
  readonly rng: Rng;
  readonly impl: Persona;
  readonly heartbeatMinMs: number;
  readonly heartbeatMaxMs: number;
}

type WorldEvent = { kind: 'heartbeat'; agent: number } | { kind: 'deferred'; action: number };

export type { AgentRequestStats, RequestStats } from './request-stats.js';

/** A deferred agent action: a closure (module agents, fault wake-ups), or a persona's step as data, which a checkpoint can save. */
type Deferred = (() => Promise<void>) | { agent: number; step: Json };

/** How a long populate pauses (`Slicing` in live.ts has this shape): a pause test per slice, a yield between. */
export interface PopulateSlicing {
  startSlice(): () => boolean;
  yieldNow(): Promise<void>;
  cancelled?(): boolean;
}

export interface RunOutcome {
  platform: Platform;
  agents: SimAgent[];
  invariants: InvariantResult[];
  /** Invariants the scenario requires to be exercised (`requireExercised`) that ran no check: each fails the run. */
  requiredNotExercised: string[];
  failed: boolean;
  fingerprint: string;
  events: number;
  requests: RequestStats;
  eventCounts: Map<PlatformEvent['type'], number>;
  /** Accepted votes cast through the vote route, by value (the upvotes follows cast and unfollows clear are apart). */
  votesByValue: Record<'up' | 'down' | 'clear', number>;
  /** `profile_voted` events a follow or unfollow caused (`byFollow`). */
  followLinkedVotes: number;
  /** `unfollowed` events a down or clear vote caused (`byVote`). */
  unfollowsByVote: number;
  endMs: number;
  /** Present when the run replayed its ledger through litesvm. */
  crossCheck: CrossCheckResult | null;
  /** Agents whose own code threw (module agents, and any agent under a fault profile), by handle. */
  crashes: ReadonlyMap<string, AgentCrash>;
  /** The fault profile and what each agent met, when the scenario has a profile with rules. */
  faults: FaultsMet | undefined;
  /** The population group label (`population[1]`, ...) of each agent, by `SimAgent.index`. */
  agentGroups: readonly string[];
}

export interface WorldOptions {
  /** Replay the ledger through litesvm at the end, whatever the scenario says. */
  crossCheck?: boolean;
  /** A live server's per-start secret for API keys (`PlatformOptions.keySecret`); runs leave it out. */
  keySecret?: Uint8Array;
  /**
   * Check every answer against the route contracts (src/client/wire-check.ts); the run fails at its end if
   * any answer left them. Tests and CI turn it on; it changes nothing else.
   */
  checkWire?: boolean;
  /** Receives the canonical event log, the text the fingerprint hashes, as it grows (`run --events`). */
  eventLog?: (text: string) => void;
  /**
   * The world can be checkpointed (`save`): its fingerprint hashes in a mode whose running state can be
   * written out (a live server's world; a run needs none and keeps the faster native hash).
   */
  checkpoints?: boolean;
}

const CHECKPOINT_FORMAT = 'agent-chess-sim/world-checkpoint@1';

export type ProgressListener = (fraction: number, nowMs: number) => void;

export class World {
  readonly scenario: Scenario;
  readonly platform: Platform;
  readonly api: Api;
  readonly agents: SimAgent[] = [];
  readonly invariants: InvariantSuite;
  readonly requests: RequestStats;
  readonly #scheduler: Scheduler<WorldEvent>;
  readonly #deferred = new Map<number, Deferred>();
  /** How each agent was made, by index: its population group and its calibrated level, if any (a checkpoint remakes it). */
  readonly #made: { group: number; level: string | null }[] = [];
  /** Counts every request the agents send (built once: a restored world's agents count into the same tallies). */
  readonly #transport: CountingTransport;
  #fingerprint: Fingerprint;
  readonly #eventLog: ((text: string) => void) | undefined;
  readonly #eventCounts = new Map<PlatformEvent['type'], number>();
  readonly #votesByValue = { up: 0, down: 0, clear: 0 };
  #followLinkedVotes = 0;
  #unfollowsByVote = 0;
  readonly #rng: Rng;
  /** One context per agent, built once: heartbeats are the hottest loop of a run. */
  readonly #contexts: AgentContext[] = [];
  /** Each agent's population group label, by index, for the report. */
  readonly #agentGroups: string[] = [];
  /** Fault injection, only for a scenario whose profile has rules (nothing else draws from its stream). */
  readonly #faults: RunFaults | undefined;
  /**
   * Agents whose thrown errors are recorded as crashes rather than ending the run, by index: every module agent
   * (its code is the user's, and one agent's bug must not end everyone's run), and every agent under a fault
   * profile (a built-in persona meeting a 502 it does not handle). A built-in persona that throws without a
   * profile is a bug of the simulator, so it still stops the run.
   */
  readonly #guarded: boolean[] = [];
  readonly #crashes = new Map<string, AgentCrash>();
  #nextAction = 0;
  #steps = 0;

  readonly #crossCheck: boolean;
  /**
   * litesvm's replay, loaded by `populate` only when this run cross-checks: litesvm and Solana's web3 cost
   * every other run a third of a second and 20 MB of start-up (issue 32).
   */
  #crossChecker: typeof crossCheck | undefined;
  /** The platform behind its route table; the agents' transport is wire-checked when the run asks. */
  readonly #wired: WiredPlatform;

  constructor(scenario: Scenario, options: WorldOptions = {}) {
    this.scenario = scenario;
    this.#eventLog = options.eventLog;
    this.#fingerprint = new Fingerprint(options.eventLog, { exportable: options.checkpoints === true });
    this.requests = {
      requests: 0,
      rejected: 0,
      byCode: new Map(),
      rateLimitedByAction: new Map(),
      byAgent: new Map(),
      rateLimitedByMinute: new MinuteCounts(scenario.startMs),
    };
    this.#crossCheck = options.crossCheck ?? scenario.crossCheck;
    this.#wired = wirePlatform({
      seed: scenario.seed,
      startMs: scenario.startMs,
      ruleset: scenario.ruleset,
      network: scenario.network,
      ledgerJournal: this.#crossCheck,
      keySecret: options.keySecret,
      checkWire: options.checkWire ? 'collect' : 'off',
    });
    this.platform = this.#wired.platform;
    this.api = this.#wired.api;
    this.#scheduler = new Scheduler<WorldEvent>(this.platform.clock);
    this.#rng = new Rng(scenario.seed).fork('world');
    this.invariants = new InvariantSuite(this.platform);
    if (scenario.faults && scenario.faults.rules.length > 0)
      this.#faults = new RunFaults(
        scenario.faults,
        scenario.seed,
        scenario.startMs,
        () => this.platform.nowMs,
        (delayMs, wake) => this.#defer(delayMs, wake),
      );
    this.platform.onEvent((event) => this.#record(event));
    this.#transport = new CountingTransport(this.#wired.transport, this.requests, () => this.platform.nowMs);
  }

  #record(event: PlatformEvent): void {
    this.#fingerprint.add(event);
    this.#eventCounts.set(event.type, (this.#eventCounts.get(event.type) ?? 0) + 1);
    if (event.type === 'profile_voted' || event.type === 'unfollowed') this.#tallyVote(event);
  }

  /** Votes cast through the vote route apart from those a follow or unfollow implies, for the report. */
  #tallyVote(event: Extract<PlatformEvent, { type: 'profile_voted' | 'unfollowed' }>): void {
    if (event.type === 'unfollowed') {
      if (event.byVote) this.#unfollowsByVote++;
    } else if (event.byFollow) this.#followLinkedVotes++;
    else this.#votesByValue[event.vote]++;
  }

  /**
   * Registers the population through the API (as real agents do) and schedules first heartbeats. Agent
   * modules are loaded first, so a bad module stops the run before any agent exists or any event runs.
   * With `slicing` (a live server's restore), it lets other work run between slices of agents; nothing else
   * touches this world meanwhile, so the population is the same. False when `slicing` cancelled it part-way.
   */
  async populate(slicing?: PopulateSlicing): Promise<boolean> {
    await this.#loadUserInvariants();
    if (this.#crossCheck) this.#crossChecker = (await import('../escrow/litesvm.js')).crossCheck;
    const factories = await this.#loadFactories();
    const handles = new HandleSequence();
    let shouldPause = slicing?.startSlice();
    for (const [g, group] of this.scenario.population.entries()) {
      const factory = factories[g]!;
      const levels = this.#levelsFor(group, factory);
      for (let i = 0; i < group.count; i++) {
        if (slicing && shouldPause!()) {
          await slicing.yieldNow();
          if (slicing.cancelled?.()) return false;
          shouldPause = slicing.startSlice();
        }
        const handle = handles.next(factory.name);
        const counted = this.#transport.forAgent(handle);
        const faulty = this.#faults?.transportFor(counted, handle);
        const client = new PlatformClient(faulty ?? counted);
        await this.#signUp(client, handle, group, factory);
        faulty?.arm();
        const rng = this.#rng.fork(agentStream(handle));
        const heartbeat = agentHeartbeat(group, rng);
        const agent = this.#addAgent(
          { handle, factory, group: g, level: levels?.[i] ?? null, client, rng },
          heartbeat,
        );
        // Spread first heartbeats over one interval so a population does not poll in lockstep.
        this.#scheduler.after(rng.int(0, agent.heartbeatMaxMs), { kind: 'heartbeat', agent: agent.index });
      }
    }
    return true;
  }

  /** An agent joins the world's lists (`populate`, and a checkpoint's restore). */
  #addAgent(
    made: {
      handle: string;
      factory: PersonaFactory;
      group: number;
      level: string | null;
      client: PlatformClient;
      rng: Rng;
    },
    heartbeat: { minMs: number; maxMs: number },
  ): SimAgent {
    const group = this.scenario.population[made.group]!;
    this.#guarded.push(
      this.#faults !== undefined || group.module !== undefined || group.harness !== undefined,
    );
    const options = made.level === null ? group.options : { ...group.options, level: made.level };
    const agent: SimAgent = {
      index: this.agents.length,
      handle: made.handle,
      persona: made.factory.name,
      account: group.account,
      client: made.client,
      rng: made.rng,
      impl: made.factory.create(options),
      heartbeatMinMs: heartbeat.minMs,
      heartbeatMaxMs: heartbeat.maxMs,
    };
    this.agents.push(agent);
    this.#agentGroups.push(group.label);
    this.#made.push({ group: made.group, level: made.level });
    return agent;
  }

  /** The scenario's own invariant modules, loaded and added to the suite before the first event. */
  async #loadUserInvariants(): Promise<void> {
    if (!this.scenario.invariants) return;
    try {
      const context = { ruleset: this.scenario.ruleset, platform: this.platform };
      this.invariants.add(await loadUserInvariants(this.scenario.invariants, context, this.invariants.names));
    } catch (error) {
      if (!(error instanceof InvariantModuleError)) throw error;
      throw new ScenarioError(this.scenario.name, [error.message]);
    }
    // The scenario's check of `requireExercised` let through names it could not know yet: the modules' own.
    const unknown = unknownRequired(this.scenario.requireExercised, this.invariants.names);
    if (unknown) throw new ScenarioError(this.scenario.name, [unknown]);
  }

  /** Each group's factory: a registered persona, or a module loaded (and its options checked) now. */
  async #loadFactories(): Promise<PersonaFactory[]> {
    const factories: PersonaFactory[] = [];
    for (const group of this.scenario.population) {
      if (group.harness) {
        factories.push(this.#checkedHarness(group, group.harness));
        continue;
      }
      if (!group.module) {
        factories.push(PERSONAS.get(group.persona)!);
        continue;
      }
      try {
        factories.push(await loadAgentModule(group.module.path, group.module.baseDir, group.options));
      } catch (error) {
        if (!(error instanceof AgentModuleError)) throw error;
        throw new ScenarioError(this.scenario.name, [`${group.label}.module: ${error.message}`]);
      }
    }
    return factories;
  }

  /** A harness given in code, its options checked as a module's are when it loads. */
  #checkedHarness(group: PopulationGroup, harness: PersonaFactory): PersonaFactory {
    const problems = harness.checkOptions(group.options);
    if (problems.length > 0)
      throw new ScenarioError(
        this.scenario.name,
        problems.map((p) => `${group.label}.options.${p}`),
      );
    return harness;
  }

  /** A group with a strength spread: one calibrated level per agent, from the world's seed (undefined otherwise). */
  #levelsFor(group: PopulationGroup, factory: PersonaFactory): string[] | undefined {
    if (!group.strength) return undefined;
    const levels = levelsFor(group.strength, group.count, this.#rng.fork(`strength:${group.label}`));
    for (const level of new Set(levels)) {
      const problems = factory.checkOptions({ ...group.options, level });
      if (problems.length > 0)
        throw new ScenarioError(
          this.scenario.name,
          problems.map((p) => `${group.label}.strength: the ladder's level ${level} is refused: ${p}`),
        );
    }
    return levels;
  }

  /** An agent registers (and gets its airdrop); a human account is made through the simulator's control route. */
  async #signUp(
    client: PlatformClient,
    handle: string,
    group: PopulationGroup,
    factory: PersonaFactory,
  ): Promise<void> {
    if (group.account === 'human') {
      await client.createHuman({
        username: handle,
        display_name: handle.replace('_', ' '),
        bio: factory.description,
      });
      return;
    }
    const registered = await client.register({ handle, bio: factory.description, tags: [factory.name] });
    if (group.airdropLamports > 0) airdrop(this.platform, registered.wallet_address, group.airdropLamports);
  }

  async run(onProgress?: ProgressListener): Promise<RunOutcome> {
    const endMs = this.scenario.startMs + this.scenario.durationMs;
    let nextProgressMs = this.scenario.startMs;
    await this.runUntil(endMs, (due) => {
      if (!onProgress || due < nextProgressMs) return;
      onProgress((due - this.scenario.startMs) / this.scenario.durationMs, due);
      nextProgressMs = due + this.scenario.durationMs / 100;
    });
    return this.#outcome(endMs);
  }

  /**
   * Runs every world event due at or before `untilMs`, in due order, then moves the clock there. A run is
   * one call; a live server (`serve`) calls it as its clock advances, and the history is the same.
   */
  async runUntil(untilMs: number, onStep?: (dueMs: number) => void): Promise<void> {
    await this.runSlice(untilMs, () => false, onStep);
  }

  /**
   * Runs like `runUntil`, but stops after the first instant at which `shouldPause` answers true, with the
   * clock at that instant. It stops only between instants, never inside one, so a run in slices and a run in
   * one call execute the same events in the same order (a live server answers requests between slices, and
   * its snapshot replays each slice as one `runUntil`). Returns true when it reached `untilMs`.
   */
  async runSlice(
    untilMs: number,
    shouldPause: () => boolean,
    onStep?: (dueMs: number) => void,
  ): Promise<boolean> {
    if (this.agents.length === 0) await this.populate();
    const maxSteps = 200_000_000; // a bound, not a budget: hitting it means a runaway loop
    for (
      let due = this.#scheduler.peekDueMs();
      due !== undefined && due <= untilMs;
      due = this.#scheduler.peekDueMs()
    ) {
      // Every world event due at `due`, those the instant's own events schedule for it included. The loop
      // is this function's own, not an async one per instant: a crowd runs millions of instants, and each
      // async call and await is a promise and its reaction for the collector.
      while (this.#scheduler.peekDueMs() === due) {
        if (++this.#steps > maxSteps) throw new Error(`world exceeded ${maxSteps} steps`);
        this.platform.advanceTo(due);
        const event = this.#scheduler.popDuePayload(due)!;
        if (event.kind === 'heartbeat' && !this.#guarded[event.agent]) {
          // Nearly every step: run here, with no async #dispatch around it, for the same reason.
          const agent = this.agents[event.agent]!;
          await agent.impl.heartbeat(this.#contextOf(agent));
          this.#nextHeartbeat(agent, event);
        } else await this.#dispatch(event);
        onStep?.(due);
      }
      if (due < untilMs && shouldPause()) {
        this.platform.advanceTo(due);
        return false;
      }
    }
    this.platform.advanceTo(untilMs);
    return true;
  }

  /** The invariant results so far, without ending the run (a live server reports them on demand). */
  invariantResults(): InvariantResult[] {
    return this.invariants.results();
  }

  /** The crash of `handle`'s own code, once a guarded agent threw: it takes no further step. */
  crashOf(handle: string): AgentCrash | undefined {
    return this.#crashes.get(handle);
  }

  /** The fingerprint of the event log so far. */
  fingerprintSoFar(): string {
    return this.#fingerprint.digest();
  }

  /** A deferred action, or a guarded agent's heartbeat (runSlice runs the others' itself). */
  #dispatch(event: WorldEvent): Promise<void> {
    if (event.kind === 'deferred') {
      const action = this.#deferred.get(event.action)!;
      this.#deferred.delete(event.action);
      return typeof action === 'function' ? action() : this.#resumeStep(action.agent, action.step);
    }
    const agent = this.agents[event.agent]!;
    const context = this.#contextOf(agent);
    return this.#guardedStep(
      agent,
      () => agent.impl.heartbeat(context),
      () => this.#nextHeartbeat(agent, event),
    );
  }

  /** The agent's next heartbeat, a draw from its period range after this one ends. */
  #nextHeartbeat(agent: SimAgent, event: WorldEvent): void {
    this.#scheduler.after(agent.rng.int(agent.heartbeatMinMs, agent.heartbeatMaxMs), event);
  }

  /**
   * A step of a guarded agent (a module, or any agent under a fault profile): a throw is recorded as its
   * crash, at the virtual time it happened, and the agent takes no further step; the run goes on. Under a
   * fault profile the step may also wait in virtual time (src/faults/parking.ts).
   */
  #guardedStep(agent: SimAgent, step: () => Promise<void>, then?: () => void): Promise<void> {
    if (this.#crashes.has(agent.handle)) return Promise.resolve();
    const run = () =>
      step().then(
        () => {
          if (!this.#crashes.has(agent.handle)) then?.();
        },
        (error: unknown) => {
          this.#crashes.set(agent.handle, { atMs: this.platform.nowMs, error: crashLine(error) });
        },
      );
    return this.#faults ? this.#faults.parking.run(run) : run();
  }

  /** A persona's step saved as data, run by the persona (guarded as its other steps are). */
  #resumeStep(index: number, step: Json): Promise<void> {
    const agent = this.agents[index]!;
    const context = this.#contextOf(agent);
    const resume = () => agent.impl.resume!(context, Field.root(step, `step of ${agent.handle}`));
    return this.#guarded[index] ? this.#guardedStep(agent, resume) : resume();
  }

  /** Runs `action` `delayMs` of virtual time from now, after what is already due then. */
  #defer(delayMs: number, action: Deferred): void {
    const id = this.#nextAction++;
    this.#deferred.set(id, action);
    this.#scheduler.after(Math.max(0, Math.round(delayMs)), { kind: 'deferred', action: id });
  }

  /** The agent's context, built at its first step. */
  #contextOf(agent: SimAgent): AgentContext {
    return (this.#contexts[agent.index] ??= this.#contextFor(agent));
  }

  #contextFor(agent: SimAgent): AgentContext {
    const platform = this.platform;
    return {
      handle: agent.handle,
      client: agent.client,
      rng: agent.rng,
      get nowMs() {
        return platform.nowMs;
      },
      later: (delayMs, action) =>
        this.#defer(delayMs, this.#guarded[agent.index] ? () => this.#guardedStep(agent, action) : action),
      defer: (delayMs, step) => this.#defer(delayMs, { agent: agent.index, step }),
    };
  }

  /** A run whose answers left the contract stops here, naming the first few faults. */
  #failOnWireFaults(): void {
    const faults = this.#wired.wireFaults;
    if (faults.length === 0) return;
    throw new WireContractError(
      `${faults.length} answers left the route contracts; first: ${faults.slice(0, 3).join(' | ')}`,
    );
  }

  /**
   * The outcome as if the run ended now: serve's session report (src/lib/session-report.ts). The final
   * invariant checks run at this instant; a world that goes on is checked again at its next report.
   */
  outcomeSoFar(): RunOutcome {
    return this.#outcome(this.platform.nowMs);
  }

  #loadedCrossChecker(): typeof crossCheck {
    if (!this.#crossChecker) throw new Error('a cross-checked world ended before populate loaded litesvm');
    return this.#crossChecker;
  }

  /**
   * Why this world cannot be checkpointed, or null when it can. A checkpoint is data, so a world holding
   * what data cannot be (the user's module code, an engine process, a fault step parked mid-request, a closure
   * a persona left to run later) keeps the replay log instead (src/sim/live.ts).
   */
  whyNotCheckpointable(): string | null {
    if (!this.#fingerprint.exportable) return 'the world was not made for checkpoints';
    if (this.scenario.invariants) return 'the scenario loads invariant modules';
    if (this.#faults) return 'the scenario has a fault profile (its parked steps are not data)';
    if (this.#crossCheck) return 'the world cross-checks its ledger through litesvm';
    for (const group of this.scenario.population)
      if (group.module || group.harness) return `${group.label} is an agent module`;
    for (const agent of this.agents)
      if (!agent.impl.save) return `${agent.handle}'s persona ${agent.persona} keeps no checkpoint`;
    for (const action of this.#deferred.values())
      if (typeof action === 'function') return 'an agent left a closure to run later';
    return null;
  }

  /** The whole world as JSON data (src/kernel/checkpoint.ts): `World.restore` rebuilds it without replay. */
  save(): Json {
    return materialized(this.checkpointData()) as Json;
  }

  /**
   * `save`'s data with its agents and the platform's rows made one at a time as they are written
   * (src/kernel/json-parts.ts), so a live server writes a large world's checkpoint between other requests.
   * The world must not change until the last piece is written.
   */
  checkpointData(): Record<string, unknown> {
    const why = this.whyNotCheckpointable();
    if (why) throw new Error(`cannot checkpoint this world: ${why}`);
    return {
      format: CHECKPOINT_FORMAT,
      platform: platformCheckpoint(this.platform),
      agents: JsonRows.of(this.agents, (agent) => this.#saveAgent(agent)),
      queue: this.#scheduler.saveRows(saveWorldEvent),
      deferred: new JsonLater(() =>
        [...this.#deferred].map(([id, action]) => {
          const step = action as { agent: number; step: Json };
          return [id, step.agent, step.step];
        }),
      ),
      nextAction: this.#nextAction,
      steps: this.#steps,
      invariants: new JsonLater(() => this.invariants.save()),
      fingerprint: this.#fingerprint.save(),
      requests: saveRequestStats(this.requests),
      eventCounts: countsOf(this.#eventCounts),
      votes: { ...this.#votesByValue },
      followLinkedVotes: this.#followLinkedVotes,
      unfollowsByVote: this.#unfollowsByVote,
    };
  }

  #saveAgent(agent: SimAgent): Json {
    const made = this.#made[agent.index]!;
    return {
      handle: agent.handle,
      group: made.group,
      level: made.level,
      rng: { ...agent.rng.state() },
      heartbeat: [agent.heartbeatMinMs, agent.heartbeatMaxMs],
      apiKey: agent.client.apiKey ?? null,
      requests: saveAgentStats(this.requests.byAgent.get(agent.handle)!),
      persona: agent.impl.save!(),
    };
  }

  /**
   * A world rebuilt from `save`'s data, read through the closed schema (a CheckpointError names the first
   * wrong field). A generator: it yields once per agent and table row, so a live server answers other
   * requests between slices of a 100,000-agent restore.
   */
  static *restore(scenario: Scenario, saved: Field, options: WorldOptions = {}): Generator<void, World> {
    const world = new World(scenario, { ...options, checkpoints: true });
    const why = world.whyNotCheckpointable();
    if (why)
      throw new CheckpointError(`${saved.path}: this scenario cannot be restored from a checkpoint: ${why}`);
    yield* world.#load(saved);
    return world;
  }

  *#load(saved: Field): Generator<void> {
    const parts = saved.record((get) => {
      get('format').oneOf([CHECKPOINT_FORMAT]);
      const names = [
        'platform',
        'agents',
        'queue',
        'deferred',
        'invariants',
        'fingerprint',
        'requests',
      ] as const;
      const fields = Object.fromEntries(names.map((name) => [name, get(name)])) as Record<
        (typeof names)[number],
        Field
      >;
      this.#nextAction = get('nextAction').nat();
      this.#steps = get('steps').nat();
      readCounts(get('eventCounts'), this.#eventCounts, /^[a-z_]{1,64}$/);
      get('votes').record((vote) => {
        for (const value of ['up', 'down', 'clear'] as const) this.#votesByValue[value] = vote(value).nat();
      });
      this.#followLinkedVotes = get('followLinkedVotes').nat();
      this.#unfollowsByVote = get('unfollowsByVote').nat();
      return fields;
    });
    yield* loadPlatform(this.platform, parts.platform);
    for (const item of parts.agents.items()) {
      this.#loadAgent(item);
      yield;
    }
    this.#loadDeferred(parts.deferred);
    yield* this.#scheduler.load(parts.queue, (payload) => this.#readWorldEvent(payload));
    yield* this.invariants.loadSteps(parts.invariants);
    this.#fingerprint = Fingerprint.load(parts.fingerprint, this.#eventLog);
    loadRequestStats(this.requests, parts.requests);
  }

  #loadAgent(item: Field): void {
    item.record((get) => {
      const handle = get('handle').str(64);
      if (!/^[A-Za-z0-9._]{1,64}$/.test(handle) || this.requests.byAgent.has(handle))
        get('handle').fail('a handle no other agent of the checkpoint has');
      const group = get('group').int(0, this.scenario.population.length - 1);
      const factory = PERSONAS.get(this.scenario.population[group]!.persona)!;
      const level = get('level').nullOr((f) => this.#checkedLevel(f, group, factory));
      const [minMs, maxMs] = readHeartbeat(get('heartbeat'));
      const rng = this.#rng.resumeFork(agentStream(handle), readAleaState(get('rng')));
      const client = new PlatformClient(this.#transport.forAgent(handle));
      client.apiKey = get('apiKey').nullOr((f) => f.str(200)) ?? undefined;
      loadAgentStats(this.requests.byAgent.get(handle)!, get('requests'));
      const agent = this.#addAgent({ handle, factory, group, level, client, rng }, { minMs, maxMs });
      const persona = agent.impl;
      if (!persona.load)
        throw new CheckpointError(
          `${item.path}.group: must be a group whose persona keeps a checkpoint (${factory.name} keeps none)`,
        );
      persona.load(get('persona'));
    });
  }

  /** A calibrated level is one the group's persona takes (the ladder's names; never an engine option of its own). */
  #checkedLevel(field: Field, group: number, factory: PersonaFactory): string {
    const level = field.str(64);
    const population = this.scenario.population[group]!;
    if (!population.strength || factory.checkOptions({ ...population.options, level }).length > 0)
      field.fail(`a level of the ${factory.name} ladder, in a group with a strength spread`);
    return level;
  }

  #loadDeferred(field: Field): void {
    for (const item of field.items()) {
      const parts = item.list((f) => f);
      if (parts.length !== 3) item.fail('[id, agent index, step]');
      const [id, agent, step] = parts as [Field, Field, Field];
      const action = id.int(0, this.#nextAction - 1);
      if (this.#deferred.has(action)) id.fail('an id no other deferred step has');
      const index = agent.int(0, this.agents.length - 1);
      const checkStep = this.agents[index]!.impl.checkStep?.bind(this.agents[index]!.impl);
      if (!checkStep) throw new CheckpointError(`${agent.path}: must be an agent whose persona defers steps`);
      checkStep(step);
      this.#deferred.set(action, { agent: index, step: step.value as Json });
    }
  }

  #readWorldEvent(payload: Field): WorldEvent {
    return payload.record((get) => {
      const kind = get('kind').oneOf(['heartbeat', 'deferred']);
      if (kind === 'heartbeat') return { kind, agent: get('agent').int(0, this.agents.length - 1) };
      const action = get('action').nat();
      if (!this.#deferred.has(action)) get('action').fail('the id of a deferred step of the checkpoint');
      return { kind, action };
    });
  }

  #outcome(endMs: number): RunOutcome {
    this.#failOnWireFaults();
    const invariants = this.invariants.finish(endMs);
    const ledgerCheck = this.#crossCheck
      ? this.#loadedCrossChecker()(this.platform.ledger.journal, {
          balances: this.platform.ledger.balances(),
        })
      : null;
    const unexercised = requiredNotExercised(invariants, this.scenario.requireExercised);
    return {
      platform: this.platform,
      agents: this.agents,
      invariants,
      requiredNotExercised: unexercised,
      failed:
        invariants.some((r) => !r.passed) ||
        unexercised.length > 0 ||
        (ledgerCheck !== null && !ledgerCheck.passed),
      fingerprint: this.#fingerprint.digest(),
      events: this.#fingerprint.lines,
      requests: this.requests,
      eventCounts: this.#eventCounts,
      votesByValue: { ...this.#votesByValue },
      followLinkedVotes: this.#followLinkedVotes,
      unfollowsByVote: this.#unfollowsByVote,
      endMs,
      crossCheck: ledgerCheck,
      agentGroups: [...this.#agentGroups],
      crashes: this.#crashes,
      faults: this.#faults && { profile: this.#faults.injector.profile, tally: this.#faults.tally },
    };
  }
}

/** The name of an agent's own random stream, forked from the world's. */
function agentStream(handle: string): string {
  return `agent:${handle}`;
}

/** A world event as checkpoint data: already plain, so written as it is. */
function saveWorldEvent(event: WorldEvent): Json {
  return { ...event };
}

function readHeartbeat(field: Field): [number, number] {
  const range = field.list((f) => f.int(1));
  if (range.length !== 2 || range[0]! > range[1]!)
    field.fail('[least, most] milliseconds between heartbeats');
  return [range[0]!, range[1]!];
}

function readAleaState(field: Field): AleaState {
  return field.record((get) => ({
    c: get('c').num(),
    s0: get('s0').num(),
    s1: get('s1').num(),
    s2: get('s2').num(),
  }));
}

/**
 * Counts every request, every refusal by error code, and every 429 by the limit it names, for the report;
 * `forAgent` gives one account's client a transport that also counts that account's own requests. Each
 * request is one `then` on the inner transport's answer (no async function per layer: a crowd sends
 * millions of requests, and each async frame is an allocation and a promise more).
 */
class CountingTransport {
  constructor(
    private readonly inner: Transport,
    private readonly stats: RequestStats,
    private readonly nowMs: () => number,
  ) {}

  /** The world's count of one answer. */
  count(response: TransportResponse): void {
    this.stats.requests++;
    if (response.status < 400) return;
    this.stats.rejected++;
    const code = errorCode(response.body);
    this.stats.byCode.set(code, (this.stats.byCode.get(code) ?? 0) + 1);
    if (response.status === 429) {
      const named = (response.body as { action?: unknown } | null)?.action;
      const action = typeof named === 'string' ? named : 'unknown';
      this.stats.rateLimitedByAction.set(action, (this.stats.rateLimitedByAction.get(action) ?? 0) + 1);
      this.stats.rateLimitedByMinute.add(action, this.nowMs());
    }
  }

  forAgent(handle: string): Transport {
    const own: AgentRequestStats = { requests: 0, byCode: new Map(), dayIndex: -1, today: 0, maxPerDay: 0 };
    this.stats.byAgent.set(handle, own);
    // Made once per agent: the answer's handler is no new closure per request.
    const counted = (response: TransportResponse): TransportResponse => {
      this.count(response);
      countAgentRequest(own, response, Math.floor(this.nowMs() / DAY_MS));
      return response;
    };
    const inner = this.inner;
    const send = (request: TransportRequest): Promise<TransportResponse> => {
      try {
        return inner.send(request).then(counted);
      } catch (error) {
        // As an async function would: a transport's throw is the promise's rejection, passed on as thrown.
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
        return Promise.reject(error);
      }
    };
    if (inner.sendNow === undefined) return { send };
    const sendNow = inner.sendNow.bind(inner);
    return { send, sendNow: (request) => counted(sendNow(request)) };
  }
}

function countAgentRequest(own: AgentRequestStats, response: TransportResponse, dayIndex: number): void {
  own.requests++;
  if (dayIndex !== own.dayIndex) {
    own.dayIndex = dayIndex;
    own.today = 0;
  }
  own.today++;
  own.maxPerDay = Math.max(own.maxPerDay, own.today);
  if (response.status >= 400) {
    const code = errorCode(response.body);
    own.byCode.set(code, (own.byCode.get(code) ?? 0) + 1);
  }
}

/**
 * Handles are `<persona>_0001`, numbered per persona across groups, so two groups (or a mix and a group) of
 * one persona never collide. Characters a handle may not hold (WIRE §2: letters, digits, `.` and `_`) become `_`.
 */
class HandleSequence {
  readonly #next = new Map<string, number>();

  next(persona: string): string {
    const prefix = persona.replace(/[^A-Za-z0-9._]/g, '_');
    const n = (this.#next.get(prefix) ?? 0) + 1;
    this.#next.set(prefix, n);
    return `${prefix}_${String(n).padStart(4, '0')}`;
  }
}

/** The range an agent draws each heartbeat delay from: the group's, or one around a period of its own drawn from the group's distribution. */
function agentHeartbeat(group: PopulationGroup, rng: Rng): { minMs: number; maxMs: number } {
  if (!group.heartbeatPeriod) return { minMs: group.heartbeatMinMs, maxMs: group.heartbeatMaxMs };
  const period = drawPeriodMs(group.heartbeatPeriod, group.heartbeatMinMs, group.heartbeatMaxMs, rng);
  return periodRange(period, group.heartbeatMinMs, group.heartbeatMaxMs);
}

export async function runScenario(
  scenario: Scenario,
  onProgress?: ProgressListener,
  options: WorldOptions = {},
): Promise<RunOutcome> {
  return new World(scenario, options).run(onProgress);
}
