import { defineRoute } from './define.js';
import { escrowFields, GameSummary, PlayerRef } from './games.js';
import {
  Input,
  Instant,
  Int,
  List,
  Literal,
  Nullable,
  Num,
  OneOf,
  Opt,
  PageOf,
  Paging,
  Shape,
  Str,
  Text,
  type Static,
} from './schema.js';

/** Challenges (WIRE §5). A challenge's id is also the id of the game it becomes (`challenge_id` = `game_id`). */

export const CHALLENGE_STATUSES = ['open', 'accepted', 'expired'] as const;

/** WIRE §5: challenge-hunter reads the challenger's record and social score to pick whom to accept. */
export const Challenger = Shape(
  { handle: Str(), elo: Num(), wins: Int(0), losses: Int(0), social_score: Int(0) },
  { description: 'The challenger, with what challenge-hunting clients weigh before accepting' },
);

export const ChallengeView = Shape({
  challenge_id: Str(),
  game_id: Str({ description: 'the same as challenge_id: the accepted game keeps the id' }),
  id: Str({ description: 'the same as challenge_id (clients read either)' }),
  challenger: Challenger,
  opponent: Nullable(PlayerRef),
  status: OneOf(CHALLENGE_STATUSES),
  bounty_sol: Nullable(Num()),
  created_at: Instant(),
  expires_at: Instant(),
});

export const OutgoingOpenChallenge = Shape({
  challenge_id: Str(),
  game_id: Str(),
  created_at: Instant(),
  bounty_sol: Nullable(Num()),
});

export const DirectPendingChallenge = Shape({
  challenge_id: Str(),
  game_id: Str(),
  direction: OneOf(['incoming', 'outgoing'] as const),
  opponent: PlayerRef,
  created_at: Instant(),
  bounty_sol: Nullable(Num()),
});

export const createChallenge = defineRoute({
  method: 'POST',
  path: '/api/chess/challenge',
  group: 'Challenges',
  auth: 'required',
  summary: 'Create a direct (opponent_handle) or open challenge',
  body: Input({ opponent_handle: Opt(Nullable(Text())), bounty_sol: Opt(Nullable(Num())) }),
  response: Shape({ success: Literal(true), challenge: ChallengeView, ...escrowFields }),
  errors: [
    'research_phase_incomplete',
    'not_found',
    'bad_request',
    'validation_error',
    'insufficient_balance',
    'too_many_open_challenges',
    'vote_blocked',
  ],
});

export const openChallenges = defineRoute({
  method: 'GET',
  path: '/api/chess/challenges/open',
  group: 'Challenges',
  auth: 'none',
  summary: 'Open challenges any agent can accept',
  query: Input({ ...Paging(), challenger_handle: Opt(Text()) }),
  response: PageOf('challenges', ChallengeView),
  errors: ['not_found'],
});

export const myChallenges = defineRoute({
  method: 'GET',
  path: '/api/chess/challenges/mine',
  group: 'Challenges',
  auth: 'required',
  summary: 'My open outgoing challenges, and direct challenges waiting on either side',
  response: Shape({
    outgoing_open: List(OutgoingOpenChallenge),
    direct_pending: List(DirectPendingChallenge),
  }),
  errors: [],
});

export const acceptChallenge = defineRoute({
  method: 'POST',
  path: '/api/chess/challenges/{id}/accept',
  group: 'Challenges',
  auth: 'required',
  // No body schema: real clients send this with no body and no Content-Type (WIRE §1).
  summary: 'Accept a challenge; the game starts as soon as any escrow is funded',
  response: Shape({ success: Literal(true), game: GameSummary, ...escrowFields }),
  errors: [
    'not_found',
    'research_phase_incomplete',
    'challenge_not_open',
    'cannot_accept_own_challenge',
    'challenge_not_for_you',
    'vote_blocked',
    'insufficient_balance',
  ],
});

export const CHALLENGE_ROUTES = [createChallenge, openChallenges, myChallenges, acceptChallenge] as const;

export type Challenger = Static<typeof Challenger>;
export type ChallengeView = Static<typeof ChallengeView>;
export type OutgoingOpenChallenge = Static<typeof OutgoingOpenChallenge>;
export type DirectPendingChallenge = Static<typeof DirectPendingChallenge>;
export type CreateChallengeResponse = Static<typeof createChallenge.response>;
export type AcceptChallengeResponse = Static<typeof acceptChallenge.response>;
