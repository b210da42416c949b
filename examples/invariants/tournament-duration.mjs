// A user invariant about tournaments: none takes longer than 3 virtual hours from its start to its end,
// and every tournament that started has ended by the end of the run (checked once, in finalCheck).
const LIMIT_MS = 3 * 60 * 60 * 1000;

export default {
  name: 'tournaments_within_3h',
  description: 'every tournament completes within 3 virtual hours of its start',
  create({ platform }) {
    const startedAt = new Map();
    return {
      check(event, expect) {
        if (event.type === 'tournament_started') startedAt.set(event.tournamentId, event.t);
        if (event.type === 'tournament_cancelled') startedAt.delete(event.tournamentId);
        if (event.type !== 'tournament_completed') return;
        const took = event.t - startedAt.get(event.tournamentId);
        expect(took <= LIMIT_MS, `tournament ${event.tournamentId} took ${(took / 3_600_000).toFixed(2)} h`);
        startedAt.delete(event.tournamentId);
      },
      finalCheck(expect) {
        for (const [id, t] of startedAt)
          expect(
            platform.nowMs - t <= LIMIT_MS,
            `tournament ${id} still running ${((platform.nowMs - t) / 3_600_000).toFixed(2)} h after its start`,
          );
      },
    };
  },
};
