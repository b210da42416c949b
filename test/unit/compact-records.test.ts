import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BitReader, BitWriter, RiceSeries } from '../../src/kernel/bits.js';
import { toIso } from '../../src/kernel/clock.js';
import { uuidV4 } from '../../src/kernel/ids.js';
import { ReplayableIds } from '../../src/kernel/replayable-ids.js';
import { Rng } from '../../src/kernel/rng.js';
import { legalMoves, newBoard, toWireUci } from '../../src/rules/chess/chess.js';
import { moveSans } from '../../src/platform/chess/games.js';
import { ChallengeRecord, challengeSnapshot } from '../../src/platform/chess/storage/challenge-record.js';
import { expectApiError, newWorld, type TestAgent, type TestWorld } from '../helpers/world.js';

/**
 * Finished games and activity rows are kept packed (src/platform/chess/storage/game-record.ts, move-log.ts,
 * src/platform/social/storage/activity-rows.ts) and read back through the same routes: what a client reads after a game ended must be
 * exactly what it was told while the game was played.
 */

/** uuidV4 as it was first written (hex text sliced around the dashes): the oracle for the flat builder. */
function slicedUuid(rng: Rng): string {
  let hex = '';
  for (let i = 0; i < 4; i++) hex += rng.int(0, 0xffffffff).toString(16).padStart(8, '0');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

describe('kernel pieces of the compact records', () => {
  it('uuidV4 draws the same ids as the sliced-hex definition', () => {
    const ours = new Rng('uuid-oracle');
    const theirs = new Rng('uuid-oracle');
    for (let i = 0; i < 2000; i++) expect(uuidV4(ours)).toBe(slicedUuid(theirs));
  });

  it('toIso writes what Date writes, across days, years and the edges it hands back to Date', () => {
    const edges = [
      0,
      1,
      999,
      86_399_999,
      86_400_000,
      Date.UTC(2026, 0, 1),
      Date.UTC(2024, 1, 29, 23, 59, 59, 999),
      253_402_300_799_999,
      253_402_300_800_000,
    ];
    for (const ms of edges) expect(toIso(ms)).toBe(new Date(ms).toISOString());
    fc.assert(
      fc.property(fc.integer({ min: -62_000_000_000_000, max: 300_000_000_000_000 }), (ms) => {
        expect(toIso(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 2000 },
    );
  });

  it('a bit stream reads back the widths and naturals written, in order', () => {
    const natural = fc.oneof(fc.nat(70), fc.nat(), fc.maxSafeNat());
    const field = fc.oneof(
      fc.record({
        kind: fc.constant('bits' as const),
        width: fc.integer({ min: 0, max: 30 }),
        value: fc.nat(),
      }),
      fc.record({ kind: fc.constant('natural' as const), value: natural }),
      fc.record({ kind: fc.constant('rice' as const), value: natural, k: fc.integer({ min: 0, max: 52 }) }),
    );
    fc.assert(
      fc.property(fc.array(field, { maxLength: 60 }), (fields) => {
        const writer = new BitWriter();
        for (const f of fields) {
          if (f.kind === 'bits') writer.write(f.value % 2 ** f.width, f.width);
          else if (f.kind === 'natural') writer.writeNatural(f.value);
          else writer.writeRice(f.value, f.k);
        }
        const reader = new BitReader(writer.text());
        for (const f of fields) {
          if (f.kind === 'bits') expect(reader.read(f.width)).toBe(f.value % 2 ** f.width);
          else if (f.kind === 'natural') expect(reader.readNatural()).toBe(f.value);
          else expect(reader.readRice(f.k)).toBe(f.value);
        }
      }),
    );
  });

  it('a Rice series reads back any naturals written, in order, between other fields', () => {
    const natural = fc.oneof(fc.nat(70), fc.nat(200_000), fc.maxSafeNat());
    fc.assert(
      fc.property(fc.array(fc.tuple(natural, fc.nat(255)), { maxLength: 80 }), (pairs) => {
        const writer = new BitWriter();
        const written = new RiceSeries();
        for (const [value, byte] of pairs) {
          written.write(writer, value);
          writer.write(byte, 8);
        }
        const reader = new BitReader(writer.text());
        const read = new RiceSeries();
        for (const [value, byte] of pairs) {
          expect(read.read(reader)).toBe(value);
          expect(reader.read(8)).toBe(byte);
        }
      }),
    );
  });

  it('a bit stream refuses to read past its last byte, and reads up to it', () => {
    const writer = new BitWriter();
    writer.write(0, 12); // two bytes: twelve 0s, then four unwritten 0s
    expect(new BitReader(writer.text()).read(16)).toBe(0);
    expect(() => new BitReader(writer.text()).read(17)).toThrow('read past the end');
    const zeros = new BitReader(writer.text());
    zeros.read(9);
    expect(() => zeros.readRice(3)).toThrow('read past the end'); // seven 0s left, no 1 to end the quotient
    const escaped = new BitReader(writer.text());
    escaped.read(3);
    expect(() => escaped.readRice(3)).toThrow(); // eight 0s: an escape, then a natural that is not there
  });

  it('a Rice series following its mean codes alternating paces in about 17 bits a value', () => {
    // One player moving at once, the other after up to 2 minutes: a parameter taken from the last value alone
    // (as move logs did before) coded each value around the other's size, about 24 bits a value.
    const rng = new Rng('alternating-paces');
    const values = Array.from({ length: 2000 }, (_, i) => (i % 2 === 0 ? 0 : rng.int(1, 120_000)));
    const writer = new BitWriter();
    const series = new RiceSeries();
    for (const value of values) series.write(writer, value);
    expect((writer.text().length * 8) / values.length).toBeLessThan(18);
  });

  it('small naturals are short: 0 in 1 bit, under 2^6 in at most 10', () => {
    const sizeOf = (value: number) => {
      const writer = new BitWriter();
      for (let i = 0; i < 8; i++) writer.writeNatural(value);
      return writer.text().length; // bytes for eight of them
    };
    expect(sizeOf(0)).toBe(1);
    expect(sizeOf(63)).toBeLessThanOrEqual(10);
  });

  it('replayable ids are the ids the plain stream draws, for any ascending choice of ordinals', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 70 }),
        fc.integer({ min: 1, max: 600 }),
        fc.array(fc.nat(599), { maxLength: 40 }),
        (spacing, drawn, picks) => {
          const replayable = new ReplayableIds(new Rng('ids').fork('replay'), spacing);
          const plain = new Rng('ids').fork('replay');
          const expected = Array.from({ length: drawn }, () => uuidV4(plain));
          for (let i = 0; i < drawn; i++) expect(replayable.next()).toBe(expected[i]);
          const ordinals = [...new Set(picks.map((n) => n % drawn))].sort((a, b) => a - b);
          expect(replayable.idsAt(ordinals)).toEqual(ordinals.map((n) => expected[n]));
        },
      ),
      { numRuns: 60 },
    );
  });
});

type MoveAnswer = Awaited<ReturnType<TestAgent['client']['move']>>['move'];

/** Plays a random game to its end at random paces, keeping every move answer; returns them. */
async function randomGame(
  world: TestWorld,
  white: TestAgent,
  black: TestAgent,
  gameId: string,
  rng: Rng,
): Promise<MoveAnswer[]> {
  const board = newBoard();
  const answers: MoveAnswer[] = [];
  for (let ply = 0; ; ply++) {
    world.advanceBy(rng.chance(0.3) ? 0 : rng.int(1, 200_000));
    const move = rng.pick(legalMoves(board));
    const uci = toWireUci(board, move);
    board.pos.play(move);
    const answer = await (ply % 2 === 0 ? white : black).client.move({ game_id: gameId, move_uci: uci });
    answers.push(answer.move);
    if (answer.game_status === 'completed') return answers;
  }
}

describe('finished games and their activity, packed', () => {
  it('a live game reads back its earlier moves exactly as they were answered', async () => {
    const world = newWorld({ seed: 'packed-live' });
    const [a, b] = await world.agents(2);
    const gameId = await world.game(a!, b!);
    const rng = new Rng('packed-live');
    const board = newBoard();
    const answers: MoveAnswer[] = [];
    for (let ply = 0; ply < 60; ply++) {
      world.advanceBy(rng.int(0, 90_000));
      const move = rng.pick(legalMoves(board));
      const uci = toWireUci(board, move);
      board.pos.play(move);
      const answer = await (ply % 2 === 0 ? a! : b!).client.move({ game_id: gameId, move_uci: uci });
      if (answer.game_status !== 'active') return;
      answers.push(answer.move);
      if (ply % 7 === 3) expect((await a!.client.game(gameId)).moves).toEqual(answers);
    }
  });

  it('a finished game reads back every move exactly as it was answered while played', async () => {
    const world = newWorld({ seed: 'packed-games' });
    const [a, b] = await world.agents(2);
    const rng = new Rng('packed-games').fork('moves');
    for (let game = 0; game < 6; game++) {
      const [white, black] = game % 2 === 0 ? [a!, b!] : [b!, a!];
      const gameId = await world.game(white, black);
      const answers = await randomGame(world, white, black, gameId, rng);
      const detail = await a!.client.game(gameId);
      expect(detail.status).toBe('completed');
      expect(detail.move_count).toBe(answers.length);
      expect(detail.moves).toEqual(answers);
      expect(detail.current_fen).toBe(answers.at(-1)!.fen_after);
      expect(moveSans(world.platform.state.games.get(gameId)!)).toEqual(answers.map((m) => m.move_san));
    }
  });

  it('an accepted challenge reads as it did when accepted, once its game answers for it, and cannot change', async () => {
    const world = newWorld({ seed: 'packed-challenges' });
    const [a, b] = await world.agents(2, { sol: 5 });
    const plain = await a!.client.createChallenge({ opponent_handle: b!.handle });
    const staked = await b!.client.createChallenge({ bounty_sol: 0.5 });
    world.advanceBy(30_000);
    const asAccepted = (id: string) => challengeSnapshot(world.platform.state.challenges.get(id)!);
    const before = [plain, staked].map((c): Record<string, unknown> => ({
      ...asAccepted(c.challenge.challenge_id),
      status: 'accepted',
      expiryTimer: null,
    }));
    await b!.client.acceptChallenge(plain.challenge.challenge_id);
    await a!.client.acceptChallenge(staked.challenge.challenge_id);
    const acceptedAtMs = world.platform.nowMs;
    expect(asAccepted(plain.challenge.challenge_id)).toEqual({
      ...before[0],
      acceptedById: b!.id,
      acceptedAtMs,
    });
    expect(asAccepted(staked.challenge.challenge_id)).toEqual({
      ...before[1],
      acceptedById: a!.id,
      acceptedAtMs,
    });
    expect(before[1]!['bountyLamports']).toBe(500_000_000);
    expect(before[1]!['escrowAddress']).toEqual(expect.any(String));
    // Both settled into their games (the bounty game pending its deposits too): an accepted one cannot change.
    for (const c of [plain, staked]) {
      const record = world.platform.state.challenges.get(c.challenge.challenge_id)!;
      expect(record).toBeInstanceOf(ChallengeRecord);
      expect(() => {
        record.status = 'expired';
      }).toThrow(/accepted, nothing about it can change/);
    }
    await expectApiError(a!.client.acceptChallenge(plain.challenge.challenge_id), 'challenge_not_open');
    world.advanceBy(3_600_000);
    expect(asAccepted(plain.challenge.challenge_id)).toEqual({
      ...before[0],
      acceptedById: b!.id,
      acceptedAtMs,
    });
  });

  it('game activity rows keep their text, metadata, time and id after the game, and the handles of the time', async () => {
    const world = newWorld({ seed: 'packed-activity' });
    const [a, b] = await world.agents(2);
    const gameId = await world.game(a!, b!);
    const whileStarted = await a!.client.activity({ limit: 50 });
    await randomGame(world, a!, b!, gameId, new Rng('packed-activity'));
    const ended = await a!.client.activity({ limit: 50 });
    // The rows of the challenge and the start read the same once the game is over.
    expect(ended.activities.slice(1)).toEqual(whileStarted.activities);
    const end = ended.activities[0]!;
    expect(end.type).toBe('game_ended');
    expect(end.content).toMatch(/^(Won against|Lost to|Drew with) @player2 \(/);
    expect(end.metadata).toMatchObject({ game_id: gameId, color: 'white' });
    await b!.client.updateProfile({ handle: 'renamed2' });
    const later = await a!.client.activity({ limit: 50 });
    expect(later.activities).toEqual(ended.activities);
    expect(new Set(later.activities.map((row) => row.id)).size).toBe(later.activities.length);
  });

  it('social action rows write their text and metadata when read, naming actors by their handles of the time', async () => {
    const world = newWorld({ seed: 'packed-social-activity' });
    const [a, b] = await world.agents(2);
    world.advanceBy(60_000); // past the cooldown of the posts that ended their research phase
    const post = await a!.client.post('a first post from player one');
    world.advanceBy(60_000);
    const reply = await b!.client.reply({ post_id: post.post_id, content: 'an answer' });
    await b!.client.like({ post_id: post.post_id });
    await a!.client.like({ reply_id: reply.reply_id });
    await b!.client.follow({ target_handle: a!.handle });
    await b!.client.unfollow({ target_handle: a!.handle });
    await b!.client.vote({ target_handle: a!.handle, vote: 'down' });
    const rows = async (who: TestAgent) =>
      (await who.client.activity({ limit: 50 })).activities.map((row) => [
        row.type,
        row.content,
        row.related_post_id,
        row.related_agent_id,
        row.metadata,
      ]);
    const before = await rows(b!);
    expect(before).toEqual([
      ['profile_voted', 'Downvoted the profile of @player1', null, a!.id, { vote: 'down', previous: null }],
      ['profile_voted', 'Cleared a profile vote on @player1', null, a!.id, { vote: 'clear', previous: 'up' }],
      ['unfollowed', 'Unfollowed @player1', null, a!.id, { target_type: 'agent' }],
      ['profile_voted', 'Upvoted the profile of @player1', null, a!.id, { vote: 'up', previous: null }],
      ['followed', 'Followed @player1', null, a!.id, { target_type: 'agent' }],
      ['liked', 'Liked a post by @player1', post.post_id, a!.id, { target_type: 'post', reply_id: null }],
      [
        'reply_created',
        'Replied to @player1',
        post.post_id,
        a!.id,
        { reply_id: reply.reply_id, parent_reply_id: null },
      ],
      ['post_created', 'Posted: hello from player2', expect.any(String), null, { post_type: 'standard' }],
    ]);
    const liked = (await rows(a!))[0];
    expect(liked).toEqual([
      'liked',
      'Liked a reply by @player2',
      post.post_id,
      b!.id,
      { target_type: 'reply', reply_id: reply.reply_id },
    ]);
    await a!.client.updateProfile({ handle: 'renamed1' });
    expect(await rows(b!)).toEqual(before);
  });

  it('rows name actors by the handle they had when each row was made, across renames', async () => {
    const world = newWorld({ seed: 'packed-renames' });
    const [a, b] = await world.agents(2);
    world.advanceBy(60_000);
    const challenge = await a!.client.createChallenge({ opponent_handle: b!.handle });
    await b!.client.updateProfile({ handle: 'second2' });
    await b!.client.acceptChallenge(challenge.challenge.challenge_id);
    await a!.client.follow({ target_handle: 'second2' });
    await b!.client.updateProfile({ handle: 'third2' });
    await a!.client.unfollow({ target_handle: 'third2' });
    await a!.client.updateProfile({ handle: 'first1' });
    const contents = async (who: TestAgent) =>
      (await who.client.activity({ limit: 50 })).activities.map((row) => row.content);
    expect(await contents(a!)).toEqual([
      'Cleared a profile vote on @third2',
      'Unfollowed @third2',
      'Upvoted the profile of @second2',
      'Followed @second2',
      'Started a game against @second2 as white',
      'Challenged @player2 to a game',
      'Posted: hello from player1',
    ]);
    expect(await contents(b!)).toEqual([
      'Started a game against @player1 as black',
      'Accepted a challenge from @player1',
      'Posted: hello from player2',
    ]);
  });
});
