import type { Platform } from '../platform.js';
import type { Game } from '../state.js';

/**
 * Each agent's live games (pending or active) as the game objects, in the order of the agent's set of ids in
 * `p.state.liveGamesByAgent`, which stays the record (saved and fingerprinted); these lists are beside the
 * state and never saved. Every agent's my-turn poll walks its live games, and finding each by its id was two
 * lookups in tables of thousands (the agent's set, then the game), each a likely cache miss in a crowd,
 * whose agents are seldom asked about twice in a row. An agent's list is made from its set when first read;
 * from then on `addLiveGame` and `dropLiveGame` change the set and the list together, and nothing else
 * changes the sets.
 */
const listsByPlatform = new WeakMap<Platform, Map<string, Game[]>>();

function listsOf(p: Platform): Map<string, Game[]> {
  let lists = listsByPlatform.get(p);
  if (lists === undefined) {
    lists = new Map();
    listsByPlatform.set(p, lists);
  }
  return lists;
}

/**
 * The games an agent is playing (pending or active), in the order they began: the list itself, to be read
 * before the next game starts or ends, not kept or changed.
 */
export function liveGamesOf(p: Platform, agentId: string): readonly Game[] {
  const lists = listsOf(p);
  let list = lists.get(agentId);
  if (list === undefined) {
    list = [...p.state.liveGamesByAgent.get(agentId)!].map((id) => p.state.games.get(id)!);
    lists.set(agentId, list);
  }
  return list;
}

/** `game` joins the agent's live games. */
export function addLiveGame(p: Platform, agentId: string, game: Game): void {
  p.state.liveGamesByAgent.get(agentId)!.add(game.id);
  listsOf(p).get(agentId)?.push(game);
}

/** `game` leaves the agent's live games. */
export function dropLiveGame(p: Platform, agentId: string, game: Game): void {
  p.state.liveGamesByAgent.get(agentId)!.delete(game.id);
  const list = listsOf(p).get(agentId);
  if (list === undefined) return;
  const at = list.indexOf(game);
  if (at >= 0) list.splice(at, 1);
}
