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
