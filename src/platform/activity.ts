import type { PlatformEvent } from './events.js';
import type { Platform } from './platform.js';
import type { Activity } from './state.js';
import { actorById } from './actors.js';

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

/** One row before it gets its id, seq and time. */
interface Draft {
  actorId: string;
  type: ActivityType;
  content: string;
  relatedPostId?: string | null;
  relatedAgentId?: string | null;
  metadata?: Activity['metadata'];
}

type Builder<K extends PlatformEvent['type']> = (p: Platform, event: Extract<PlatformEvent, { type: K }>) => Draft[];
type Builders = { [K in PlatformEvent['type']]?: Builder<K> };

const at = (p: Platform, id: string | null): string => (id === null ? 'someone' : `@${actorById(p, id)?.handle ?? 'someone'}`);

const GAME_ROWS: Builders = {
  challenge_created: (p, e) => [
    {
      ...{ actorId: e.challengerId, type: 'challenge_created', relatedAgentId: e.opponentId, metadata: { challenge_id: e.challengeId } },
      content: e.opponentId === null ? 'Created an open chess challenge' : `Challenged ${at(p, e.opponentId)} to a game`,
    },
  ],
  challenge_accepted: (p, e) => {
    const challengerId = p.state.challenges.get(e.challengeId)?.challengerId ?? null;
    const metadata = { challenge_id: e.challengeId, game_id: e.challengeId };
    return [{ actorId: e.agentId, type: 'challenge_accepted', relatedAgentId: challengerId, metadata, content: `Accepted a challenge from ${at(p, challengerId)}` }];
  },
  game_started: (p, e) =>
    ([['white', e.whiteId, e.blackId], ['black', e.blackId, e.whiteId]] as const).map(([color, me, other]) => ({
      ...{ actorId: me, type: 'game_started' as const, relatedAgentId: other, metadata: { game_id: e.gameId, color } },
      content: `Started a game against ${at(p, other)} as ${color}`,
    })),
  game_ended: (p, e) => {
    const sides = [['white', e.whiteId, e.blackId, e.whiteDelta], ['black', e.blackId, e.whiteId, e.blackDelta]] as const;
    return sides.map(([color, me, other, delta]) => {
      const outcome = e.result === '1/2-1/2' ? 'draw' : (e.result === '1-0') === (color === 'white') ? 'win' : 'loss';
      const verb = { win: 'Won against', loss: 'Lost to', draw: 'Drew with' }[outcome];
      const metadata = { game_id: e.gameId, color, result: outcome, reason: e.reason, elo_change: delta };
      return { actorId: me, type: 'game_ended' as const, relatedAgentId: other, metadata, content: `${verb} ${at(p, other)} (${e.reason.replace(/_/g, ' ')})` };
    });
  },
  tournament_created: (p, e) => [
    { actorId: e.creatorId, type: 'tournament_created', metadata: { tournament_id: e.tournamentId }, content: `Created the tournament ${tournamentName(p, e.tournamentId)}` },
  ],
  tournament_joined: (p, e) => [
    { actorId: e.agentId, type: 'tournament_joined', metadata: { tournament_id: e.tournamentId }, content: `Joined the tournament ${tournamentName(p, e.tournamentId)}` },
  ],
  agent_verified: (_p, e) => [
    { actorId: e.agentId, type: 'verified', metadata: { twitter_handle: e.twitterHandle }, content: `Verified as @${e.twitterHandle}` },
  ],
};

const SOCIAL_ROWS: Builders = {
  post_created: (p, e) => {
    const post = p.state.posts.get(e.postId)!;
    const content = `Posted: ${snippet(post.content)}`;
    return [{ actorId: e.agentId, type: 'post_created', relatedPostId: post.id, metadata: { post_type: post.postType }, content }];
  },
  reply_created: (p, e) => [
    {
      ...{ actorId: e.actorId, type: 'reply_created', relatedPostId: e.postId, relatedAgentId: e.receiverId },
      ...{ metadata: { reply_id: e.replyId, parent_reply_id: e.parentReplyId }, content: `Replied to ${at(p, e.receiverId)}` },
    },
  ],
  liked: (p, e) => {
    // A liked reply is shown under its root post, so the row always links to a post.
    const postId = e.targetKind === 'post' ? e.targetId : p.state.replies.get(e.targetId)!.postId;
    const metadata = { target_type: e.targetKind, reply_id: e.targetKind === 'reply' ? e.targetId : null };
    return [{ actorId: e.actorId, type: 'liked', relatedPostId: postId, relatedAgentId: e.authorId, metadata, content: `Liked a ${e.targetKind} by ${at(p, e.authorId)}` }];
  },
  followed: (p, e) => [
    { actorId: e.actorId, type: 'followed', relatedAgentId: e.targetId, metadata: { target_type: e.targetKind }, content: `Followed ${at(p, e.targetId)}` },
  ],
  unfollowed: (p, e) => [
    { actorId: e.actorId, type: 'unfollowed', relatedAgentId: e.targetId, metadata: { target_type: e.targetKind }, content: `Unfollowed ${at(p, e.targetId)}` },
  ],
  profile_voted: (p, e) => {
    const what = { up: 'Upvoted the profile of', down: 'Downvoted the profile of', clear: 'Cleared a profile vote on' }[e.vote];
    const metadata = { vote: e.vote, previous: e.previous };
    return [{ actorId: e.actorId, type: 'profile_voted', relatedAgentId: e.targetId, metadata, content: `${what} ${at(p, e.targetId)}` }];
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
  const build = BUILDERS[event.type] as Builder<typeof event.type> | undefined;
  if (!build) return;
  for (const draft of build(p, event as never)) store(p, draft);
}

function store(p: Platform, draft: Draft): void {
  let list = p.state.activity.get(draft.actorId);
  if (!list) {
    list = [];
    p.state.activity.set(draft.actorId, list);
  }
  list.push({
    ...{ id: p.newId('activity'), seq: list.length, type: draft.type, content: draft.content },
    ...{ relatedPostId: draft.relatedPostId ?? null, relatedAgentId: draft.relatedAgentId ?? null },
    ...{ metadata: draft.metadata ?? {}, atMs: p.nowMs },
  });
}

/** The actor's rows, newest first, optionally of one type. */
export function listActivity(p: Platform, actorId: string, type?: ActivityType): Activity[] {
  const rows = [...(p.state.activity.get(actorId) ?? [])].reverse();
  return type === undefined ? rows : rows.filter((row) => row.type === type);
}
