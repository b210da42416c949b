/**
 * agent-chess-sim as a library: the platform twin inside an agent author's own tests (README, "Testing
 * your agent"). `import { startTwin } from 'agent-chess-sim'`.
 */
export {
  startTwin,
  Twin,
  TwinError,
  DEFAULT_TWIN_START,
  type AcceptAnswer,
  type ChallengeOptions,
  type Duration,
  type RegisterOptions,
  type RunUntilOptions,
  type TwinAgent,
  type TwinAnswer,
  type TwinOptions,
  type TwinRequestOptions,
  type WaitForGameOptions,
} from './twin.js';
export type { TestClock } from './test-clock.js';
export type { ResearchPreset } from './serve-scenario.js';
export type { QuotaPolicy } from '../rules/daily-quota.js';
export type { GameDetail, GameSummary, MoveRow } from '../api/contract/games.js';
export type { ChallengeView } from '../api/contract/challenges.js';
export type { InvariantResult } from '../api/contract/control.js';
export type { LiveSnapshot } from '../sim/live.js';
