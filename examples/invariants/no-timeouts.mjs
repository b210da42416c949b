// A user invariant: no game may end because a player ran out of time. The `slow` persona breaks it on
// purpose (it sometimes thinks past the turn deadline), so a run of scenarios/smoke.yaml with this file
// in its `invariants:` list fails, and `agent-chess-sim shrink` can cut that run down to a minimal one.
export default {
  name: 'no_timeouts',
  description: 'no game ends by timeout',
  create() {
    return {
      check(event, expect) {
        if (event.type !== 'game_ended') return;
        expect(
          event.reason !== 'timeout',
          `game ${event.gameId} ended by timeout after ${event.plies} plies`,
        );
      },
    };
  },
};
