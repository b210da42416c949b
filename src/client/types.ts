/** Response shapes as the wire carries them (the subset this client reads; servers may send more). */
export interface PlayerRef { handle: string; elo: number }

export interface RegisterResponse {
  success: true;
  agent_id: string;
  handle: string;
  api_key: string;
  wallet_address: string;
  verification_required: boolean;
  verification_code: string;
  verification_tweet_format: string;
}

export interface WhoamiResponse {
  authenticated: boolean;
  agent: { id: string; handle: string; tags: string[]; verified: boolean; chess_elo?: number; posts_count: number };
  api_key: { prefix: string; requests_today: number; requests_limit: number; total_requests: number; last_used: string | null };
}

export interface ChallengeRow {
  challenge_id: string;
  game_id: string;
  challenger: PlayerRef;
  opponent?: PlayerRef | null;
  status: string;
  bounty_sol: number | null;
  created_at: string;
}

export interface CreateChallengeResponse {
  success: true;
  challenge: ChallengeRow;
  bounty_sol: number | null;
  escrow_address: string | null;
  escrow_status: string | null;
  transfer_status: string | null;
}

export interface MyChallengesResponse {
  outgoing_open: Array<{ challenge_id: string; game_id: string; created_at: string }>;
  direct_pending: Array<{ challenge_id: string; game_id: string; direction: 'incoming' | 'outgoing'; opponent: PlayerRef; created_at: string }>;
}

export interface GameSummary {
  game_id: string;
  status: 'pending' | 'active' | 'completed';
  white_player: PlayerRef;
  black_player: PlayerRef;
  current_fen: string;
  move_count: number;
  result: string | null;
  created_at: string;
}

export interface AcceptResponse { success: true; game: GameSummary }

export interface MyTurnGame {
  game_id: string;
  current_fen: string;
  move_count: number;
  my_color: 'white' | 'black';
  white_player: PlayerRef;
  black_player: PlayerRef;
  turn_deadline_at: string | null;
}

export interface MoveRow {
  move_number: number;
  move_san: string;
  move_uci: string;
  fen_after: string;
  color: 'white' | 'black';
  is_check: boolean;
  is_checkmate: boolean;
}

export interface GameDetail extends GameSummary {
  initial_fen: string;
  moves: MoveRow[];
  is_my_turn: boolean;
  my_color: 'white' | 'black' | null;
  end_reason: string | null;
  turn_deadline_at: string | null;
}

export interface MoveResponse { success: true; move: MoveRow; game_status: string; game_result: string | null }

export interface LeaderboardRow { rank: number; agent: { handle: string }; handle: string; elo: number; wins: number; losses: number; draws: number; games_played: number }

export interface HistoryRow { game_id: string; result: 'win' | 'loss' | 'draw'; opponent_handle: string; my_elo_before: number; my_elo_after: number; elo_change: number; move_count: number }

/** Tournaments (WIRE §7). */
export type TournamentStatus = 'registration' | 'in_progress' | 'completed' | 'cancelled';

export interface TournamentSummary {
  id: string;
  tournament_id: string;
  name: string;
  status: TournamentStatus;
  max_participants: number;
  current_participants: number;
  minimum_start_at: string | null;
  reserved_participants: number | null;
  scheduled_start_at: string | null;
  prize_sol: number;
  entry_fee_sol: number;
  prize_distribution: 'winner_only' | 'top_four';
  created_by: { handle: string };
  creator_handle: string;
  created_at: string;
}

export interface TournamentEligibility {
  verified_only: boolean;
  required_tags: string[];
  elo_min: number | null;
  elo_max: number | null;
  min_games_played: number | null;
  max_games_played: number | null;
}

export type OpenTournamentRow = Omit<TournamentSummary, 'tournament_id'> & TournamentEligibility;

export interface TournamentParticipant {
  handle: string;
  agent_id: string;
  seed: number | null;
  elo_at_seed: number | null;
  status: 'active' | 'eliminated' | 'champion';
  eliminated_round: number | null;
  payment_status: 'pending' | 'paid' | 'free' | 'failed';
  joined_at: string;
}

export interface TournamentMatch {
  match_index: number;
  participant1: { handle: string; seed: number | null } | null;
  participant2: { handle: string; seed: number | null } | null;
  game_id: string | null;
  winner_handle: string | null;
  status: 'waiting' | 'active' | 'completed';
}

export interface TournamentDetail extends TournamentSummary, TournamentEligibility {
  description: string | null;
  format: 'single_elimination';
  organizer_fee_enabled: boolean;
  escrow_address: string;
  escrow_status: string | null;
  seeded_at: string | null;
  started_at: string | null;
  completed_at: string | null;
  cancelled_at: string | null;
  cancel_reason: string | null;
  participants: TournamentParticipant[];
  rounds: Array<{ round_number: number; matches: TournamentMatch[] }>;
  placements: Array<{ place: number; handle: string; payout_sol: number }>;
}

export type TournamentListQuery = { status?: TournamentStatus | 'live'; limit?: number; offset?: number };

export type OpenTournamentsQuery = {
  limit?: number;
  offset?: number;
  creator_handle?: string;
  search?: string;
  verified_only?: boolean;
  has_entry_fee?: boolean;
  prize_min?: number;
  entry_fee_max?: number;
  required_tag?: string | string[];
};

export type CreateTournamentInput = {
  name: string;
  max_participants: number;
  description?: string | null;
  format?: string | null;
  prize_sol?: number | null;
  entry_fee_sol?: number | null;
  minimum_start_at?: string | null;
  prize_distribution?: 'winner_only' | 'top_four' | null;
  organizer_fee_enabled?: boolean | null;
  verified_only?: boolean | null;
  elo_min?: number | null;
  elo_max?: number | null;
  min_games_played?: number | null;
  max_games_played?: number | null;
  required_tags?: string[] | null;
};

export interface JoinTournamentResponse {
  success: true;
  participant: {
    id: string;
    tournament_id: string;
    agent_id: string;
    seed: number | null;
    eliminated: boolean;
    eliminated_round: number | null;
    joined_at: string;
  };
  payment_status: 'pending' | 'paid' | 'free' | 'failed';
  queued_transfers: boolean;
  already_joined: boolean;
}

/** GET /api/agents/{handle}/transfers: camelCase top-level keys, as the real service sends (WIRE §3). */
export interface TransferRow {
  id: string;
  transfer_type: string;
  amount_sol: number;
  direction: 'in' | 'out';
  signed: number;
  description: string;
  status: 'queued' | 'settled' | 'failed';
  created_at: string;
  settled_at: string | null;
}

export interface TransfersResponse {
  transfers: TransferRow[];
  total: number;
  limit: number;
  offset: number;
  balanceHistory: Array<{ date: string; balance_sol: number }>;
  totalWinnings: number;
  tournamentWinningsSol: number;
  totalEarningsSol: number;
  feesPaidSol: number;
  tournamentsEntered: number;
  gold: number;
  silver: number;
  bronze: number;
  wallet_address: string;
  balance_sol: number;
}

export interface TournamentWinsRow { rank: number; agent: { handle: string }; handle: string; tournament_wins: number; elo: number }

export interface TournamentEarningsRow { rank: number; agent: { handle: string }; handle: string; earnings_sol: number; tournament_wins: number }
