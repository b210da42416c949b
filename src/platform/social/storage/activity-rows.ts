import type { Json } from '../../../kernel/checkpoint.js';
import type { ReplayableIds } from '../../../kernel/replayable-ids.js';
import type { HandleHistory } from '../../handle-history.js';
import type { Side } from '../../../rules/chess/game.js';
import type {
  Activity,
  ActivityEntry,
  ActivityType,
  ActorKind,
  Challenge,
  Game,
  GameEnd,
  Post,
} from '../../state.js';

/**
 * Activity as kept for a whole run: each actor's list holds entries, read as Activity rows (see
 * `rowOf`). Every entry keeps its ids as ordinals of the platform's activity id stream, drawn again when
 * read. An entry about a challenge or a game (the bulk of a chess run's activity) keeps a reference to that
 * record, which the platform keeps anyway; a game event's one entry sits in both players' lists. Its text,
 * metadata and time are written from the record when read. A social action's entry (ActionEntry) keeps the
 * ids, and writes its text and metadata when read. Rows name actors by the handles they had when the row was
 * made, which the platform's HandleHistory gives by the row's ordinal, so no entry keeps a handle. The rare
 * rest (tournaments, verification) are written out when made. Either way a row reads exactly as it did
 * when it was made.
 */
interface EntrySource extends ActivityEntry {
  /** The entry as a checkpoint keeps it (read back by activity-checkpoint.ts). */
  save(): SavedEntry;
  idFor(actorId: string, ids: ReplayableIds): string;
  contentFor(actorId: string, names: RowNames): string;
  relatedPostIdFor(actorId: string): string | null;
  relatedAgentIdFor(actorId: string): string | null;
  metadataFor(actorId: string): Activity['metadata'];
}

/**
 * Where an entry takes its id ordinal: the activity id stream when it is made (it draws the ids), or a
 * checkpoint's saved ordinal when it is made again (activity-checkpoint.ts), which draws nothing.
 */
export interface OrdinalDraw {
  readonly nextOrdinal: number;
  next(): unknown;
}

/**
 * An entry as a checkpoint keeps it: a list led by its kind and its id ordinal, then what its kind keeps
 * (records it reads are named by id). See activity-checkpoint.ts, which reads it back.
 */
export type SavedEntry = Json[];

/** An entry's checkpoint form. */
export function saveEntry(entry: ActivityEntry): SavedEntry {
  return (entry as EntrySource).save();
}

/**
 * What reading rows needs from the platform: the activity id stream the entries drew their ordinals from,
 * and the handles actors had when a row was made (a row holds these, an entry kept for the whole run does not).
 */
export interface RowContext {
  readonly ids: ReplayableIds;
  readonly names: RowNames;
}

/** Actors' handles as rows name them. */
export interface RowNames {
  readonly history: HandleHistory;
  /** An actor's handle now, or null when there is no such actor. */
  current(actorId: string): string | null;
}

/** `@handle` of `actorId` when the row of ordinal `ordinal` was made: "someone" for no actor, "@someone" for one unknown. */
function namedAt(names: RowNames, actorId: string | null, ordinal: number): string {
  if (actorId === null) return 'someone';
  const current = names.current(actorId);
  return `@${current === null ? 'someone' : names.history.at(actorId, current, ordinal)}`;
}

/** An entry read as one actor's row, at position `seq` of that actor's list. */
class EntryRow implements Activity {
  readonly seq: number;
  readonly #entry: EntrySource;
  readonly #actorId: string;
  readonly #context: RowContext;

  constructor(entry: EntrySource, actorId: string, seq: number, context: RowContext) {
    this.seq = seq;
    this.#entry = entry;
    this.#actorId = actorId;
    this.#context = context;
  }

  get id(): string {
    return this.#entry.idFor(this.#actorId, this.#context.ids);
  }
  get type(): ActivityType {
    return this.#entry.type;
  }
  get content(): string {
    return this.#entry.contentFor(this.#actorId, this.#context.names);
  }
  get relatedPostId(): string | null {
    return this.#entry.relatedPostIdFor(this.#actorId);
  }
  get relatedAgentId(): string | null {
    return this.#entry.relatedAgentIdFor(this.#actorId);
  }
  get metadata(): Activity['metadata'] {
    return this.#entry.metadataFor(this.#actorId);
  }
  get atMs(): number {
    return this.#entry.atMs;
  }
}

/** The row an actor's list shows for one of its entries. */
export function rowOf(entry: ActivityEntry, actorId: string, seq: number, context: RowContext): Activity {
  return new EntryRow(entry as EntrySource, actorId, seq, context);
}

/** What a written entry says, as its builder made it. */
export interface RowText {
  content: string;
  relatedPostId?: string | null;
  relatedAgentId?: string | null;
  metadata?: Activity['metadata'];
}

/** A row written out when made (tournaments, verification): one actor's. */
export class WrittenEntry implements EntrySource {
  readonly type: ActivityType;
  readonly atMs: number;
  readonly #idOrdinal: number;
  readonly #content: string;
  readonly #relatedPostId: string | null;
  readonly #relatedAgentId: string | null;
  readonly #metadata: Activity['metadata'];

  constructor(type: ActivityType, ids: OrdinalDraw, text: RowText, atMs: number) {
    this.type = type;
    this.atMs = atMs;
    this.#idOrdinal = ids.nextOrdinal;
    ids.next();
    this.#content = text.content;
    this.#relatedPostId = text.relatedPostId ?? null;
    this.#relatedAgentId = text.relatedAgentId ?? null;
    this.#metadata = text.metadata ?? {};
  }

  idFor(_actorId: string, ids: ReplayableIds): string {
    return ids.idsAt([this.#idOrdinal])[0]!;
  }
  save(): SavedEntry {
    const text = [this.#content, this.#relatedPostId, this.#relatedAgentId, { ...this.#metadata }];
    return ['written', this.#idOrdinal, this.atMs, this.type, ...text];
  }
  contentFor(): string {
    return this.#content;
  }
  relatedPostIdFor(): string | null {
    return this.#relatedPostId;
  }
  relatedAgentIdFor(): string | null {
    return this.#relatedAgentId;
  }
  metadataFor(): Activity['metadata'] {
    return this.#metadata;
  }
}

/**
 * A social action's row (post, reply, like, follow, unfollow, profile vote): one actor's, kept as the ids,
 * its text and metadata written when read. Written out when made,
 * each row kept a sentence and a metadata object of its own: the largest part of a long crowd run's activity.
 */
abstract class ActionEntry implements EntrySource {
  abstract readonly type: ActivityType;
  readonly atMs: number;
  readonly #idOrdinal: number;
  readonly #relatedPostId: string | null;
  readonly #relatedAgentId: string | null;
  constructor(ids: OrdinalDraw, atMs: number, related: RelatedIds) {
    this.atMs = atMs;
    this.#idOrdinal = ids.nextOrdinal;
    ids.next();
    this.#relatedPostId = related.postId;
    this.#relatedAgentId = related.agentId;
  }

  idFor(_actorId: string, ids: ReplayableIds): string {
    return ids.idsAt([this.#idOrdinal])[0]!;
  }
  save(): SavedEntry {
    return [
      this.type,
      this.#idOrdinal,
      this.atMs,
      this.#relatedPostId,
      this.#relatedAgentId,
      ...this.saveOwn(),
    ];
  }
  /** What the kind keeps beyond the ids and time (the post of a post row is its related post). */
  protected saveOwn(): Json[] {
    return [];
  }
  relatedPostIdFor(): string | null {
    return this.#relatedPostId;
  }
  relatedAgentIdFor(): string | null {
    return this.#relatedAgentId;
  }
  /** The related actor as the row names it (by its handle when the row was made). */
  protected other(names: RowNames): string {
    return namedAt(names, this.#relatedAgentId, this.#idOrdinal);
  }
  abstract contentFor(actorId: string, names: RowNames): string;
  abstract metadataFor(): Activity['metadata'];
}

/** The post and the actor an action row links to. */
export interface RelatedIds {
  postId: string | null;
  agentId: string | null;
}

/** post_created: read from the post itself, which never changes its text or type. */
export class PostedEntry extends ActionEntry {
  get type(): 'post_created' {
    return 'post_created';
  }
  readonly #post: Post;

  constructor(ids: OrdinalDraw, atMs: number, post: Post) {
    super(ids, atMs, { postId: post.id, agentId: null });
    this.#post = post;
  }

  contentFor(): string {
    return `Posted: ${snippet(this.#post.content)}`;
  }
  metadataFor(): Activity['metadata'] {
    return { post_type: this.#post.postType };
  }
}

/** The first words of a post, so an activity row reads as a sentence, not a copy of the post. */
function snippet(text: string, max = 80): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/** reply_created, linking the post and the author replied to. */
export class RepliedEntry extends ActionEntry {
  get type(): 'reply_created' {
    return 'reply_created';
  }
  readonly #replyId: string;
  readonly #parentReplyId: string | null;

  constructor(
    ids: OrdinalDraw,
    atMs: number,
    related: RelatedIds,
    reply: { replyId: string; parentReplyId: string | null },
  ) {
    super(ids, atMs, related);
    this.#replyId = reply.replyId;
    this.#parentReplyId = reply.parentReplyId;
  }

  protected override saveOwn(): Json[] {
    return [this.#replyId, this.#parentReplyId];
  }
  contentFor(_actorId: string, names: RowNames): string {
    return `Replied to ${this.other(names)}`;
  }
  metadataFor(): Activity['metadata'] {
    return { reply_id: this.#replyId, parent_reply_id: this.#parentReplyId };
  }
}

/** liked: a post, or a reply (whose row links its root post). */
export class LikedEntry extends ActionEntry {
  get type(): 'liked' {
    return 'liked';
  }
  readonly #replyId: string | null;

  constructor(ids: OrdinalDraw, atMs: number, related: RelatedIds, replyId: string | null) {
    super(ids, atMs, related);
    this.#replyId = replyId;
  }

  protected override saveOwn(): Json[] {
    return [this.#replyId];
  }
  contentFor(_actorId: string, names: RowNames): string {
    return `Liked a ${this.targetType} by ${this.other(names)}`;
  }
  metadataFor(): Activity['metadata'] {
    return { target_type: this.targetType, reply_id: this.#replyId };
  }
  private get targetType(): 'post' | 'reply' {
    return this.#replyId === null ? 'post' : 'reply';
  }
}

/** followed or unfollowed: an agent or a human. */
export class FollowEntry extends ActionEntry {
  readonly type: 'followed' | 'unfollowed';
  readonly #targetKind: ActorKind;

  constructor(
    type: 'followed' | 'unfollowed',
    ids: OrdinalDraw,
    atMs: number,
    target: { id: string; kind: ActorKind },
  ) {
    super(ids, atMs, { postId: null, agentId: target.id });
    this.type = type;
    this.#targetKind = target.kind;
  }

  protected override saveOwn(): Json[] {
    return [this.#targetKind];
  }
  contentFor(_actorId: string, names: RowNames): string {
    return `${this.type === 'followed' ? 'Followed' : 'Unfollowed'} ${this.other(names)}`;
  }
  metadataFor(): Activity['metadata'] {
    return { target_type: this.#targetKind };
  }
}

const VOTE_VERBS = {
  up: 'Upvoted the profile of',
  down: 'Downvoted the profile of',
  clear: 'Cleared a profile vote on',
} as const;

/** profile_voted: up, down or clear, and the vote it replaced. */
export class VotedEntry extends ActionEntry {
  get type(): 'profile_voted' {
    return 'profile_voted';
  }
  readonly #vote: keyof typeof VOTE_VERBS;
  readonly #previous: 'up' | 'down' | null;

  constructor(
    ids: OrdinalDraw,
    atMs: number,
    target: { id: string },
    vote: { vote: keyof typeof VOTE_VERBS; previous: 'up' | 'down' | null },
  ) {
    super(ids, atMs, { postId: null, agentId: target.id });
    this.#vote = vote.vote;
    this.#previous = vote.previous;
  }

  protected override saveOwn(): Json[] {
    return [this.#vote, this.#previous];
  }
  contentFor(_actorId: string, names: RowNames): string {
    return `${VOTE_VERBS[this.#vote]} ${this.other(names)}`;
  }
  metadataFor(): Activity['metadata'] {
    return { vote: this.#vote, previous: this.#previous };
  }
}

/**
 * challenge_created (the challenger's row, ChallengeCreatedEntry) or challenge_accepted (the acceptor's,
 * ChallengeAcceptedEntry): a subclass each, so that the type is its prototype's and not a field of every entry.
 */
export abstract class ChallengeEntry implements EntrySource {
  abstract readonly type: 'challenge_created' | 'challenge_accepted';
  protected readonly idOrdinal: number;
  protected readonly challenge: Challenge;

  constructor(ids: OrdinalDraw, challenge: Challenge) {
    this.idOrdinal = ids.nextOrdinal;
    ids.next();
    this.challenge = challenge;
  }

  abstract get atMs(): number;
  abstract contentFor(actorId: string, names: RowNames): string;
  abstract relatedAgentIdFor(): string | null;
  abstract metadataFor(): Activity['metadata'];

  idFor(_actorId: string, ids: ReplayableIds): string {
    return ids.idsAt([this.idOrdinal])[0]!;
  }

  save(): SavedEntry {
    return [this.type, this.idOrdinal, this.challenge.id];
  }

  relatedPostIdFor(): null {
    return null;
  }
}

export class ChallengeCreatedEntry extends ChallengeEntry {
  get type(): 'challenge_created' {
    return 'challenge_created';
  }
  get atMs(): number {
    return this.challenge.createdAtMs;
  }
  contentFor(_actorId: string, names: RowNames): string {
    const c = this.challenge;
    return c.opponentId === null
      ? 'Created an open chess challenge'
      : `Challenged ${namedAt(names, c.opponentId, this.idOrdinal)} to a game`;
  }
  relatedAgentIdFor(): string | null {
    return this.challenge.opponentId;
  }
  metadataFor(): Activity['metadata'] {
    return { challenge_id: this.challenge.id };
  }
}

export class ChallengeAcceptedEntry extends ChallengeEntry {
  get type(): 'challenge_accepted' {
    return 'challenge_accepted';
  }
  get atMs(): number {
    return this.challenge.acceptedAtMs!;
  }
  contentFor(_actorId: string, names: RowNames): string {
    return `Accepted a challenge from ${namedAt(names, this.challenge.challengerId, this.idOrdinal)}`;
  }
  relatedAgentIdFor(): string {
    return this.challenge.challengerId;
  }
  metadataFor(): Activity['metadata'] {
    const id = this.challenge.id;
    return { challenge_id: id, game_id: id };
  }
}

/**
 * game_started (GameStartedEntry) or game_ended (GameEndedEntry): one entry in both players' lists, each
 * reading it from its own side. White's row was made first, so its id has the entry's ordinal and Black's
 * the next. A subclass each, so that the type is its prototype's and not a field of every entry.
 */
export abstract class GameEntry implements EntrySource {
  abstract readonly type: 'game_started' | 'game_ended';
  readonly #idOrdinal: number;
  protected readonly game: Game;

  constructor(ids: OrdinalDraw, game: Game) {
    this.#idOrdinal = ids.nextOrdinal;
    ids.next();
    ids.next();
    this.game = game;
  }

  abstract get atMs(): number;
  abstract metadataFor(actorId: string): Activity['metadata'];
  protected abstract sentence(side: Side, other: string): string;

  idFor(actorId: string, ids: ReplayableIds): string {
    return ids.idsAt([this.#idOrdinal + (this.side(actorId) === 'white' ? 0 : 1)])[0]!;
  }

  save(): SavedEntry {
    return [this.type, this.#idOrdinal, this.game.id];
  }

  contentFor(actorId: string, names: RowNames): string {
    // Both rows were made at once: White's ordinal dates the handles of both.
    return this.sentence(
      this.side(actorId),
      namedAt(names, this.relatedAgentIdFor(actorId), this.#idOrdinal),
    );
  }

  relatedPostIdFor(): null {
    return null;
  }

  relatedAgentIdFor(actorId: string): string {
    return this.side(actorId) === 'white' ? this.game.blackId : this.game.whiteId;
  }

  // A plain method, not a #method: a class with #methods gives every instance a brand field (8 bytes each).
  protected side(actorId: string): Side {
    return actorId === this.game.whiteId ? 'white' : 'black';
  }
}

export class GameStartedEntry extends GameEntry {
  get type(): 'game_started' {
    return 'game_started';
  }
  get atMs(): number {
    return this.game.startedAtMs!;
  }
  protected sentence(side: Side, other: string): string {
    return `Started a game against ${other} as ${side}`;
  }
  metadataFor(actorId: string): Activity['metadata'] {
    return { game_id: this.game.id, color: this.side(actorId) };
  }
}

export class GameEndedEntry extends GameEntry {
  get type(): 'game_ended' {
    return 'game_ended';
  }
  get atMs(): number {
    return this.game.end!.endedAtMs;
  }
  protected sentence(side: Side, other: string): string {
    const end = this.game.end!;
    return `${OUTCOME_VERBS[outcomeOf(end.result, side)]} ${other} (${end.reason.replace(/_/g, ' ')})`;
  }
  metadataFor(actorId: string): Activity['metadata'] {
    const side = this.side(actorId);
    const end = this.game.end!;
    return {
      game_id: this.game.id,
      color: side,
      result: outcomeOf(end.result, side),
      reason: end.reason,
      elo_change: side === 'white' ? end.whiteDelta : end.blackDelta,
    };
  }
}

function outcomeOf(result: GameEnd['result'], side: Side): 'win' | 'loss' | 'draw' {
  if (result === '1/2-1/2') return 'draw';
  return (result === '1-0') === (side === 'white') ? 'win' : 'loss';
}

const OUTCOME_VERBS = { win: 'Won against', loss: 'Lost to', draw: 'Drew with' } as const;
