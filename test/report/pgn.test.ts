import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gamesToPgn } from '../../src/report/pgn.js';
import {
  FIXED_NETWORK,
  FOOLS_MATE,
  newWorld,
  START_MS,
  type TestAgent,
  type TestWorld,
} from '../helpers/world.js';

/**
 * A platform with a tournament in its first round (one game finished by Fool's mate, three unfinished),
 * a finished casual game and an unfinished one, ten minutes after the start.
 */
async function platformWithGames(): Promise<{ world: TestWorld; pgn: string }> {
  const world = newWorld({ rules: { tournaments: { creatorMinGames: 0 } }, network: FIXED_NETWORK });
  const creator = await world.agent('creator');
  const entrants = await world.agents(8);
  const cup = (await creator.client.createTournament({ name: 'Spring "Open" Cup', max_participants: 8 }))
    .tournament.id;
  for (const agent of entrants) await agent.client.joinTournament(cup);
  world.advanceBy(5 * 60_000);
  const first = (await world.client().tournament(cup)).tournament.rounds[0]!.matches[0]!;
  const firstGame = await world.client().game(first.game_id!);
  const byHandle = new Map(entrants.map((a) => [a.handle, a]));
  await world.play(
    first.game_id!,
    byHandle.get(firstGame.white_player.handle)!,
    byHandle.get(firstGame.black_player.handle)!,
    [...FOOLS_MATE],
  );
  world.advanceBy(60_000);
  const [a, b] = [creator, await world.agent('casual')] as [TestAgent, TestAgent];
  await world.play(await world.game(a, b), a, b, ['e4', 'e5', 'Qh5', 'Nc6', 'Bc4', 'Nf6', 'Qxf7#']);
  await world.play(await world.game(b, a), b, a, ['d4']);
  return { world, pgn: gamesToPgn(world.platform, 'agent-chess-sim: pgn-test') };
}

function tagsOf(game: string): Record<string, string> {
  return Object.fromEntries(
    [...game.matchAll(/^\[(\w+) "((?:[^"\\]|\\.)*)"\]$/gm)].map((m) => [m[1], m[2]!.replace(/\\(.)/g, '$1')]),
  );
}

function games(pgn: string): string[] {
  return pgn.split(/\n(?=\[Event )/);
}

describe('games.pgn', () => {
  it('tags a tournament game with the tournament and its round, a casual game with Round "-", and an unfinished game with *', async () => {
    const { pgn } = await platformWithGames();
    const all = games(pgn).map((text) => ({ text, tags: tagsOf(text) }));
    expect(all).toHaveLength(6); // 4 first-round cup games, 2 casual games
    const cup = all.filter((g) => g.tags['Event'] === 'Spring "Open" Cup');
    expect(cup.map((g) => g.tags['Round'])).toEqual(['1', '1', '1', '1']);
    expect(cup.map((g) => g.tags['Result'])).toEqual(['0-1', '*', '*', '*']);
    const [mated, unfinished] = [cup[0]!, cup[1]!];
    expect(mated.tags).toMatchObject({
      Termination: 'normal',
      EndReason: 'checkmate',
      WhiteElo: '1200',
      BlackElo: '1200',
    });
    expect(mated.text.trimEnd().endsWith('2. g4 Qh4# 0-1')).toBe(true);
    expect(unfinished.tags).toMatchObject({ Termination: 'unterminated', TimeControl: '-' });
    expect(unfinished.tags['EndReason']).toBeUndefined();
    expect(unfinished.tags['WhiteElo']).toBeUndefined();
    expect(unfinished.text.trimEnd().endsWith('}\n*') || unfinished.text.trimEnd().endsWith('} *')).toBe(
      true,
    );

    const casual = all.filter((g) => g.tags['Event'] === 'agent-chess-sim: pgn-test');
    expect(casual.map((g) => [g.tags['Round'], g.tags['Result']])).toEqual([
      ['-', '1-0'],
      ['-', '*'],
    ]);
    // Virtual start times: the cup started 5 minutes in, the casual games 6 minutes in.
    const start = new Date(START_MS + 5 * 60_000).toISOString();
    expect(mated.tags).toMatchObject({
      Date: start.slice(0, 10).replace(/-/g, '.'),
      UTCDate: start.slice(0, 10).replace(/-/g, '.'),
      UTCTime: start.slice(11, 19),
    });
    expect(casual[0]!.tags['UTCTime']).toBe(new Date(START_MS + 6 * 60_000).toISOString().slice(11, 19));
    for (const g of all) {
      expect(Object.keys(g.tags).slice(0, 7)).toEqual([
        'Event',
        'Site',
        'Date',
        'Round',
        'White',
        'Black',
        'Result',
      ]);
      expect(g.text).toContain('{move deadline 300 s per move, no game clock}');
      for (const line of g.text.split('\n')) expect(line.length).toBeLessThan(80);
    }
  });

  it('passes pgn-extract: every game parses, every move is legal, every result agrees with its tag', async (context) => {
    const binary = findPgnExtract();
    if (!binary) {
      const message =
        'pgn-extract is not installed (apt-get install pgn-extract): the PGN is not checked by an outside parser';
      if (process.env['CI'] === 'true') throw new Error(`${message}; CI must install it (.ci/run does)`);
      console.warn(`skipped: ${message}`);
      context.skip();
      return;
    }
    const { pgn } = await platformWithGames();
    const dir = mkdtempSync(join(tmpdir(), 'acs-pgn-'));
    const input = join(dir, 'games.pgn');
    const output = join(dir, 'checked.pgn');
    writeFileSync(input, pgn);
    const result = spawnSync(binary, ['-s', '--nobadresults', '-o', output, input], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(0);
    const diagnostics = `${result.stdout}${result.stderr}`;
    expect(diagnostics).not.toMatch(/fail|illegal|inconsistent|error|unknown|missing|no .* move possible/i);
    const checked = readFileSync(output, 'utf8');
    expect(checked.match(/^\[Event /gm)).toHaveLength(games(pgn).length);
    expect(checked.match(/^\[Result "\*"\]$/gm)).toHaveLength(4);
  });
});

/** pgn-extract on PATH, or where Debian puts it (/usr/games is not always on PATH). */
function findPgnExtract(): string | undefined {
  const dirs = [...(process.env['PATH'] ?? '').split(delimiter).filter(Boolean), '/usr/games'];
  for (const dir of dirs) {
    const file = join(dir, 'pgn-extract');
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}
