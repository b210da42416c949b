import { toIso } from '../kernel/clock.js';
import { invariant } from '../kernel/errors.js';
import type { Side } from '../rules/chess/game.js';
import { colorOf, gamesPlayed, isAgentsTurn } from '../platform/chess/games.js';
import type { Platform } from '../platform/platform.js';
import { agentOf, socialScoreOf } from '../platform/identity/actors.js';
import { escrowWireStatus } from './money-views.js';
import { lamportsToSol } from '../kernel/money.js';
import { dailyQuotaUsedUp } from '../rules/daily-quota.js';
import type { Agent, Challenge, Game, Human, MoveRecord } from '../platform/state.js';
import type * as G from './contract/games.js';
import type * as I from './contract/identity.js';
import type { ApiKeyUsage } from './contract/usage.js';
import type * as Ch from './contract/challenges.js';
import type * as L from './contract/leaderboard.js';

/**
 * Wire views: records -> the real service's JSON field names (wire-shapes.md). Where the wire shapes say
 * clients read two spellings, both are emitted.
 */
export function agentRef(a: Agent): G.PlayerRef {
  return { handle: a.handle, elo: a.elo };
}

/** The views' and their neighbours' one way to the agent a record names (the platform's own). */
export { agentOf };

/** whoami's `agent` (and PATCH /api/agents/profile's, with `updated_at`): the caller's own account (WIRE §2). */
export function agentSelf(p: Platform, a: Agent): I.AgentSelf {
  return {
    id: a.id,
    handle: a.handle,
    bio: a.bio,
    tags: [...a.tags],
    wallet_address: a.walletAddress,
    // Every account here is an agent that can act; the simulated platform keeps no KOL points or trust
    // score, so those show the real service's starting values (WIRE §2 example: 0 and 0).
    is_bot: true,
    is_active: true,
    kol_points: 0,
    trust_score: 0,
    followers_count: a.followersCount,
    following_count: a.followingCount,
    posts_count: a.postsCount,
    likes_given_count: a.likesGivenCount,
    social_score: socialScoreOf(p, a),
    profile_upvotes: a.profileUpvotes,
    profile_downvotes: a.profileDownvotes,
    verified: a.verified,
    verified_at: a.verifiedAtMs === null ? null : toIso(a.verifiedAtMs),
    twitter_handle: a.twitterHandle,
    github_url: a.githubUrl,
    github_username: a.githubUsername,
    github_repo_url: a.githubRepoUrl,
    avatar_url: a.avatarUrl,
    chess_elo: a.elo,
    chess_peak_elo: a.peakElo,
    chess_games_played: gamesPlayed(a),
    chess_wins: a.wins,
    chess_losses: a.losses,
    chess_draws: a.draws,
  };
}

/** whoami for a human account: its social presence (humans have no chess, wallet or verification). */
export function humanSelf(p: Platform, h: Human): I.HumanSelf {
  return {
    id: h.id,
    username: h.handle,
    handle: h.handle,
    display_name: h.displayName,
    bio: h.bio,
    avatar_url: h.avatarUrl,
    followers_count: h.followersCount,
    following_count: h.followingCount,
    posts_count: h.postsCount,
    likes_given_count: h.likesGivenCount,
    social_score: socialScoreOf(p, h),
  };
}

export function apiUsage(p: Platform, a: Agent | Human): ApiKeyUsage {
  return {
    prefix: a.apiKeyPrefix,
    requests_today: a.usage.requestsToday,
    requests_limit: p.ruleset.api.requestsPerDay,
    total_requests: a.usage.totalRequests,
    last_used: a.usage.lastUsedMs === null ? null : toIso(a.usage.lastUsedMs),
    quota_policy: p.ruleset.api.quota,
    limit_reached: dailyQuotaUsedUp(a.usage, p.nowMs, p.ruleset.api.requestsPerDay),
  };
}

export function challengeView(p: Platform, c: Challenge): Ch.ChallengeView {
  const challenger = agentOf(p, c.challengerId);
  return {
    challenge_id: c.id,
    game_id: c.id,
    id: c.id,
    challenger: {
      handle: challenger.handle,
      elo: challenger.elo,
      wins: challenger.wins,
      losses: challenger.losses,
      social_score: socialScoreOf(p, challenger),
    },
    opponent: c.opponentId === null ? null : agentRef(agentOf(p, c.opponentId)),
    status: c.status,
    bounty_sol: solOrNull(c.bountyLamports),
    created_at: toIso(c.createdAtMs),
    expires_at: toIso(c.expiresAtMs),
  };
}

export function solOrNull(lamports: number | null): number | null {
  return lamports === null ? null : lamportsToSol(lamports);
}

/** The money fields of a challenge or game: stake, escrow account and the state of its deposits. */
export function escrowFields(
  p: Platform,
  bountyLamports: number | null,
  escrowAddress: string | null,
): G.EscrowFields {
  return {
    bounty_sol: solOrNull(bountyLamports),
    escrow_address: escrowAddress,
    ...escrowWireStatus(p, escrowAddress),
  };
}

/** The position after the last move, as the game keeps it (no FEN is rebuilt for a read). */
export function gameFen(g: Game): string {
  return g.fen;
}

/** The game summary of GET /api/chess/games (WIRE §4). */
export function gameSummary(p: Platform, g: Game): G.GameSummary {
  return {
    game_id: g.id,
    id: g.id,
    status: g.status,
    white_player: agentRef(agentOf(p, g.whiteId)),
    black_player: agentRef(agentOf(p, g.blackId)),
    current_fen: gameFen(g),
    move_count: g.plies,
    result: g.end?.result ?? null,
    end_reason: g.end?.reason ?? null,
    created_at: toIso(g.createdAtMs),
    bounty_sol: solOrNull(g.bountyLamports),
    tournament_id: g.tournamentId,
    cancel_reason: g.cancelReason,
  };
}

export function moveView(m: MoveRecord): G.MoveRow {
  return {
    move_id: m.moveId,
    move_number: m.moveNumber,
    move_san: m.san,
    move_uci: m.uci,
    fen_after: m.fenAfter,
    color: m.color,
    is_check: m.isCheck,
    is_checkmate: m.isCheckmate,
    created_at: toIso(m.playedAtMs),
  };
}

/** GET /api/chess/games/{id}: everything a client needs to move, plus the deadline it must beat. */
export function gameDetail(p: Platform, g: Game, viewer: Agent | null): G.GameDetail {
  const myColor: Side | null = viewer ? (colorOf(g, viewer.id) ?? null) : null;
  return {
    ...gameSummary(p, g),
    initial_fen: g.initialFen,
    moves: g.moves.map(moveView),
    is_my_turn: viewer ? isAgentsTurn(g, viewer.id) : false,
    my_color: myColor,
    turn: g.status === 'active' ? g.sideToMove : null,
    turn_deadline_at: g.status === 'active' && g.deadlineMs !== null ? toIso(g.deadlineMs) : null,
    winner_handle: g.end?.winner ? agentOf(p, g.end.winner === 'white' ? g.whiteId : g.blackId).handle : null,
    started_at: g.startedAtMs === null ? null : toIso(g.startedAtMs),
    ended_at: g.end ? toIso(g.end.endedAtMs) : null,
    ...escrowFields(p, g.bountyLamports, g.escrowAddress),
  };
}

/** One row of GET /api/chess/games/history, from the caller's side. */
export function historyRow(p: Platform, g: Game, me: Agent): G.HistoryRow {
  const end = g.end!;
  const mine = colorOf(g, me.id)!;
  const opponent = agentOf(p, mine === 'white' ? g.blackId : g.whiteId);
  const before = mine === 'white' ? end.whiteEloBefore : end.blackEloBefore;
  const delta = mine === 'white' ? end.whiteDelta : end.blackDelta;
  const result = end.winner === null ? 'draw' : end.winner === mine ? 'win' : 'loss';
  return {
    game_id: g.id,
    result,
    end_reason: end.reason,
    my_color: mine,
    opponent_handle: opponent.handle,
    opponent_bio: opponent.bio,
    opponent_tags: [...opponent.tags],
    my_elo_before: before,
    my_elo_after: before + delta,
    elo_change: delta,
    move_count: g.plies,
    created_at: toIso(g.createdAtMs),
    ended_at: toIso(end.endedAtMs),
    tournament_name: g.tournamentId === null ? null : p.state.tournaments.get(g.tournamentId)!.name,
  };
}

/** One row of GET /api/chess/games/my-turn: a game waiting for the caller's move. */
export function myTurnRow(p: Platform, g: Game, agentId: string): G.MyTurnRow {
  return {
    game_id: g.id,
    id: g.id,
    current_fen: gameFen(g),
    move_count: g.plies,
    my_color: agentId === g.whiteId ? 'white' : 'black',
    white_player: agentRef(agentOf(p, g.whiteId)),
    black_player: agentRef(agentOf(p, g.blackId)),
    turn_deadline_at: g.deadlineMs === null ? null : p.iso(g.deadlineMs),
  };
}

/** The account after PATCH /api/agents/profile, stamped with the time of the edit. */
export function updatedAgent(p: Platform, me: Agent): I.UpdatedAgent {
  return Object.assign(agentSelf(p, me), { updated_at: toIso(p.nowMs) });
}

/** When and with which external account a verified agent verified (set together by verifyAgent). */
export function verifiedStamp(agent: Agent): { at: string; handle: string } {
  invariant(
    agent.verifiedAtMs !== null && agent.twitterHandle !== null,
    `verified agent ${agent.handle} lacks its verification stamp`,
  );
  return { at: toIso(agent.verifiedAtMs), handle: agent.twitterHandle };
}

export function leaderboardRow(rank: number, a: Agent): L.LeaderboardRow {
  return {
    rank,
    agent: { handle: a.handle },
    handle: a.handle,
    elo: a.elo,
    peak_elo: a.peakElo,
    wins: a.wins,
    losses: a.losses,
    draws: a.draws,
    games_played: gamesPlayed(a),
  };
}
