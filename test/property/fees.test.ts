import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BPS,
  PRIZE_DISTRIBUTIONS,
  PRIZE_SHARES_BPS,
  bountySettlement,
  poolProblem,
  prizeSplit,
  tournamentPool,
} from '../../src/rules/money/fees.js';

const params = { numRuns: 2000 };
const SOL = 1_000_000_000;
const RENT = 890_880;
const stake = fc.integer({ min: 1, max: 10 * SOL });
const bps = fc.integer({ min: 0, max: BPS });
const outcome = fc.constantFrom<'white' | 'black' | null>('white', 'black', null);
const distribution = fc.constantFrom(...PRIZE_DISTRIBUTIONS);

/** The checker's own floor(amount * bps / 10000), kept apart from the code under test. */
function oracleShare(amount: number, rate: number): number {
  return Number((BigInt(amount) * BigInt(rate)) / 10_000n);
}

function checkBounty(s: number, winner: 'white' | 'black' | null, rate: number): void {
  const r = bountySettlement(s, winner, rate);
  expect(r.pot).toBe(2 * s);
  expect(r.white + r.black + r.fee).toBe(r.pot);
  if (winner === null) {
    expect(r).toEqual({ pot: 2 * s, fee: 0, white: s, black: s });
    return;
  }
  expect(r.fee).toBe(oracleShare(2 * s, rate));
  expect(r[winner]).toBe(r.pot - r.fee);
  expect(r[winner === 'white' ? 'black' : 'white']).toBe(0);
}

describe('bounty settlement properties', () => {
  it('fee + payouts === pot at the 10% fee, every outcome, stakes 1 lamport..10 SOL', () => {
    fc.assert(
      fc.property(stake, outcome, (s, w) => checkBounty(s, w, 1000)),
      params,
    );
  });

  it('fee + payouts === pot at any fee 0..10000 bps', () => {
    fc.assert(
      fc.property(stake, outcome, bps, (s, w, rate) => checkBounty(s, w, rate)),
      params,
    );
  });

  it('exhaustive: every stake 1..5000 lamports at the 10% fee', () => {
    for (let s = 1; s <= 5000; s += 1) {
      for (const w of ['white', 'black', null] as const) {
        const r = bountySettlement(s, w, 1000);
        if (r.white + r.black + r.fee !== r.pot || r.pot !== 2 * s)
          expect.fail(`stake ${s}, winner ${w}: ${JSON.stringify(r)}`);
        if (w !== null && r.fee !== Math.floor((2 * s) / 10)) expect.fail(`stake ${s}: fee ${r.fee}`);
      }
    }
  });

  it('rejects bad stakes and rates', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => bountySettlement(bad, 'white', 1000)).toThrow();
    for (const bad of [-1, 10_001, 0.5]) expect(() => bountySettlement(100, 'white', bad)).toThrow();
    expect(() => bountySettlement(Number.MAX_SAFE_INTEGER, 'white', 1000)).toThrow(); // the pot is not safe
  });
});

const poolInput = fc.record({
  prizeLamports: fc.integer({ min: 0, max: 100 * SOL }),
  entryFeeLamports: fc.integer({ min: 0, max: 10 * SOL }),
  participants: fc.constantFrom(8, 16, 32, 64),
  systemFeeBps: fc.integer({ min: 0, max: 2000 }),
  organizerFeeBps: fc.integer({ min: 0, max: 2000 }),
  rentExemptMinimum: fc.constant(RENT),
});

describe('tournament pool properties', () => {
  it('conserves prize + entries, charges fees on entries only, waives a tiny organizer fee', () => {
    fc.assert(
      fc.property(poolInput, (input) => {
        const r = tournamentPool(input);
        const entries = input.entryFeeLamports * input.participants;
        expect(r.entriesTotal).toBe(entries);
        expect(r.systemFee + r.organizerFee + r.pool).toBe(input.prizeLamports + entries);
        expect(r.systemFee).toBe(oracleShare(entries, input.systemFeeBps));
        const rawOrganizer = oracleShare(entries, input.organizerFeeBps);
        expect(r.organizerFee).toBe(rawOrganizer > 0 && rawOrganizer < RENT ? 0 : rawOrganizer);
        expect(r.pool).toBeGreaterThanOrEqual(input.prizeLamports);
      }),
      params,
    );
  });

  it('waives a tiny organizer fee into the pool even when entry fees are tiny', () => {
    fc.assert(
      fc.property(poolInput, fc.integer({ min: 0, max: 2_000_000 }), (input, entry) => {
        const r = tournamentPool({ ...input, entryFeeLamports: entry });
        expect(r.organizerFee === 0 || r.organizerFee >= RENT).toBe(true);
        expect(r.systemFee + r.organizerFee + r.pool).toBe(input.prizeLamports + entry * input.participants);
      }),
      params,
    );
  });

  it('examples', () => {
    const base = {
      prizeLamports: SOL,
      participants: 8,
      systemFeeBps: 1000,
      organizerFeeBps: 500,
      rentExemptMinimum: RENT,
    };
    // 8 x 0.001 SOL = 8_000_000; the organizer's 5% is 400_000, below rent, so it stays in the pool.
    expect(tournamentPool({ ...base, entryFeeLamports: 1_000_000 })).toEqual({
      entriesTotal: 8_000_000,
      systemFee: 800_000,
      organizerFee: 0,
      pool: SOL + 7_200_000,
    });
    // 8 x 0.1 SOL = 0.8 SOL; 10% system, 5% organizer; the 1 SOL prize is never charged.
    expect(tournamentPool({ ...base, entryFeeLamports: SOL / 10 })).toEqual({
      entriesTotal: 800_000_000,
      systemFee: 80_000_000,
      organizerFee: 40_000_000,
      pool: 1_680_000_000,
    });
    expect(tournamentPool({ ...base, entryFeeLamports: 0 })).toEqual({
      entriesTotal: 0,
      systemFee: 0,
      organizerFee: 0,
      pool: SOL,
    });
  });

  it('rejects bad input, including fees that together pass 100%', () => {
    const ok = {
      prizeLamports: 0,
      entryFeeLamports: 1,
      participants: 8,
      systemFeeBps: 0,
      organizerFeeBps: 0,
      rentExemptMinimum: RENT,
    };
    expect(() => tournamentPool({ ...ok, participants: -1 })).toThrow();
    expect(() => tournamentPool({ ...ok, entryFeeLamports: 0.5 })).toThrow();
    expect(() => tournamentPool({ ...ok, systemFeeBps: 10_001 })).toThrow();
    expect(() => tournamentPool({ ...ok, systemFeeBps: 6000, organizerFeeBps: 5000 })).toThrow();
  });
});

function checkSplit(pool: number, dist: (typeof PRIZE_DISTRIBUTIONS)[number]): void {
  const split = prizeSplit(pool, dist, RENT);
  expect(split).toHaveLength(PRIZE_SHARES_BPS[dist].length);
  expect(split.reduce((a, b) => a + b, 0)).toBe(pool);
  for (const amount of split) expect(Number.isSafeInteger(amount) && amount >= 0).toBe(true);
  for (let i = 1; i < split.length; i += 1) expect(split[i - 1]!).toBeGreaterThanOrEqual(split[i]!);
  // Dust may remain only as 1st place holding the whole (too small) pool; poolProblem reports that case.
  split.forEach((amount, place) => {
    if (amount > 0 && amount < RENT) expect({ place, amount }).toEqual({ place: 0, amount: pool });
  });
  expect(poolProblem(pool, RENT) === undefined).toBe(pool === 0 || pool >= RENT);
}

describe('prize split properties', () => {
  it('sums exactly to the pool, non-increasing by place, no dust below the rent minimum', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 * SOL + 64 * 10 * SOL }), distribution, checkSplit),
      params,
    );
  });

  it('the same near the rent minimum, where folding happens', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 40 * RENT }), distribution, checkSplit), params);
  });

  it('examples', () => {
    expect(prizeSplit(SOL, 'top_four', RENT)).toEqual([660_000_000, 250_000_000, 60_000_000, 30_000_000]);
    expect(prizeSplit(SOL, 'winner_only', RENT)).toEqual([SOL]);
    // 10_000_001: 2nd (2_500_000) stays; 3rd (600_000) and 4th (300_000) are below rent and fold into 1st.
    expect(prizeSplit(10_000_001, 'top_four', RENT)).toEqual([7_500_001, 2_500_000, 0, 0]);
    // 100_000_003 lamports: floors leave 3 lamports of rounding, which go to 1st.
    expect(prizeSplit(100_000_003, 'top_four', RENT)).toEqual([66_000_003, 25_000_000, 6_000_000, 3_000_000]);
    expect(prizeSplit(0, 'top_four', RENT)).toEqual([0, 0, 0, 0]);
    expect(poolProblem(500_000, RENT)).toMatch(/rent-exempt/);
    expect(poolProblem(0, RENT)).toBeUndefined();
    expect(poolProblem(RENT, RENT)).toBeUndefined();
  });
});

describe('bounty examples', () => {
  it('0.1 SOL stakes at 10%: fee 0.02 SOL, winner 0.18 SOL', () => {
    expect(bountySettlement(100_000_000, 'white', 1000)).toEqual({
      pot: 200_000_000,
      fee: 20_000_000,
      white: 180_000_000,
      black: 0,
    });
    expect(bountySettlement(100_000_000, 'black', 1000)).toEqual({
      pot: 200_000_000,
      fee: 20_000_000,
      white: 0,
      black: 180_000_000,
    });
    expect(bountySettlement(100_000_000, null, 1000)).toEqual({
      pot: 200_000_000,
      fee: 0,
      white: 100_000_000,
      black: 100_000_000,
    });
  });

  it('an odd stake rounds the fee down and the winner keeps the dust', () => {
    expect(bountySettlement(10_000_001, 'white', 1000)).toEqual({
      pot: 20_000_002,
      fee: 2_000_000,
      white: 18_000_002,
      black: 0,
    });
    expect(bountySettlement(1, 'black', 1000)).toEqual({ pot: 2, fee: 0, white: 0, black: 2 });
    expect(bountySettlement(5, 'white', 10_000)).toEqual({ pot: 10, fee: 10, white: 0, black: 0 });
  });
});
