import { CheckpointError, type Field } from '../../../kernel/checkpoint.js';
import {
  ACTIVITY_TYPES,
  type Activity,
  type ActivityEntry,
  type Challenge,
  type Game,
  type Post,
} from '../../state.js';
import {
  ChallengeAcceptedEntry,
  ChallengeCreatedEntry,
  FollowEntry,
  GameEndedEntry,
  GameStartedEntry,
  LikedEntry,
  PostedEntry,
  RepliedEntry,
  VotedEntry,
  WrittenEntry,
  type OrdinalDraw,
} from './activity-rows.js';

/** The records saved entries name, and how many activity ids the restored stream has drawn. */
export interface EntryLinks {
  readonly idsDrawn: number;
  challenge(id: string): Challenge | undefined;
  game(id: string): Game | undefined;
  post(id: string): Post | undefined;
}

/** A metadata key that would set an object's prototype rather than a field. */
const PROTO_KEY = '__proto__';

/**
 * Reads activity entries as `saveEntry` wrote them (src/platform/social/storage/activity-rows.ts), each made
 * again at its saved ordinal without drawing an id. A game event's one entry, shared by both players' lists
 * when made, is shared again here: the second list's mention of it reads the same object.
 */
export class EntryReader {
  readonly #links: EntryLinks;
  readonly #gameEntries = new Map<string, ActivityEntry>();

  constructor(links: EntryLinks) {
    this.#links = links;
  }

  read(field: Field): ActivityEntry {
    const cells = field.list((cell) => cell);
    const kind = at(field, cells, 0).str(32);
    switch (kind) {
      case 'challenge_created':
      case 'challenge_accepted':
        return this.#challengeEntry(field, cells, kind);
      case 'game_started':
      case 'game_ended':
        return this.#gameEntry(field, cells, kind);
      case 'written':
        return this.#written(field, cells);
      default:
        return this.#action(field, cells, kind);
    }
  }

  #ordinal(field: Field, cells: Field[], span = 1): OrdinalDraw {
    const ordinal = at(field, cells, 1).int(0, this.#links.idsDrawn - span);
    return { nextOrdinal: ordinal, next: () => undefined };
  }

  #challengeEntry(
    field: Field,
    cells: Field[],
    kind: 'challenge_created' | 'challenge_accepted',
  ): ActivityEntry {
    exactly(field, cells, 3);
    const draw = this.#ordinal(field, cells);
    const challenge = this.#links.challenge(at(field, cells, 2).str(64));
    if (challenge === undefined) return cells[2]!.fail('the id of a saved challenge');
    if (kind === 'challenge_created') return new ChallengeCreatedEntry(draw, challenge);
    if (challenge.acceptedAtMs === null) return cells[2]!.fail('the id of an accepted challenge');
    return new ChallengeAcceptedEntry(draw, challenge);
  }

  #gameEntry(field: Field, cells: Field[], kind: 'game_started' | 'game_ended'): ActivityEntry {
    exactly(field, cells, 3);
    const draw = this.#ordinal(field, cells, 2);
    const gameId = at(field, cells, 2).str(64);
    const key = `${kind}|${gameId}|${draw.nextOrdinal}`;
    const shared = this.#gameEntries.get(key);
    if (shared !== undefined) return shared;
    const game = this.#links.game(gameId);
    if (game === undefined) return cells[2]!.fail('the id of a saved game');
    if (kind === 'game_started' && game.startedAtMs === null)
      return cells[2]!.fail('the id of a started game');
    if (kind === 'game_ended' && game.end === null) return cells[2]!.fail('the id of an ended game');
    const entry = kind === 'game_started' ? new GameStartedEntry(draw, game) : new GameEndedEntry(draw, game);
    this.#gameEntries.set(key, entry);
    return entry;
  }

  #written(field: Field, cells: Field[]): ActivityEntry {
    exactly(field, cells, 8);
    const draw = this.#ordinal(field, cells);
    const atMs = at(field, cells, 2).nat();
    const type = at(field, cells, 3).oneOf(ACTIVITY_TYPES);
    const text = {
      content: at(field, cells, 4).str(),
      relatedPostId: at(field, cells, 5).nullOr((f) => f.str(64)),
      relatedAgentId: at(field, cells, 6).nullOr((f) => f.str(64)),
      metadata: readMetadata(at(field, cells, 7)),
    };
    return new WrittenEntry(type, draw, text, atMs);
  }

  /** A social action's entry: kind, ordinal, time, related post and actor, then what its kind keeps. */
  #action(field: Field, cells: Field[], kind: string): ActivityEntry {
    const draw = this.#ordinal(field, cells);
    const atMs = at(field, cells, 2).nat();
    const related = {
      postId: at(field, cells, 3).nullOr((f) => f.str(64)),
      agentId: at(field, cells, 4).nullOr((f) => f.str(64)),
    };
    const own = (index: number) => at(field, cells, 5 + index);
    switch (kind) {
      case 'post_created': {
        exactly(field, cells, 5);
        const post = related.postId === null ? undefined : this.#links.post(related.postId);
        if (post === undefined || related.agentId !== null)
          return cells[3]!.fail('the id of a saved post, then null');
        return new PostedEntry(draw, atMs, post);
      }
      case 'reply_created':
        exactly(field, cells, 7);
        return new RepliedEntry(draw, atMs, related, {
          replyId: own(0).str(64),
          parentReplyId: own(1).nullOr((f) => f.str(64)),
        });
      case 'liked':
        exactly(field, cells, 6);
        return new LikedEntry(
          draw,
          atMs,
          related,
          own(0).nullOr((f) => f.str(64)),
        );
      case 'followed':
      case 'unfollowed':
        exactly(field, cells, 6);
        return new FollowEntry(kind, draw, atMs, {
          id: target(cells, related),
          kind: own(0).oneOf(ACTOR_KINDS),
        });
      case 'profile_voted':
        exactly(field, cells, 7);
        return new VotedEntry(
          draw,
          atMs,
          { id: target(cells, related) },
          {
            vote: own(0).oneOf(VOTES),
            previous: own(1).nullOr((f) => f.oneOf(PREVIOUS_VOTES)),
          },
        );
      default:
        return cells[0]!.fail(`one of the activity entry kinds (${ENTRY_KINDS.join(', ')})`);
    }
  }
}

const ACTOR_KINDS = ['agent', 'human'] as const;
const VOTES = ['up', 'down', 'clear'] as const;
const PREVIOUS_VOTES = ['up', 'down'] as const;
const ENTRY_KINDS = [
  'written',
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
];

/** A follow or vote names its target actor and no post. */
function target(cells: Field[], related: { postId: string | null; agentId: string | null }): string {
  if (related.postId !== null || related.agentId === null)
    return cells[3]!.fail('null, then the target actor id');
  return related.agentId;
}

function at(field: Field, cells: Field[], index: number): Field {
  const cell = cells[index];
  if (cell === undefined) throw new CheckpointError(`${field.path}: must have an item ${index}`);
  return cell;
}

function exactly(field: Field, cells: Field[], count: number): void {
  if (cells.length !== count) field.fail(`a list of ${count} items`);
}

/** A row's metadata: a record of strings, finite numbers, flags and nulls. */
function readMetadata(field: Field): Activity['metadata'] {
  const metadata: Record<string, string | number | boolean | null> = {};
  for (const [key, value] of field.entries((k) => k !== PROTO_KEY && k.length <= 64)) {
    const v = value.value;
    metadata[key] =
      v === null || typeof v === 'boolean' ? v : typeof v === 'number' ? value.num() : value.str(4096);
  }
  return metadata;
}
