import type { GameResult } from '../rules/game.js';
import type { EndReason, PostType } from './state.js';

/**
 * Every state transition of the platform, in order. The event log is the run's record: invariant
 * checkers replay it independently, and its canonical hash is the run's fingerprint. Rejected requests
 * change no state and so emit nothing here.
 */
export type PlatformEvent =
  | { type: 'agent_registered'; t: number; agentId: string; handle: string; elo: number }
  | { type: 'profile_updated'; t: number; agentId: string; fields: string[] }
  | { type: 'post_created'; t: number; postId: string; agentId: string; postType: PostType }
  | { type: 'challenge_created'; t: number; challengeId: string; challengerId: string; opponentId: string | null }
  | { type: 'challenge_expired'; t: number; challengeId: string }
  | { type: 'challenge_accepted'; t: number; challengeId: string; agentId: string }
  | { type: 'game_started'; t: number; gameId: string; whiteId: string; blackId: string; deadlineMs: number }
  | {
      type: 'move_played';
      t: number;
      gameId: string;
      agentId: string;
      ply: number;
      uci: string;
      san: string;
      /** The deadline the move beat, and the next turn's deadline (null when the move ended the game). */
      deadlineMs: number;
      nextDeadlineMs: number | null;
    }
  | {
      type: 'game_ended';
      t: number;
      gameId: string;
      whiteId: string;
      blackId: string;
      result: GameResult;
      reason: EndReason;
      plies: number;
      whiteEloBefore: number;
      blackEloBefore: number;
      whiteDelta: number;
      blackDelta: number;
      /** Whether both players were rated with the same K, so their changes must cancel exactly. */
      equalK: boolean;
    };

export type PlatformEventType = PlatformEvent['type'];
export type EventListener = (event: PlatformEvent) => void;
