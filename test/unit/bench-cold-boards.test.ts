import { describe, expect, it } from 'vitest';
import { jobsFor, playCold, playWarm, scriptedGames } from '../../bench/cold-boards.js';

/**
 * The cold-boards bench compares two arms that must do the same work, or its ratio compares different
 * positions: the same moves from the same positions, only in another order and with the caches swept.
 * Nothing here depends on speed.
 */
describe('the cold-boards bench', () => {
  const scripts = scriptedGames(4, 40, 'cold-check');
  const jobs = jobsFor(scripts, 40, 4);

  it('plays the same moves, SAN and all, in both arms', () => {
    const warm = playWarm(jobs, 4);
    const cold = playCold(jobs, 4, 1024 * 1024, 'cold-check');
    expect(cold.moves).toBe(160);
    expect(warm.moves).toBe(160);
    expect(cold.sanDigest).toBe(warm.sanDigest);
  });

  it('tells different work apart: boards set up to other plies give another digest', () => {
    const other = jobsFor(scripts, 40, 5);
    expect(playWarm(other, 4).sanDigest).not.toBe(playWarm(jobs, 4).sanDigest);
  });

  it('takes every board from a different ply of its game, never past its end', () => {
    const plies = new Set(jobs.map((job) => job.startPly));
    expect(plies.size).toBeGreaterThan(4);
    for (const job of jobs) expect(job.startPly + 4).toBeLessThanOrEqual(job.script.length);
  });
});
