import { Type } from '@sinclair/typebox';
import { defineRoute } from './define.js';
import {
  Bool,
  Dict,
  Input,
  Instant,
  Int,
  List,
  Literal,
  Maybe,
  Nullable,
  Num,
  OneOf,
  Opt,
  Shape,
  Str,
  Text,
  Union,
  Unknown,
  type Static,
} from './schema.js';

/**
 * Simulator control (OURS): not part of the platform's API. These routes drive the simulated world: what
 * the real world does outside the platform (a human signs up through X, someone posts on X, an X profile
 * changes) and what a live world needs (its clock, snapshots, a faucet, the invariant results). They live
 * under /_sim, never under /api. Over HTTP (`serve`) each needs the control token, never an API key (so
 * `auth: 'none'`; `dispatcherCodes` adds the token refusals); in-process they need nothing.
 *
 * All are rows of the route table (src/api/routes/control.ts). The first four act on the platform; the
 * others act through a live server's `LiveControl` (src/http/live-server.ts), so only `serve` routes them.
 */

/** OURS: one request moves the clock at most a year (366 days), which bounds one job. */
export const MAX_ADVANCE_MS = 366 * 24 * 60 * 60 * 1000;
/** OURS: the faucet's cap per call, the scenario airdrop's bound. */
export const MAX_AIRDROP_SOL = 1000;
/** OURS: the real-time clock's speed bounds, virtual seconds per wall second (`serve --speed` too). */
export const MAX_SPEED = 100_000;
/**
 * The long jobs of a live server, one at a time: the real-time clock's tick, an advance, a restore, a session
 * report, a snapshot being written.
 */
export const SIM_JOBS = ['tick', 'advance', 'restore', 'report', 'snapshot'] as const;

// ------------------------------------------------------------------------------------------------ shapes

export const ExternalPost = Shape({ id: Str(), text: Str(), created_at: Instant() });

export const ExternalAccount = Shape(
  {
    handle: Str({ description: 'as first published; looked up case-insensitively' }),
    display_name: Str(),
    avatar_url: Str(),
    followers: Int(0),
    followers_count: Int(0),
    banned: Bool(),
    posts: List(ExternalPost),
  },
  { description: 'An account on the mock external network (the stand-in for X), with its posts' },
);

export const AccountResponse = Shape({ success: Literal(true), account: ExternalAccount });

/**
 * The clock of a live world, as every clock route reports it: `manual` when it moves only through the
 * /_sim/clock routes, else `speed` virtual milliseconds per wall millisecond; the next platform deadline or
 * timer (null when none is pending); the long job running (null when none).
 */
const clockFields = {
  now: Instant(),
  now_ms: Int(0),
  manual: Bool(),
  speed: Num(),
  next_timer_at: Nullable(Instant()),
  busy: Nullable(OneOf(SIM_JOBS)),
};

export const ClockResponse = Shape({ success: Literal(true), ...clockFields });
/** `cancelled`: POST /_sim/clock/cancel stopped the advance before it reached its time. */
export const AdvanceResponse = Shape({ success: Literal(true), ...clockFields, cancelled: Bool() });
/** `stepped_to`: the time stepped to, null when no timer was pending. */
export const StepResponse = Shape({
  success: Literal(true),
  ...clockFields,
  stepped_to: Nullable(Instant()),
});
/** `cancelled`: false when no job was running. */
export const CancelResponse = Shape({ success: Literal(true), cancelled: Bool(), ...clockFields });
export const RestoreResponse = Shape({ success: Literal(true), restored: Literal(true), ...clockFields });

/** An actor's request counters, kept in a snapshot (reads are not replayed, their counts are set). */
export const SnapshotUsage = Shape({
  dayIndex: Int(0),
  requestsToday: Int(0),
  totalRequests: Int(0),
  lastUsedMs: Nullable(Int(0)),
});

/** What changed the world from outside, in order: the replay log of a snapshot. */
export const SnapshotInput = Union([
  Shape({ kind: Literal('advance'), toMs: Int(0) }),
  Shape({
    kind: Literal('request'),
    request: Shape({
      method: Str(),
      path: Str(),
      body: Maybe(Unknown()),
      actorId: Maybe(Str()),
      usage: Maybe(SnapshotUsage),
    }),
  }),
  Shape({ kind: Literal('airdrop'), handle: Str(), lamports: Int(1) }),
]);

/** A live world's snapshot (src/sim/live-snapshot.ts `LiveSnapshot`): what a restore takes back. */
export const SnapshotResponse = Shape(
  {
    success: Literal(true),
    format: Str({ description: 'the snapshot format and its version; a restore refuses any other' }),
    scenario: Dict(Unknown()),
    keySecret: Nullable(
      Str({
        description:
          'hex of the key secret: the restored world mints the same API keys. Keep a snapshot private',
      }),
    ),
    nowMs: Int(0),
    now: Instant(),
    stateHash: Str({ description: "SHA-256 of the platform's canonical state at the snapshot" }),
    fingerprint: Str({ description: 'the event-log fingerprint at the snapshot' }),
    // The whole world as data, restored without replay; null when the world holds agent modules or a fault
    // profile, which only a replay of `inputs` rebuilds.
    checkpoint: Nullable(Dict(Unknown())),
    inputs: List(SnapshotInput),
    usage: Dict(SnapshotUsage),
    state: Unknown({
      description:
        "the platform's whole state, for reading; a restore reads `checkpoint` (or replays `inputs`)",
    }),
    faults: Opt(
      Shape(
        {
          profile: Dict(Unknown()),
          streams: Dict(Unknown()),
          bursts: List(Unknown()),
          kept: List(Unknown()),
        },
        {
          description:
            "serve's fault layer: the profile in force (one set through POST /_sim/faults included), each agent's fault stream, the 429 bursts running and the answers kept for stale reads; a restore takes it back",
        },
      ),
    ),
  },
  { description: 'Everything a restore needs, and the state for reading' },
);

export const Violation = Shape({ t: Int(0), event: Int(0), message: Str() });
export const InvariantResult = Shape({
  name: Str(),
  description: Str(),
  passed: Bool(),
  checks: Int(0),
  violationCount: Int(0),
  violations: List(Violation), // the first few, enough to start debugging
});

// -------------------------------------------------------------------------------------- the route table

export const createHuman = defineRoute({
  method: 'POST',
  path: '/_sim/humans',
  group: 'Simulator control',
  auth: 'none',
  summary: 'Create a human account (as signing in through X does); returns its API key once',
  body: Input({ username: Text(), display_name: Opt(Nullable(Text())), bio: Opt(Nullable(Text())) }),
  response: Shape({
    success: Literal(true),
    human_id: Str(),
    username: Str(),
    display_name: Str(),
    api_key: Str(),
    author_type: Literal('human'),
  }),
  errors: ['validation_error', 'handle_taken'],
});

export const publishExternalPost = defineRoute({
  method: 'POST',
  path: '/_sim/network/posts',
  group: 'Simulator control',
  auth: 'none',
  summary:
    'Publish a post on the mock external network as a handle (text 1-280 characters); opens the account if new',
  body: Input({ handle: Text(), text: Text() }),
  response: Shape({ success: Literal(true), post_id: Str(), handle: Str(), created_at: Instant() }),
  errors: ['validation_error', 'account_banned'],
});

export const updateExternalAccount = defineRoute({
  method: 'PATCH',
  path: '/_sim/network/accounts/{handle}',
  group: 'Simulator control',
  auth: 'none',
  summary: 'Change a mock external account (display_name, avatar_url, followers, banned); opens it if new',
  body: Input({
    display_name: Opt(Text()),
    avatar_url: Opt(Text()),
    followers: Opt(Int(0)),
    banned: Opt(Bool()),
  }),
  response: AccountResponse,
  errors: ['validation_error'],
});

export const getExternalAccount = defineRoute({
  method: 'GET',
  path: '/_sim/network/accounts/{handle}',
  group: 'Simulator control',
  auth: 'none',
  summary: 'A mock external account with its posts',
  response: AccountResponse,
  errors: ['not_found'],
});

// ------------------------------------------------------------------------------------ the live server

/**
 * The live server reads a body on every POST, even where it takes none (step, cancel): one that is sent
 * must be JSON (`unsupported_media_type`), readable (`validation_error`) and within the body limit.
 */
const IGNORED_BODY_CODES = ['validation_error', 'unsupported_media_type', 'payload_too_large'] as const;

export const getClock = defineRoute({
  method: 'GET',
  path: '/_sim/clock',
  group: 'Simulator control',
  auth: 'none',
  summary: "A live world's clock: the time, manual or real-time, the next timer, and the long job running",
  response: ClockResponse,
  errors: [],
});

export const advanceClock = defineRoute({
  method: 'POST',
  path: '/_sim/clock/advance',
  group: 'Simulator control',
  auth: 'none',
  summary:
    'Advance the clock by ms (at most 366 days), running every world event on the way; other clients are answered meanwhile',
  body: Input({ ms: Int(1, MAX_ADVANCE_MS) }),
  response: AdvanceResponse,
  errors: ['busy'],
});

export const setClock = defineRoute({
  method: 'POST',
  path: '/_sim/clock/set',
  group: 'Simulator control',
  auth: 'none',
  summary:
    'Move the clock forward to at (ISO 8601) or at_ms (epoch milliseconds), at most 366 days ahead; never backwards (bad_request)',
  body: Input({ at: Opt(Text()), at_ms: Opt(Int()) }),
  response: AdvanceResponse,
  errors: ['validation_error', 'bad_request', 'busy'],
});

export const stepClock = defineRoute({
  method: 'POST',
  path: '/_sim/clock/step',
  group: 'Simulator control',
  auth: 'none',
  summary:
    'Move the clock to the next platform deadline or timer (a turn deadline, an expiry, a transfer landing), if any',
  response: StepResponse,
  errors: ['busy', ...IGNORED_BODY_CODES],
});

export const cancelJob = defineRoute({
  method: 'POST',
  path: '/_sim/clock/cancel',
  group: 'Simulator control',
  auth: 'none',
  summary: 'Stop the advance or restore that is running, at its next slice',
  response: CancelResponse,
  errors: [...IGNORED_BODY_CODES],
});

export const setSpeed = defineRoute({
  method: 'POST',
  path: '/_sim/clock/speed',
  group: 'Simulator control',
  auth: 'none',
  summary:
    "Set the real-time clock's speed (virtual seconds per wall second, more than 0 and at most 100000); a paused clock stays paused",
  body: Input({ speed: Type.Number({ exclusiveMinimum: 0, maximum: MAX_SPEED }) }),
  response: ClockResponse,
  errors: ['validation_error', 'bad_request'],
});

export const pauseClock = defineRoute({
  method: 'POST',
  path: '/_sim/clock/pause',
  group: 'Simulator control',
  auth: 'none',
  summary:
    'Stop the real-time clock (manual becomes true; a tick running stops at its next slice); advance, set and step still move it',
  response: ClockResponse,
  errors: [...IGNORED_BODY_CODES],
});

export const resumeClock = defineRoute({
  method: 'POST',
  path: '/_sim/clock/resume',
  group: 'Simulator control',
  auth: 'none',
  summary:
    'Run the clock in real time again at its speed (manual becomes false); bad_request where no real-time clock exists (a startTwin twin)',
  response: ClockResponse,
  errors: ['bad_request', ...IGNORED_BODY_CODES],
});

export const getSnapshot = defineRoute({
  method: 'GET',
  path: '/_sim/snapshot',
  group: 'Simulator control',
  auth: 'none',
  summary:
    'The whole live world as JSON: scenario, key secret, input log, state hash; it holds the key secret, so keep it private. Written in slices as a job: busy while another job runs; meanwhile requests that would change the world are refused busy',
  response: SnapshotResponse,
  errors: ['busy'],
});

export const restoreSnapshot = defineRoute({
  method: 'POST',
  path: '/_sim/restore',
  group: 'Simulator control',
  auth: 'none',
  summary:
    'Replace the live world by replaying a snapshot from GET /_sim/snapshot; refused (validation_error) unless the replay ends where the snapshot says',
  // The restore checks the snapshot field by field (src/sim/live-snapshot.ts), with its own messages.
  body: Input({ format: Text() }),
  response: RestoreResponse,
  errors: ['validation_error', 'busy'],
});

export const airdrop = defineRoute({
  method: 'POST',
  path: '/_sim/airdrop',
  group: 'Simulator control',
  auth: 'none',
  summary:
    "Mint devnet SOL into an agent's wallet (the faucet): more than 0 and at most 1000 SOL a call, in whole lamports",
  body: Input({ handle: Text(), sol: Type.Number({ exclusiveMinimum: 0, maximum: MAX_AIRDROP_SOL }) }),
  response: Shape({
    success: Literal(true),
    handle: Str(),
    wallet_address: Str(),
    lamports: Int(1),
    balance_lamports: Int(0),
  }),
  errors: ['validation_error', 'not_found'],
});

export const getInvariants = defineRoute({
  method: 'GET',
  path: '/_sim/invariants',
  group: 'Simulator control',
  auth: 'none',
  summary: "The live world's invariant results so far: each checker, its checks, and its first violations",
  response: Shape({ success: Literal(true), invariants: List(InvariantResult) }),
  errors: [],
});

/** A fault profile as the routes show it: in the form it is written (src/faults/profile.ts `faultProfileSource`), so POST /_sim/faults takes `profile` back as it is. */
const FaultProfileView = Shape({
  success: Literal(true),
  profile: Shape({ name: Str(), description: Str(), rules: List(Unknown()) }),
  met_by_kind: Dict(Int(0)),
});

export const getFaults = defineRoute({
  method: 'GET',
  path: '/_sim/faults',
  group: 'Simulator control',
  auth: 'none',
  summary:
    'The fault profile HTTP clients meet now (serve --faults FILE, or the last one set) and the faults met so far, by kind',
  response: FaultProfileView,
  errors: [],
});

export const setFaults = defineRoute({
  method: 'POST',
  path: '/_sim/faults',
  group: 'Simulator control',
  auth: 'none',
  summary:
    'Replace the fault profile from now on (the body is a profile: name, description, rules); { "rules": [] } turns faults off',
  // The profile is checked field by field (src/faults/profile.ts), with its own one-line messages.
  body: Input({}),
  response: FaultProfileView,
  errors: ['validation_error'],
});

export const writeReport = defineRoute({
  method: 'POST',
  path: '/_sim/report',
  group: 'Simulator control',
  auth: 'none',
  summary:
    "Write the session's report set (report.json, games.pgn, report.html, junit.xml, summary.md, as run writes them; verdicts include agents registered over HTTP) into serve --out DIR now; bad_request without --out",
  response: Shape({
    success: Literal(true),
    files: List(Str()),
    agents: Int(0),
    failed: Bool(), // an invariant broke so far (junit.xml and summary.md say which)
    now: Instant(),
  }),
  errors: ['bad_request', 'busy', ...IGNORED_BODY_CODES],
});

export const CONTROL_ROUTES = [
  createHuman,
  publishExternalPost,
  updateExternalAccount,
  getExternalAccount,
  getClock,
  advanceClock,
  setClock,
  stepClock,
  cancelJob,
  setSpeed,
  pauseClock,
  resumeClock,
  getSnapshot,
  restoreSnapshot,
  airdrop,
  getInvariants,
  getFaults,
  setFaults,
  writeReport,
] as const;

export type SimJob = (typeof SIM_JOBS)[number];
export type ExternalPost = Static<typeof ExternalPost>;
export type ExternalAccount = Static<typeof ExternalAccount>;
export type AccountResponse = Static<typeof AccountResponse>;
export type CreateHumanResponse = Static<typeof createHuman.response>;
export type PublishExternalResponse = Static<typeof publishExternalPost.response>;
export type ClockResponse = Static<typeof ClockResponse>;
export type AdvanceResponse = Static<typeof AdvanceResponse>;
export type StepResponse = Static<typeof StepResponse>;
export type CancelResponse = Static<typeof CancelResponse>;
export type RestoreResponse = Static<typeof RestoreResponse>;
export type SnapshotUsage = Static<typeof SnapshotUsage>;
export type SnapshotInput = Static<typeof SnapshotInput>;
export type SnapshotResponse = Static<typeof SnapshotResponse>;
export type AirdropResponse = Static<typeof airdrop.response>;
export type Violation = Static<typeof Violation>;
export type InvariantResult = Static<typeof InvariantResult>;
export type InvariantsResponse = Static<typeof getInvariants.response>;
export type FaultsResponse = Static<typeof getFaults.response>;
export type WriteReportResponse = Static<typeof writeReport.response>;
export type SetClockBody = Static<typeof setClock.body>;
export type AirdropBody = Static<typeof airdrop.body>;
