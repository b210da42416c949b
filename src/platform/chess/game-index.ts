import { derivedIndex, followingIndex } from '../derived-index.js';
import type { PlatformEvent } from '../events.js';
import type { Platform } from '../platform.js';
import { SortedList } from '../sorted-list.js';
import type { Game, GameStatus } from '../state.js';

/**
 * Every game, and the games of each status, in creation order, so the all-players game list reads its page
 * instead of copying and sorting every game. A game's status changes are noted from the event log (created,
 * started, ended, cancelled) and the game moves to its new status list on the next read, whatever the order
 * of a change and its event.
 */
export class GameIndex {
  readonly #p: Platform;
  readonly #all = new SortedList<Game>(bySeq);
  readonly #byStatus = new Map<GameStatus, SortedList<Game>>();
  /** The status each game is indexed under. */
  readonly #indexedStatus = new Map<string, GameStatus>();
  readonly #changed = new Set<string>();

  constructor(p: Platform) {
    this.#p = p;
    for (const game of p.state.games.values()) this.#reindex(game);
  }

  /** The number of games, of one status or (undefined) of any. */
  count(status: GameStatus | undefined): number {
    return this.#list(status).length;
  }

  /** Games at positions `start` (inclusive) to `end` (exclusive), newest first, of one status or of any. */
  slice(status: GameStatus | undefined, start: number, end: number): Game[] {
    const list = this.#list(status);
    const games: Game[] = [];
    for (let position = start; position < Math.min(end, list.length); position++)
      games.push(list.at(list.length - 1 - position));
    return games;
  }

  #list(status: GameStatus | undefined): SortedList<Game> {
    this.#catchUp();
    return status === undefined ? this.#all : this.#statusList(status);
  }

  #statusList(status: GameStatus): SortedList<Game> {
    let list = this.#byStatus.get(status);
    if (list === undefined) {
      list = new SortedList<Game>(bySeq);
      this.#byStatus.set(status, list);
    }
    return list;
  }

  /** One event of the log, handed on by the platform's listener (see derived-index.ts). */
  follow(event: PlatformEvent): void {
    if (
      event.type === 'game_created' ||
      event.type === 'game_started' ||
      event.type === 'game_ended' ||
      event.type === 'game_cancelled'
    ) {
      this.#changed.add(event.gameId);
    }
  }

  #catchUp(): void {
    if (this.#changed.size === 0) return;
    for (const id of this.#changed) this.#reindex(this.#p.state.games.get(id)!);
    this.#changed.clear();
  }

  #reindex(game: Game): void {
    const indexed = this.#indexedStatus.get(game.id);
    if (indexed === game.status) return;
    if (indexed === undefined) this.#all.insert(game);
    else this.#statusList(indexed).remove(game);
    this.#statusList(game.status).insert(game);
    this.#indexedStatus.set(game.id, game.status);
  }
}

/** A game's seq never changes, so games themselves are the list's items. */
function bySeq(a: Game, b: Game): number {
  return a.seq - b.seq;
}

/** The kind createPlatform registers: built from the state on its first read, then following the event log. */
export const GAME_INDEX = followingIndex('games', GameIndex);

export function gameIndex(p: Platform): GameIndex {
  return derivedIndex(p, GAME_INDEX);
}

/** One page of every player's games, newest first, of one status or of any, and their number. */
export function allGamesPage(
  p: Platform,
  status: GameStatus | undefined,
  limit: number,
  offset: number,
): { games: Game[]; total: number } {
  const index = gameIndex(p);
  return { games: index.slice(status, offset, offset + limit), total: index.count(status) };
}
