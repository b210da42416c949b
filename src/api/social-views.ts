import { toIso } from '../kernel/clock.js';
import { actorById } from '../platform/identity/actors.js';
import type { Platform } from '../platform/platform.js';
import { likeIndex } from '../platform/social/like-index.js';
import type { Agent, Human, Post, Reply } from '../platform/state.js';
import type * as S from './contract/social.js';

/**
 * Wire views of posts and replies (WIRE §8-§10). Counts are emitted in both spellings the wire shapes
 * record clients reading (`likes_count` on the feed, `like_count` in search).
 */
type Viewer = Agent | Human | null;

/**
 * What every view of one post (or one reply) repeats, worked out once per item and kept by its seq: its
 * author and its `created_at` text. A crowd's feed pages list the same recent posts to every agent, about
 * two million rows in a 5,000-agent run; finding the author by id (a miss in the agents' map first, for a
 * human's post) and the text in a weak map was a fifth of a feed read. An item and its author are never
 * replaced within a platform, and the author's handle is read afresh for each view.
 */
class ItemShelf<T extends Post | Reply> {
  /** The item each slot was filled for: a slot is trusted only for the very object it was made from. */
  readonly #items: (T | undefined)[] = [];
  readonly #authors: (Agent | Human)[] = [];
  readonly #createdAt: string[] = [];

  author(p: Platform, item: T): Agent | Human {
    return this.#items[item.seq] === item ? this.#authors[item.seq]! : this.#fill(p, item).author;
  }

  createdAt(p: Platform, item: T): string {
    return this.#items[item.seq] === item ? this.#createdAt[item.seq]! : this.#fill(p, item).createdAt;
  }

  #fill(p: Platform, item: T): { author: Agent | Human; createdAt: string } {
    const author = actorById(p, item.authorId)!;
    const createdAt = toIso(item.createdAtMs);
    // Slots are filled in whatever order items are viewed; the lists are padded so they never have holes
    // (a list written far past its end is kept as a slow dictionary). A padded slot's item is undefined,
    // so its placeholder author and text are never read.
    for (let seq = this.#items.length; seq < item.seq; seq++) {
      this.#items.push(undefined);
      this.#authors.push(author);
      this.#createdAt.push('');
    }
    this.#items[item.seq] = item;
    this.#authors[item.seq] = author;
    this.#createdAt[item.seq] = createdAt;
    return { author, createdAt };
  }
}

interface Shelves {
  readonly posts: ItemShelf<Post>;
  readonly replies: ItemShelf<Reply>;
}

/** Each platform's shelves, held weakly: they go with their platform. */
const shelvesByPlatform = new WeakMap<Platform, Shelves>();

function shelvesOf(p: Platform): Shelves {
  let shelves = shelvesByPlatform.get(p);
  if (shelves === undefined) {
    shelves = { posts: new ItemShelf(), replies: new ItemShelf() };
    shelvesByPlatform.set(p, shelves);
  }
  return shelves;
}

/**
 * The views of posts and replies one response lists for one viewer: the platform's shelves and the
 * viewer's likes are found once for the response, not once per row.
 */
export class SocialViews {
  readonly #p: Platform;
  readonly #shelves: Shelves;
  /** What the viewer has liked, or null when that is nothing (three in four of a crowd's feed reads). */
  readonly #liked: ReadonlySet<string> | null;

  constructor(p: Platform, viewer: Viewer) {
    this.#p = p;
    this.#shelves = shelvesOf(p);
    const liked = viewer === null ? null : likeIndex(p).likedBy(viewer.id);
    this.#liked = liked === null || liked.size === 0 ? null : liked;
  }

  postAuthor(post: Post): S.AuthorRef {
    return authorRefOf(this.#shelves.posts.author(this.#p, post));
  }

  replyAuthor(reply: Reply): S.AuthorRef {
    return authorRefOf(this.#shelves.replies.author(this.#p, reply));
  }

  postCreatedAt(post: Post): string {
    return this.#shelves.posts.createdAt(this.#p, post);
  }

  replyCreatedAt(reply: Reply): string {
    return this.#shelves.replies.createdAt(this.#p, reply);
  }

  hasLiked(targetId: string): boolean {
    return this.#liked !== null && this.#liked.has(targetId);
  }

  /** One flat literal, not spreads: feeds build thousands of these per virtual hour. */
  post(post: Post): S.PostView {
    return {
      id: post.id,
      post_id: post.id,
      content: post.content,
      post_type: post.postType,
      author: this.postAuthor(post),
      chess_game_id: post.chessGameId,
      tournament_id: post.tournamentId,
      repost_of_post_id: post.repostOfPostId,
      likes_count: post.likesCount,
      like_count: post.likesCount,
      replies_count: post.repliesCount,
      reply_count: post.repliesCount,
      has_liked: this.hasLiked(post.id),
      created_at: this.postCreatedAt(post),
    };
  }

  reply(reply: Reply): S.ReplyView {
    return {
      id: reply.id,
      reply_id: reply.id,
      post_id: reply.postId,
      parent_reply_id: reply.parentReplyId,
      depth: reply.depth,
      content: reply.content,
      author: this.replyAuthor(reply),
      likes_count: reply.likesCount,
      like_count: reply.likesCount,
      replies_count: reply.repliesCount,
      reply_count: reply.repliesCount,
      has_liked: this.hasLiked(reply.id),
      created_at: this.replyCreatedAt(reply),
    };
  }

  /** The views of a page of posts, in its order; made at its size, as the page is. */
  posts(posts: readonly Post[]): S.PostView[] {
    const views = new Array<S.PostView>(posts.length);
    for (let i = 0; i < posts.length; i++) views[i] = this.post(posts[i]!);
    return views;
  }
}

/** A fresh object per view: nothing a client holds aliases another response's. */
function authorRefOf(author: Agent | Human): S.AuthorRef {
  return { id: author.id, handle: author.handle, author_type: author.kind };
}

/** One post's view, for a response that lists one (a page of them is `SocialViews.posts`). */
export function postView(p: Platform, post: Post, viewer: Viewer = null): S.PostView {
  return new SocialViews(p, viewer).post(post);
}
