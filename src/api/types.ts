import type { Platform } from '../platform/platform.js';
import type { Agent, Human } from '../platform/state.js';
import type { BodyOf, ParamsOf, QueryOf, ResponseOf, RouteContract } from './contract/define.js';
import type { Readable } from 'node:stream';
import type {
  FaultsResponse,
  InvariantResult,
  SimJob,
  SnapshotResponse,
  WriteReportResponse,
} from './contract/control.js';

export type { AuthMode } from './contract/define.js';

/** A transport-neutral request and response: the in-process client and the HTTP server both speak these. */
export type QueryValue = string | string[] | undefined;

export interface ApiRequest {
  method: string;
  /** Path, with or without the `/api` prefix, optionally with a query string. */
  path: string;
  query?: Record<string, QueryValue>;
  headers?: Record<string, string | undefined>;
  body?: unknown;
}

export interface ApiResponse {
  status: number;
  /** The answer as data; a JsonStream for one written as it is read (a live server's snapshot). */
  body: unknown;
  headers?: Record<string, string>;
  /** The body already written as JSON text (a snapshot): sent as it is instead of `body`. */
  text?: string;
}

export interface JsonSchema {
  [keyword: string]: unknown;
}

export interface RouteContext<C extends RouteContract = RouteContract> {
  platform: Platform;
  /** The authenticated agent (null on public routes called without a key, or when a human called). */
  agent: Agent | null;
  /** The authenticated agent or human (humans reach only routes marked `actors: 'any'`). */
  actor: Agent | Human | null;
  params: ParamsOf<C>;
  /** The validated query string (defaults filled in, booleans and numbers read from their text). */
  query: QueryOf<C>;
  /** The validated body (a copy: the caller's object is never changed). */
  body: BodyOf<C>;
}

/** A contract and the handler that answers it. */
export interface Route<C extends RouteContract = RouteContract> {
  readonly contract: C;
  readonly handler: (ctx: RouteContext<C>) => ResponseOf<C>;
}

/**
 * What a live world (`serve`) lets the simulator's control routes do: its clock, one long job at a time
 * (an advance, a step, a restore), its snapshot, the faucet and the invariant results. The live server
 * (src/http/live-server.ts) provides it; the routes that use it are rows of the route table
 * (src/api/routes/control.ts), matched and validated as every route is. A refusal is a PlatformError
 * (`busy` while another job runs, `validation_error` for a snapshot that does not replay).
 */
export interface LiveControl {
  readonly nowMs: number;
  readonly clock: { readonly manual: boolean; readonly speed: number };
  /** The long job running, or null. */
  readonly job: SimJob | null;
  nextTimerDueMs(): number | undefined;
  /** Runs the world to `toMs` as one job; false when cancelled before it got there. */
  advanceTo(toMs: number): Promise<boolean>;
  /** Runs the world to its next timer as one job; the time reached, or null when none was pending. */
  stepToNextTimer(): Promise<number | null>;
  /** Asks the running job to stop at its next slice; false when none runs. */
  cancel(): boolean;
  /** Stops the real-time clock (it becomes manual); a tick running stops at its next slice. */
  pause(): void;
  /** Runs the clock in real time again; `bad_request` where nothing drives one (a library twin). */
  resume(): void;
  /** The real-time clock's virtual ms per wall ms from now on; `bad_request` where nothing drives one. */
  setSpeed(speed: number): void;
  /** Writes the session's report set (serve --out), as a job; `bad_request` where no folder was given. */
  writeReport(): Promise<WriteReportResponse>;
  /** The whole world as the snapshot route answers it (with `success: true`), as JSON text in one string. */
  snapshotText(): string;
  /**
   * The same text written as a job, in slices, as it is read (a 100,000-agent world's is hundreds of
   * megabytes); `busy` while another job runs. Requests that would change the world are refused until it ends.
   */
  snapshot(): Promise<JsonStream<SnapshotResponse>>;
  /** Replaces the world by replaying a snapshot. */
  restore(snapshot: unknown): Promise<void>;
  /** Mints lamports into the wallet of the agent so named. */
  airdrop(handle: string, lamports: number): { wallet: string; balanceLamports: number };
  invariantResults(): InvariantResult[];
  /** The fault profile HTTP clients meet (as the faults routes show it), and the faults met by kind. */
  faults(): FaultsResponse;
  /** Replaces the fault profile; a `validation_error` naming the first bad field when it is not one. */
  setFaults(raw: unknown): FaultsResponse;
}

export interface LiveRouteContext<C extends RouteContract = RouteContract> {
  live: LiveControl;
  params: ParamsOf<C>;
  query: QueryOf<C>;
  body: BodyOf<C>;
}

/**
 * An answer already written as JSON text: a snapshot can be tens of megabytes, so it goes out as the world
 * wrote it rather than parsed and written again. `T` is the contract's response type, for the compiler.
 */
export class JsonText<T> {
  declare readonly of: T;
  constructor(readonly text: string) {}
}

/**
 * An answer written as JSON text while it is read: its stream gives the text in chunks (strings) as the
 * reader takes them, so a writer may pause between them (a snapshot of a large world). The HTTP server
 * sends the stream as it comes; an in-process client reads it to the end. Read it to the end or destroy it:
 * the writer may hold the world until then.
 */
export class JsonStream<T> {
  declare readonly of: T;
  constructor(readonly stream: Readable) {}

  /** The whole text (an in-process reader). */
  async text(): Promise<string> {
    let text = '';
    this.stream.setEncoding('utf8'); // a character split between two chunks is joined whole
    for await (const chunk of this.stream) text += chunk as string;
    return text;
  }
}

type LiveAnswer<C extends RouteContract> =
  ResponseOf<C> | JsonText<ResponseOf<C>> | JsonStream<ResponseOf<C>>;

/** A control route of a live world: it acts on the world through `LiveControl` and may wait for a job. */
export interface LiveRoute<C extends RouteContract = RouteContract> {
  readonly contract: C;
  readonly handler: (ctx: LiveRouteContext<C>) => LiveAnswer<C> | Promise<LiveAnswer<C>>;
}

/** As `implement`, for the routes of a live world. */
export function implementLive<C extends RouteContract>(
  contract: C,
  handler: (ctx: LiveRouteContext<NoInfer<C>>) => NoInfer<LiveAnswer<C>> | Promise<NoInfer<LiveAnswer<C>>>,
): LiveRoute {
  return { contract, handler };
}

/**
 * Binds a handler to its contract. The compiler checks the handler's answer against the contract's
 * response type, so a view that drops or renames a field does not compile.
 */
export function implement<C extends RouteContract>(
  contract: C,
  handler: (ctx: RouteContext<NoInfer<C>>) => NoInfer<ResponseOf<C>>,
): Route {
  return { contract, handler };
}

/** Narrows `ctx.agent` on routes whose auth is `required` (the dispatcher guarantees it). */
export function caller(ctx: { agent: Agent | null }): Agent {
  if (!ctx.agent) throw new Error('route marked auth required ran without an agent');
  return ctx.agent;
}

/** Narrows `ctx.actor` on routes with `auth: 'required'` and `actors: 'any'`. */
export function actorCaller(ctx: { actor: Agent | Human | null }): Agent | Human {
  if (!ctx.actor) throw new Error('route marked auth required ran without an actor');
  return ctx.actor;
}
