import type { Transport, TransportRequest, TransportResponse } from '../client/transport.js';
import { type FaultDecision, type FaultInjector, outcomeKind } from './decide.js';
import { requestSignature, type FaultTally } from './tally.js';

/**
 * What a module agent's client throws where an HTTP client would throw a network error: the messages are
 * node's own (`read ECONNRESET`, `socket hang up`, a timeout's abort, JSON.parse on a cut body), so an
 * agent that handles them for real handles them here.
 */
export class TransportFault extends Error {
  readonly kind: 'reset' | 'hang' | 'lost' | 'malformed';

  constructor(kind: TransportFault['kind'], message: string) {
    super(message);
    this.name = kind === 'malformed' ? 'SyntaxError' : 'TypeError';
    this.kind = kind;
  }
}

const MESSAGES: Record<TransportFault['kind'], string> = {
  reset: 'fetch failed: read ECONNRESET',
  hang: 'The operation was aborted due to timeout',
  lost: 'fetch failed: socket hang up',
  malformed: 'Unexpected end of JSON input',
};

/** What the world lends the transport: the virtual clock, and a way to let virtual time pass mid-request. */
export interface FaultHost {
  nowMs(): number;
  /** Resolves once `delayMs` of virtual time has passed, other agents and the platform's timers running meanwhile. */
  wait(delayMs: number): Promise<void>;
}

interface Kept {
  atMs: number;
  response: TransportResponse;
}

/**
 * One agent's transport under a fault profile (in process): asks the injector what this request meets and
 * acts it out. Disarmed until `arm()` (the world arms it once the agent has signed up), and a request the
 * profile does not touch goes straight through, so an empty profile changes nothing.
 */
export class FaultyTransport implements Transport {
  #armed = false;
  /** Fresh answers to reads a stale rule covers, by path and query: what a lagging replica would still say. */
  readonly #kept = new Map<string, Kept>();

  constructor(
    private readonly inner: Transport,
    private readonly handle: string,
    private readonly injector: FaultInjector,
    private readonly tally: FaultTally,
    private readonly host: FaultHost,
  ) {}

  arm(): void {
    this.#armed = true;
  }

  async send(request: TransportRequest): Promise<TransportResponse> {
    if (!this.#armed || this.injector.empty) return this.inner.send(request);
    const signature = requestSignature(request.method, request.path, request.body);
    this.tally.sent(this.handle, signature);
    const decision = this.injector.decide({
      agent: this.handle,
      method: request.method,
      path: request.path,
      nowMs: this.host.nowMs(),
    });
    if (decision === undefined) return this.inner.send(request);
    if (decision.delayMs > 0) {
      this.tally.met(this.handle, 'latency', this.host.nowMs(), signature);
      await this.host.wait(decision.delayMs);
    }
    const kind = outcomeKind(decision);
    if (kind !== undefined && kind !== 'latency' && kind !== 'stale')
      this.tally.met(this.handle, kind, this.host.nowMs(), signature);
    return this.#act(request, decision, signature);
  }

  async #act(
    request: TransportRequest,
    decision: FaultDecision,
    signature: string,
  ): Promise<TransportResponse> {
    const outcome = decision.outcome;
    switch (outcome.kind) {
      case 'answer': {
        const { status, body, headers } = outcome.answer;
        return { status, body, headers: { ...headers } };
      }
      case 'reset':
        throw new TransportFault('reset', MESSAGES.reset);
      case 'hang':
        await this.host.wait(outcome.timeoutMs);
        throw new TransportFault('hang', MESSAGES.hang);
      case 'lost':
      case 'malformed':
        // The platform applies the request; the agent never reads the answer.
        await this.inner.send(request);
        throw new TransportFault(outcome.kind, MESSAGES[outcome.kind]);
      case 'stale': {
        const kept = this.#kept.get(keyOf(request));
        const nowMs = this.host.nowMs();
        if (kept && nowMs - kept.atMs <= outcome.lagMs) {
          this.tally.met(this.handle, 'stale', nowMs, signature);
          return structuredClone(kept.response);
        }
        return this.#fresh(request, decision);
      }
      default:
        return this.#fresh(request, decision);
    }
  }

  async #fresh(request: TransportRequest, decision: FaultDecision): Promise<TransportResponse> {
    const response = await this.inner.send(request);
    if (decision.keepForStaleMs > 0 && response.status === 200) {
      const key = keyOf(request);
      const kept = this.#kept.get(key);
      // Keep the older answer while it is still within the lag: a replica trails the truth, it does not jump.
      if (kept === undefined || this.host.nowMs() - kept.atMs > decision.keepForStaleMs)
        this.#kept.set(key, { atMs: this.host.nowMs(), response: structuredClone(response) });
    }
    return response;
  }
}

function keyOf(request: TransportRequest): string {
  return request.query === undefined ? request.path : `${request.path}?${JSON.stringify(request.query)}`;
}
