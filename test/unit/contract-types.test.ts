import { describe, expect, it } from 'vitest';
import * as Games from '../../src/api/contract/games.js';
import * as Control from '../../src/api/contract/control.js';
import { implement, implementLive, JsonText, type LiveControl } from '../../src/api/types.js';

/**
 * The compiler holds handlers to their contracts: each `@ts-expect-error` below is a view that drops,
 * renames or mistypes a field, and `npm run typecheck` (run by .ci/run) fails if any of them compiles.
 */
const summary: Games.GameSummary = {
  game_id: 'g',
  id: 'g',
  status: 'active',
  white_player: { handle: 'a', elo: 1200 },
  black_player: { handle: 'b', elo: 1200 },
  current_fen: 'startpos',
  move_count: 0,
  result: null,
  end_reason: null,
  created_at: '2026-01-01T00:00:00.000Z',
  bounty_sol: null,
  tournament_id: null,
  cancel_reason: null,
};

describe('views are checked against their contracts at compile time', () => {
  it('refuses a dropped, a renamed and a mistyped field', () => {
    const { status: _dropped, ...withoutStatus } = summary;
    // @ts-expect-error a summary without `status` is not a GameSummary
    const dropped: Games.GameSummary = withoutStatus;
    // @ts-expect-error `state` is not the contract's name for `status`
    const renamed: Games.GameSummary = { ...withoutStatus, state: 'active' };
    // @ts-expect-error `finished` is not one of the contract's statuses
    const mistyped: Games.GameSummary = { ...summary, status: 'finished' };
    expect([dropped, renamed, mistyped].map((row) => row.game_id)).toEqual(['g', 'g', 'g']);
  });

  it('refuses a handler whose answer leaves the response type', () => {
    const good = implement(Games.myTurn, () => ({ games: [], total: 0 }));
    // @ts-expect-error my-turn answers `{games, total}`, not a bare list
    const bad = implement(Games.myTurn, () => []);
    expect([good.contract, bad.contract]).toEqual([Games.myTurn, Games.myTurn]);
  });

  it("refuses a live control row whose answer leaves the response type, or JSON text of another route's type", () => {
    const good = implementLive(Control.getInvariants, ({ live }) => ({
      success: true as const,
      invariants: live.invariantResults(),
    }));
    // @ts-expect-error the invariants route answers `{success, invariants}`, not the list alone
    const bad = implementLive(Control.getInvariants, ({ live }) => live.invariantResults());
    const snapshotText = (live: LiveControl) => new JsonText<Control.SnapshotResponse>(live.snapshotText());
    // @ts-expect-error snapshot text answers the snapshot route, not the clock route
    const text = implementLive(Control.getClock, ({ live }) => snapshotText(live));
    expect([good, bad, text].map((row) => row.contract)).toEqual([
      Control.getInvariants,
      Control.getInvariants,
      Control.getClock,
    ]);
  });
});
