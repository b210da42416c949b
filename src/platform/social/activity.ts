import type { PlatformEvent } from '../events.js';
import type { Platform } from '../platform.js';
import type { Activity, ActivityEntry, ActivityType, ActorKind, Challenge } from '../state.js';
import { actorById } from '../identity/actors.js';
import {
  ChallengeAcceptedEntry,
  ChallengeCreatedEntry,
  FollowEntry,
  GameEndedEntry,
  GameStartedEntry,
  LikedEntry,
  PostedEntry,
  RepliedEntry,
  rowOf,
  VotedEntry,
  WrittenEntry,
  type RowContext,
  type RowText,
} from './storage/activity-rows.js';
import { flatString } from '../../kernel/strings.js';

/**
 * GET /api/activity (SPEC, WIRE §11): each actor's own gameplay and social actions, recorded from the event
 * log as it is written, one row of a kind in `ACTIVITY_TYPES` (src/platform/state.ts) per action.
 */

/**
 * One row before it is stored: written out now, read later from its challenge, or an action's entry made
 * already (game rows: storeGameEntry).
 */
type Draft =
  | ({ actorId: string; type: ActivityType; source: 'text' } & RowText)
  | { actorId: string; source: 'entry'; entry: ActivityEntry }
  | {
      actorId: string;
      type: 'challenge_created' | 'challenge_accepted';
      source: 'challenge';
      challenge: Challenge;
    };

/** An action's row, its entry made (and its id drawn) as the row is built. */
function action(actorId: string, entry: ActivityEntry): Draft {
  return { actorId, source: 'entry', entry };
}

/** A row written out now. */
function text(actorId: string, type: ActivityType, row: RowText): Draft {
  return {
    actorId,
    type,
    source: 'text',
    content: row.content,
    relatedPostId: row.relatedPostId,
    relatedAgentId: row.relatedAgentId,
    metadata: row.metadata,
  };
}

type Builder<K extends PlatformEvent['type']> = (
  p: Platform,
  event: Extract<PlatformEvent, { type: K }>,
) => Draft[];
type Builders = { [K in PlatformEvent['type']]?: Builder<K> };

const GAME_ROWS: Builders = {
  challenge_created: (p, e) => [
    {
      actorId: e.challengerId,
      type: 'challenge_created',
      source: 'challenge',
      challenge: p.state.challenges.get(e.challengeId)!,
    },
  ],
  challenge_accepted: (p, e) => [
    {
      actorId: e.agentId,
      type: 'challenge_accepted',
      source: 'challenge',
      challenge: p.state.challenges.get(e.challengeId)!,
    },
  ],
  tournament_created: (p, e) => [
    text(e.creatorId, 'tournament_created', {
      metadata: { tournament_id: e.tournamentId },
      content: `Created the tournament ${tournamentName(p, e.tournamentId)}`,
    }),
  ],
  tournament_joined: (p, e) => [
    text(e.agentId, 'tournament_joined', {
      metadata: { tournament_id: e.tournamentId },
      content: `Joined the tournament ${tournamentName(p, e.tournamentId)}`,
    }),
  ],
  agent_verified: (_p, e) => [
    text(e.agentId, 'verified', {
      metadata: { twitter_handle: e.twitterHandle },
      content: `Verified as @${e.twitterHandle}`,
    }),
  ],
};

/** Social actions: one row each, its actor's, written when read (see ActionEntry). */
const SOCIAL_ROWS: Builders = {
  post_created: (p, e) => [
    action(e.agentId, new PostedEntry(p.activityIds, p.nowMs, p.state.posts.get(e.postId)!)),
  ],
  reply_created: (p, e) => [
    action(
      e.actorId,
      new RepliedEntry(p.activityIds, p.nowMs, { postId: e.postId, agentId: e.receiverId }, e),
    ),
  ],
  liked: (p, e) => {
    const reply = e.targetKind === 'reply';
    // A liked reply is shown under its root post, so the row always links to a post.
    const postId = reply ? p.state.replies.get(e.targetId)!.postId : e.targetId;
    const related = { postId, agentId: e.authorId };
    return [action(e.actorId, new LikedEntry(p.activityIds, p.nowMs, related, reply ? e.targetId : null))];
  },
  followed: (p, e) => [action(e.actorId, followEntry(p, 'followed', e))],
  unfollowed: (p, e) => [action(e.actorId, followEntry(p, 'unfollowed', e))],
  profile_voted: (p, e) => {
    return [action(e.actorId, new VotedEntry(p.activityIds, p.nowMs, { id: e.targetId }, e))];
  },
};

function followEntry(
  p: Platform,
  type: 'followed' | 'unfollowed',
  e: { targetId: string; targetKind: ActorKind },
): FollowEntry {
  const target = { id: e.targetId, kind: e.targetKind };
  return new FollowEntry(type, p.activityIds, p.nowMs, target);
}

const BUILDERS: Builders = { ...GAME_ROWS, ...SOCIAL_ROWS };

function tournamentName(p: Platform, id: string): string {
  return `"${p.state.tournaments.get(id)?.name ?? id}"`;
}

export function recordActivity(p: Platform, event: PlatformEvent): void {
  if (event.type === 'game_started' || event.type === 'game_ended')
    return storeGameEntry(p, event.type, event.gameId);
  const build = BUILDERS[event.type] as Builder<typeof event.type> | undefined;
  if (!build) return;
  for (const draft of build(p, event)) store(p, draft);
}

function store(p: Platform, draft: Draft): void {
  listOf(p, draft.actorId).push(entryOf(p, draft));
}

function listOf(p: Platform, actorId: string): ActivityEntry[] {
  let list = p.state.activity.get(actorId);
  if (!list) {
    list = [];
    p.state.activity.set(actorId, list);
  }
  return list;
}

function entryOf(p: Platform, draft: Draft): ActivityEntry {
  if (draft.source === 'entry') return draft.entry;
  const ids = p.activityIds;
  if (draft.source === 'challenge')
    return draft.type === 'challenge_created'
      ? new ChallengeCreatedEntry(ids, draft.challenge)
      : new ChallengeAcceptedEntry(ids, draft.challenge);
  // Written rows are kept for the whole run: a template string would stay a rope of several pieces.
  const text: RowText = {
    content: flatString(draft.content),
    relatedPostId: draft.relatedPostId,
    relatedAgentId: draft.relatedAgentId,
    metadata: draft.metadata,
  };
  return new WrittenEntry(draft.type, ids, text, p.nowMs);
}

/** A game event's one entry, in White's list and then Black's (their rows' order, as made). */
function storeGameEntry(p: Platform, type: 'game_started' | 'game_ended', gameId: string): void {
  const game = p.state.games.get(gameId)!;
  const entry =
    type === 'game_started'
      ? new GameStartedEntry(p.activityIds, game)
      : new GameEndedEntry(p.activityIds, game);
  listOf(p, game.whiteId).push(entry);
  listOf(p, game.blackId).push(entry);
}

/** What rows read from the platform: row ids, and actors' handles now and earlier. */
function rowContext(p: Platform): RowContext {
  return {
    ids: p.activityIds,
    names: { history: p.handleHistory, current: (id) => actorById(p, id)?.handle ?? null },
  };
}

/** The actor's rows, newest first, optionally of one type (a type never recorded matches no row). */
export function listActivity(p: Platform, actorId: string, type?: string): Activity[] {
  const entries = p.state.activity.get(actorId) ?? [];
  const context = rowContext(p);
  const rows: Activity[] = [];
  for (let seq = entries.length - 1; seq >= 0; seq--) {
    const entry = entries[seq]!;
    if (type === undefined || entry.type === type) rows.push(rowOf(entry, actorId, seq, context));
  }
  return rows;
}
