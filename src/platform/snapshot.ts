import { canonicalJson } from '../kernel/canonical.js';
import { currentFen } from '../rules/chess/chess.js';
import { listActivity } from './social/activity.js';
import { GameRecord } from './chess/game-record.js';
import type { Platform } from './platform.js';
import type { Activity, Game } from './state.js';

/**
 * The platform's state as canonical JSON text, for "a refused request changes nothing" checks. Per-key
 * usage counters are left out by default: every authenticated request counts against the daily quota,
 * refused or not, as the real service's whoami counters do.
 */
export function stateFingerprint(p: Platform, options: { includeUsage?: boolean } = {}): string {
  const agents = [...p.state.agents.values()].map((a) => (options.includeUsage ? a : { ...a, usage: null }));
  const games = [...p.state.games.values()].map(gameSnapshot);
  return canonicalJson({
    nowMs: p.nowMs,
    agents,
    handles: [...p.state.agentIdByHandle.entries()],
    keys: [...p.state.agentIdByKeyHash.entries()],
    challenges: [...p.state.challenges.values()],
    games,
    live: [...p.state.liveGamesByAgent.entries()].map(([id, set]) => [id, [...set]]),
    completed: [...p.state.completedGamesByAgent.entries()],
    open: [...p.state.openChallengeIds],
    posts: [...p.state.posts.values()],
    transfers: [...p.state.transfers.values()],
    transfersByAgent: [...p.state.transfersByAgent.entries()],
    fees: [...p.state.feesByAgent.entries()],
    escrows: [...p.state.escrows.values()].map((e) => ({
      ...e,
      pendingIn: [...e.pendingIn],
      pendingOut: [...e.pendingOut],
    })),
    pendingOut: [...p.state.pendingOutByAddress.entries()],
    reserved: [...p.state.reservedByAddress.entries()],
    tournaments: [...p.state.tournaments.values()],
    votes: [...p.state.profileVotes.entries()],
    humans: [...p.state.humans.values()].map((h) => (options.includeUsage ? h : { ...h, usage: null })),
    humanNames: [...p.state.humanIdByUsername.entries()],
    humanKeys: [...p.state.humanIdByKeyHash.entries()],
    postIds: p.state.postIds,
    postIdsByAuthor: [...p.state.postIdsByAuthor.entries()],
    recaps: [...p.state.recapPosts.entries()],
    replies: [...p.state.replies.values()],
    threads: [...p.state.repliesByPost.entries()],
    likes: [...p.state.likes],
    follows: [...p.state.follows],
    unseen: [...p.state.unseenCursor.entries()],
    notifications: [...p.state.notifications.entries()],
    activity: [...p.state.activity.keys()].map((actorId) => [
      actorId,
      listActivity(p, actorId).reverse().map(activitySnapshot),
    ]),
    external: [...p.state.externalAccounts.entries()],
    ledger: p.ledger.balances(),
    timers: p.timers.size,
    events: p.eventCount,
  });
}

/** A game's fields, its packed moves, and for a game still in play its board with the repetition counts. */
function gameSnapshot(g: Game): Record<string, unknown> {
  const live = g.status === 'pending' || g.status === 'active';
  return {
    id: g.id,
    seq: g.seq,
    whiteId: g.whiteId,
    blackId: g.blackId,
    status: g.status,
    initialFen: g.initialFen,
    createdAtMs: g.createdAtMs,
    startedAtMs: g.startedAtMs,
    turnStartedMs: g.turnStartedMs,
    deadlineMs: g.deadlineMs,
    deadlineTimer: g.deadlineTimer,
    end: g.end,
    cancelReason: g.cancelReason,
    bountyLamports: g.bountyLamports,
    escrowAddress: g.escrowAddress,
    tournamentId: g.tournamentId,
    plies: g.plies,
    fen: g.fen,
    moves: g instanceof GameRecord ? g.packedMoves() : g.moves,
    board: live
      ? { fen: currentFen(g.board), plies: g.board.plies, repetitions: [...g.board.repetitions.entries()] }
      : null,
  };
}

/** A row's fields as read (game rows write theirs from their records). */
function activitySnapshot(row: Activity): Record<string, unknown> {
  return {
    seq: row.seq,
    type: row.type,
    id: row.id,
    content: row.content,
    relatedPostId: row.relatedPostId,
    relatedAgentId: row.relatedAgentId,
    metadata: row.metadata,
    atMs: row.atMs,
  };
}
