import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Game } from '../../src/platform/state.js';
import { MovetextsAhead, type MovetextSource } from '../../src/report/movetexts-ahead.js';
import { deadlineComment } from '../../src/report/pgn-movetext.js';
import { gamesToPgn } from '../../src/report/pgn.js';
import { parseScenario } from '../../src/sim/scenario/scenario.js';
import { packageRoot } from '../../src/sweep/version.js';
import { World } from '../../src/sim/world.js';

/** Random players and a slow one for three virtual hours: games that end by mate, draw and timeout, and live ones. */
const SCENARIO = `name: movetexts-ahead
seed: 5
start: 2026-01-01T00:00:00Z
duration: 3h
population:
  - persona: random
    count: 8
    heartbeat: { min: 20s, max: 40s }
  - persona: slow
    count: 2
    heartbeat: { min: 20s, max: 40s }
    options: { lateChance: 0.05 }
`;

/** The thread as the build makes it (dist/, which the pretest build writes). */
const THREAD = join(packageRoot(), 'dist/src/report/movetext-thread.cjs');

/** A source that counts the movetexts it gave, to tell that the report took the thread's. */
function counting(source: MovetextSource): MovetextSource & { given: number } {
  const counted = {
    given: 0,
    sendUnfinished: (games: Iterable<Game>) => source.sendUnfinished(games),
    movetextOf: (...args: Parameters<MovetextSource['movetextOf']>) => {
      const text = source.movetextOf(...args);
      if (text !== undefined) counted.given++;
      return text;
    },
  };
  return counted;
}

describe("games.pgn's movetexts written on a second thread", () => {
  it('gives games.pgn the bytes the report writes alone, the finished games in full batches from the thread', async () => {
    const world = new World(parseScenario(SCENARIO, 'movetexts-ahead.yaml'));
    const comment = deadlineComment(world.platform.ruleset.game.turnLimitMs);
    const ahead = MovetextsAhead.start(world.platform, comment, { file: THREAD, batchGames: 4 })!;
    try {
      const outcome = await world.run();
      const finished = [...outcome.platform.state.games.values()].filter((g) => g.end !== null).length;
      expect(finished).toBeGreaterThan(5);
      const source = counting(ahead);
      const withThread = gamesToPgn(outcome.platform, 'ahead', {}, source);
      // Every game of a full batch; the last few, in a batch the world's end left short, the report writes.
      expect(source.given).toBe(finished - (finished % 4));
      expect(withThread).toBe(gamesToPgn(outcome.platform, 'ahead'));
    } finally {
      ahead.close();
    }
  });

  it('writes the games still being played too, once the report hands them over', async () => {
    const world = new World(parseScenario(SCENARIO, 'movetexts-ahead.yaml'));
    const comment = deadlineComment(world.platform.ruleset.game.turnLimitMs);
    const ahead = MovetextsAhead.start(world.platform, comment, { file: THREAD, batchGames: 4 })!;
    try {
      const outcome = await world.run();
      const listed = [...outcome.platform.state.games.values()].filter((g) => g.status !== 'cancelled');
      expect(listed.filter((g) => g.end === null).length).toBeGreaterThan(0);
      const source = counting(ahead);
      source.sendUnfinished(outcome.platform.state.games.values());
      const withThread = gamesToPgn(outcome.platform, 'ahead', {}, source);
      expect(source.given).toBe(listed.length);
      expect(withThread).toBe(gamesToPgn(outcome.platform, 'ahead'));
    } finally {
      ahead.close();
    }
  });

  it('gives nothing for a game whose result is not the one the thread wrote', async () => {
    const world = new World(parseScenario(SCENARIO, 'movetexts-ahead.yaml'));
    const ahead = MovetextsAhead.start(world.platform, 'comment', { file: THREAD, batchGames: 1 })!;
    try {
      const outcome = await world.run();
      const game = [...outcome.platform.state.games.values()].find((g) => g.end !== null)!;
      expect(ahead.movetextOf(game, game.end!.result)).toMatch(/^comment 1\. /);
      expect(ahead.movetextOf(game, '*')).toBeUndefined();
    } finally {
      ahead.close();
    }
  });

  it('writes every movetext itself, the same bytes, when the thread dies', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acs-movetexts-'));
    const dying = join(dir, 'dying.cjs');
    writeFileSync(dying, "require('node:worker_threads').parentPort.on('message', () => process.exit(3));\n");
    const world = new World(parseScenario(SCENARIO, 'movetexts-ahead.yaml'));
    const ahead = MovetextsAhead.start(world.platform, 'c', { file: dying, waitMs: 200, batchGames: 1 })!;
    try {
      const outcome = await world.run();
      const source = counting(ahead);
      expect(gamesToPgn(outcome.platform, 'ahead', {}, source)).toBe(gamesToPgn(outcome.platform, 'ahead'));
      expect(source.given).toBe(0);
    } finally {
      ahead.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('starts no thread where none is built (the modules run from source)', () => {
    const world = new World(parseScenario(SCENARIO, 'movetexts-ahead.yaml'));
    expect(MovetextsAhead.start(world.platform, 'comment')).toBeUndefined();
  });
});
