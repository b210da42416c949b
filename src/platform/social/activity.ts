import type { PlatformEvent } from '../events.js';
import type { Platform } from '../platform.js';
import type { Activity, ActivityEntry, Challenge } from '../state.js';
import { actorById } from '../identity/actors.js';
import { ChallengeEntry, GameEntry, rowOf, WrittenEntry, type RowText } from './activity-rows.js';
import { flatString } from '../../kernel/strings.js';

/**
 * GET /api/activity (SPEC, WIRE §11): each actor's own gameplay and social actions, recorded from the event
 * log as it is written. WIRE's one example labels a challenge "game_started"; we name each kind for what
 * happened (OURS), from this closed vocabulary.
 */
export const ACTIVITY_TYPES = [
  'challenge_created',
  'challenge_accepted',
  'game_started',
  'game_ended',
  'post_created',
  'reply_created',
  'liked',
  'followed',
  'unfollowed',
  'profile_voted',
  'tournament_created',
  'tournament_joined',
  'verified',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** One row before it gets its id and seq: written out now, or read later from its challenge (game rows: storeGameEntry). */
type Draft =
  | ({ actorId: string; type: ActivityType; source: 'text' } & RowText)
  | {
      actorId: string;
      type: 'challenge_created' | 'challenge_accepted';
      source: 'challenge';
      challenge: Challenge;
      otherId: string | null;
    };

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

const at = (p: Platform, id: string | null): string =>
  id === null ? 'someone' : `@${actorById(p, id)?.handle ?? 'someone'}`;

const GAME_ROWS: Builders = {
  challenge_created: (p, e) => [
    {
      actorId: e.challengerId,
      type: 'challenge_created',
      source: 'challenge',
      challenge: p.state.challenges.get(e.challengeId)!,
      otherId: e.opponentId,
    },
  ],
  challenge_accepted: (p, e) => {
    const challenge = p.state.challenges.get(e.challengeId)!;
    return [
      {
        actorId: e.agentId,
        type: 'challenge_accepted',
        source: 'challenge',
        challenge,
        otherId: challenge.challengerId,
      },
    ];
  },
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

const SOCIAL_ROWS: Builders = {
  post_created: (p, e) => {
    const post = p.state.posts.get(e.postId)!;
    const content = `Posted: ${snippet(post.content)}`;
    return [
      text(e.agentId, 'post_created', {
        relatedPostId: post.id,
        metadata: { post_type: post.postType },
        content,
      }),
    ];
  },
  reply_created: (p, e) => [
    text(e.actorId, 'reply_created', {
      relatedPostId: e.postId,
      relatedAgentId: e.receiverId,
      metadata: { reply_id: e.replyId, parent_reply_id: e.parentReplyId },
      content: `Replied to ${at(p, e.receiverId)}`,
    }),
  ],
  liked: (p, e) => {
    // A liked reply is shown under its root post, so the row always links to a post.
    const postId = e.targetKind === 'post' ? e.targetId : p.state.replies.get(e.targetId)!.postId;
    const metadata = { target_type: e.targetKind, reply_id: e.targetKind === 'reply' ? e.targetId : null };
    return [
      text(e.actorId, 'liked', {
        relatedPostId: postId,
        relatedAgentId: e.authorId,
        metadata,
        content: `Liked a ${e.targetKind} by ${at(p, e.authorId)}`,
      }),
    ];
  },
  followed: (p, e) => [
    text(e.actorId, 'followed', {
      relatedAgentId: e.targetId,
      metadata: { target_type: e.targetKind },
      content: `Followed ${at(p, e.targetId)}`,
    }),
  ],
  unfollowed: (p, e) => [
    text(e.actorId, 'unfollowed', {
      relatedAgentId: e.targetId,
      metadata: { target_type: e.targetKind },
      content: `Unfollowed ${at(p, e.targetId)}`,
    }),
  ],
  profile_voted: (p, e) => {
    const what = {
      up: 'Upvoted the profile of',
      down: 'Downvoted the profile of',
      clear: 'Cleared a profile vote on',
    }[e.vote];
    const metadata = { vote: e.vote, previous: e.previous };
    return [
      text(e.actorId, 'profile_voted', {
        relatedAgentId: e.targetId,
        metadata,
        content: `${what} ${at(p, e.targetId)}`,
      }),
    ];
  },
};

const BUILDERS: Builders = { ...GAME_ROWS, ...SOCIAL_ROWS };

function tournamentName(p: Platform, id: string): string {
  return `"${p.state.tournaments.get(id)?.name ?? id}"`;
}

/** The first words of a post, so an activity row reads as a sentence, not a copy of the post. */
function snippet(text: string, max = 80): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
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
  const ids = p.activityIds;
  if (draft.source === 'challenge')
    return new ChallengeEntry(draft.type, ids, draft.challenge, handleOf(p, draft.otherId));
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
  const entry = new GameEntry(type, p.activityIds, game, {
    white: handleOf(p, game.whiteId),
    black: handleOf(p, game.blackId),
  });
  listOf(p, game.whiteId).push(entry);
  listOf(p, game.blackId).push(entry);
}

/** The handle an actor has now (a row keeps it: the actor may change it later). */
function handleOf(p: Platform, id: string | null): string | null {
  return id === null ? null : (actorById(p, id)?.handle ?? null);
}

/** The actor's rows, newest first, optionally of one type. */
export function listActivity(p: Platform, actorId: string, type?: ActivityType): Activity[] {
  const entries = p.state.activity.get(actorId) ?? [];
  const rows: Activity[] = [];
  for (let seq = entries.length - 1; seq >= 0; seq--) {
    const entry = entries[seq]!;
    if (type === undefined || entry.type === type) rows.push(rowOf(entry, actorId, seq));
  }
  return rows;
}
