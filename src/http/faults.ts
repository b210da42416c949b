import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiResponse } from '../api/types.js';
import { brokenJson } from '../faults/bodies.js';
import { FaultInjector, outcomeKind, type FaultDecision } from '../faults/decide.js';
import { EMPTY_PROFILE, faultProfileSource, type FaultKind, type FaultProfile } from '../faults/profile.js';
import type { FaultsState } from '../faults/state.js';
import { FaultTally, requestSignature } from '../faults/tally.js';
import { JSON_TYPE } from './direct-get.js';

/**
 * `serve --faults`: the fault profile acted out on real sockets, with the same decisions (src/faults/decide.ts)
 * as in process. Latency waits in wall time (capped at `MAX_WALL_DELAY_MS`) while the virtual clock runs on
 * as it does for any request; an error, outage or 429 burst is answered before the platform sees the request;
 * a reset destroys the socket; a hang holds it, unanswered, until the rule's timeout; a lost answer lets the
 * platform apply the request and then destroys the socket instead of answering; malformed JSON sends the
 * answer's bytes cut or replaced; a stale read answers what the same agent read up to the lag ago.
 */
export interface HttpFaultsOptions {
  seed: string;
  /** The run's start: windows are measured from it. */
  startMs: number;
  nowMs: () => number;
  /** The handle of the agent a bearer key belongs to, or undefined (then the request is `anonymous`'s). */
  agentOf: (apiKey: string) => string | undefined;
  /** Waits in wall time; tests pass a faster one. */
  sleep?: (ms: number) => Promise<void>;
}

/** A wall wait longer than this is cut to it: a latency rule must not hold a test or a demo for minutes. */
export const MAX_WALL_DELAY_MS = 10_000;

const DECISION = Symbol('fault decision');
type Marked = FastifyRequest & { [DECISION]?: { decision: FaultDecision; agent: string } };

interface Kept {
  atMs: number;
  response: ApiResponse;
}

export class HttpFaults {
  injector: FaultInjector;
  readonly tally = new FaultTally();
  readonly #options: HttpFaultsOptions;
  readonly #kept = new Map<string, Kept>();

  constructor(profile: FaultProfile | undefined, options: HttpFaultsOptions) {
    this.injector = new FaultInjector(profile ?? EMPTY_PROFILE, options.seed, options.startMs);
    this.#options = options;
  }

  /** What a snapshot keeps (src/faults/state.ts): the profile as written, the streams, bursts and stale answers. */
  state(): FaultsState {
    const kept = [...this.#kept.keys()].sort().map((key) => {
      const { atMs, response } = this.#kept.get(key)!;
      return { key, atMs, status: response.status, text: textOf(response) };
    });
    return { profile: faultProfileSource(this.injector.profile), ...this.injector.state(), kept };
  }

  /**
   * A restored world's fault layer: its seed and start, and the snapshot's profile and state when it has
   * them (else the profile in force goes on, its streams starting afresh from the restored seed).
   */
  restore(seed: string, startMs: number, from?: { profile: FaultProfile; state: FaultsState }): void {
    this.injector = new FaultInjector(from?.profile ?? this.injector.profile, seed, startMs);
    this.#kept.clear();
    if (from === undefined) return;
    this.injector.resume(from.state);
    for (const k of from.state.kept)
      this.#kept.set(k.key, { atMs: k.atMs, response: { status: k.status, body: undefined, text: k.text } });
  }

  get empty(): boolean {
    return this.injector.empty;
  }

  /** A new profile from now on (POST /_sim/faults). */
  replace(profile: FaultProfile): void {
    this.injector.replace(profile);
    this.#kept.clear();
  }

  /** Faults met so far, by kind, over every agent. */
  metByKind(): Record<string, number> {
    const totals = new Map<FaultKind, number>();
    for (const own of this.tally.byAgent.values())
      for (const [kind, n] of own.byKind) totals.set(kind, (totals.get(kind) ?? 0) + n);
    return Object.fromEntries([...totals].sort(([a], [b]) => (a < b ? -1 : 1)));
  }

  /**
   * fastify's preHandler: decides, waits, and answers or cuts the request when its fault says so (then it
   * returns the reply, which tells fastify the request is handled).
   */
  async preHandler(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    if (this.injector.empty) return undefined;
    const agent = this.#agentOf(request);
    const nowMs = this.#options.nowMs();
    const decision = this.injector.decide({ agent, method: request.method, path: request.url, nowMs });
    if (decision === undefined) return undefined;
    const signature = requestSignature(request.method, request.url, request.body);
    this.tally.sent(agent, signature);
    if (decision.delayMs > 0) {
      this.tally.met(agent, 'latency', nowMs, signature);
      await (this.#options.sleep ?? sleep)(Math.min(decision.delayMs, MAX_WALL_DELAY_MS));
    }
    const kind = outcomeKind(decision);
    if (kind !== undefined && kind !== 'latency' && kind !== 'stale')
      this.tally.met(agent, kind, this.#options.nowMs(), signature);
    return this.#act(request, reply, decision, agent) ? reply : undefined;
  }

  /** True when the fault answered or cut the request here; otherwise it is marked for `finish`. */
  #act(request: FastifyRequest, reply: FastifyReply, decision: FaultDecision, agent: string): boolean {
    const outcome = decision.outcome;
    if (outcome.kind === 'answer') {
      const { status, body, contentType, headers } = outcome.answer;
      void reply
        .code(status)
        .headers(headers)
        .header('content-type', contentType)
        .send(typeof body === 'string' ? body : JSON.stringify(body));
    } else if (outcome.kind === 'reset') {
      void reply.hijack();
      request.raw.socket.resetAndDestroy();
    } else if (outcome.kind === 'hang') {
      void reply.hijack();
      const socket = request.raw.socket;
      const timer = setTimeout(() => socket.destroy(), outcome.timeoutMs);
      timer.unref();
      socket.once('close', () => clearTimeout(timer));
    } else {
      (request as Marked)[DECISION] = { decision, agent };
      return false;
    }
    return true;
  }

  /**
   * Writes the route table's answer as the request's fault has it: lost (socket destroyed after the platform
   * applied the request), malformed, or stale. False when the request has no such fault: the caller sends it.
   */
  finish(request: FastifyRequest, reply: FastifyReply, response: ApiResponse): boolean {
    const marked = (request as Marked)[DECISION];
    if (marked === undefined) return false;
    const { decision, agent } = marked;
    const outcome = decision.outcome;
    if (outcome.kind === 'lost') {
      void reply.hijack();
      request.raw.socket.destroy();
      return true;
    }
    if (outcome.kind === 'malformed') {
      const text = brokenJson(response.text ?? JSON.stringify(response.body), outcome.form);
      void reply.code(response.status).header('content-type', JSON_TYPE).send(text);
      return true;
    }
    return this.#stale(request, reply, response, decision, agent);
  }

  #stale(
    request: FastifyRequest,
    reply: FastifyReply,
    response: ApiResponse,
    decision: FaultDecision,
    agent: string,
  ): boolean {
    const key = `${agent} ${request.url}`;
    const nowMs = this.#options.nowMs();
    const kept = this.#kept.get(key);
    const outcome = decision.outcome;
    if (outcome.kind === 'stale' && kept && nowMs - kept.atMs <= outcome.lagMs) {
      this.tally.met(agent, 'stale', nowMs, requestSignature(request.method, request.url, request.body));
      void reply.code(kept.response.status).header('content-type', JSON_TYPE).send(textOf(kept.response));
      return true;
    }
    if (
      decision.keepForStaleMs > 0 &&
      response.status === 200 &&
      (!kept || nowMs - kept.atMs > decision.keepForStaleMs)
    )
      this.#kept.set(key, {
        atMs: nowMs,
        response: { status: 200, body: undefined, text: textOf(response) },
      });
    return false;
  }

  #agentOf(request: FastifyRequest): string {
    const header = request.headers.authorization;
    const key = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header)?.[1] : undefined;
    return (key && this.#options.agentOf(key)) || 'anonymous';
  }
}

function textOf(response: ApiResponse): string {
  return response.text ?? JSON.stringify(response.body);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
