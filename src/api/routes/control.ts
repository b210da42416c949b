import { parseIsoInstant, toIso } from '../../kernel/clock.js';
import { fail } from '../../kernel/errors.js';
import { solToLamports } from '../../kernel/money.js';
import {
  publishExternal,
  requireExternalAccount,
  updateExternalAccount,
} from '../../platform/identity/external-network.js';
import { registerHuman } from '../../platform/identity/humans.js';
import { clockFields, externalAccountView } from '../control-views.js';
import * as C from '../contract/control.js';
import type { BodyOf } from '../contract/define.js';
import { implement, implementLive, type LiveControl, type LiveRoute, type Route } from '../types.js';

/**
 * The simulator's control rows of the route table (OURS, under /_sim, no key), all declared in
 * src/api/contract/control.ts and matched and validated by the dispatcher as every route is.
 *
 * The first group is what the real world does outside the platform: a human signs up through X, someone
 * posts on X, an X profile changes or is banned. Both transports serve them, and a live world records them
 * as it records platform requests.
 */
export const controlRoutes: Route[] = [
  implement(C.createHuman, ({ platform, body }) => {
    const { human, apiKey } = registerHuman(platform, body);
    return {
      success: true as const,
      human_id: human.id,
      username: human.handle,
      display_name: human.displayName,
      api_key: apiKey,
      author_type: 'human' as const,
    };
  }),
  implement(C.publishExternalPost, ({ platform, body }) => {
    const { account, post } = publishExternal(platform, body.handle, body.text);
    return { success: true as const, post_id: post.id, handle: account.handle, created_at: toIso(post.atMs) };
  }),
  implement(C.updateExternalAccount, ({ platform, params, body }) => ({
    success: true as const,
    account: externalAccountView(updateExternalAccount(platform, params['handle']!, body)),
  })),
  implement(C.getExternalAccount, ({ platform, params }) => ({
    success: true as const,
    account: externalAccountView(requireExternalAccount(platform, params['handle']!)),
  })),
];

/**
 * The second group drives a live world (`serve`): its clock, one long job at a time, snapshot and restore,
 * the faucet, the invariant results. They act through `LiveControl`, which only a live server provides, so
 * the in-process world does not route them (src/api/dispatch.ts `LiveControlApi`).
 */
export const liveControlRoutes: LiveRoute[] = [
  implementLive(C.getClock, ({ live }) => ({ success: true as const, ...clockFields(live) })),
  implementLive(C.advanceClock, ({ live, body }) => advanceClockTo(live, live.nowMs + body.ms)),
  implementLive(C.setClock, ({ live, body }) => setClock(live, body)),
  implementLive(C.stepClock, ({ live }) => step(live)),
  implementLive(C.cancelJob, ({ live }) => ({
    success: true as const,
    cancelled: live.cancel(),
    ...clockFields(live),
  })),
  implementLive(C.setSpeed, ({ live, body }) => {
    live.setSpeed(body.speed);
    return { success: true as const, ...clockFields(live) };
  }),
  implementLive(C.pauseClock, ({ live }) => {
    live.pause();
    return { success: true as const, ...clockFields(live) };
  }),
  implementLive(C.resumeClock, ({ live }) => {
    live.resume();
    return { success: true as const, ...clockFields(live) };
  }),
  implementLive(C.getSnapshot, ({ live }) => live.snapshot()),
  implementLive(C.restoreSnapshot, async ({ live, body }) => {
    await live.restore(body);
    return { success: true as const, restored: true as const, ...clockFields(live) };
  }),
  implementLive(C.airdrop, ({ live, body }) => faucet(live, body)),
  implementLive(C.getInvariants, ({ live }) => ({
    success: true as const,
    invariants: live.invariantResults(),
  })),
  implementLive(C.getFaults, ({ live }) => live.faults()),
  implementLive(C.setFaults, ({ live, body }) => live.setFaults(body)),
  implementLive(C.writeReport, ({ live }) => live.writeReport()),
];

/** Sets the clock forward to `at` (ISO 8601) or `at_ms`; time never runs backwards. */
function setClock(live: LiveControl, body: BodyOf<typeof C.setClock>): Promise<C.AdvanceResponse> {
  const target = body.at !== undefined ? parseIsoInstant(body.at) : body.at_ms;
  if (target === undefined || !Number.isSafeInteger(target))
    fail('validation_error', 'at: an ISO 8601 time (or at_ms: epoch milliseconds)', { field: 'at' });
  const now = live.nowMs;
  if (target < now) fail('bad_request', `the clock is already at ${toIso(now)}; it never runs backwards`);
  if (target - now > C.MAX_ADVANCE_MS)
    fail('validation_error', 'at: at most 366 days ahead of the clock', { field: 'at' });
  return advanceClockTo(live, target);
}

async function advanceClockTo(live: LiveControl, toMs: number): Promise<C.AdvanceResponse> {
  const reached = await live.advanceTo(toMs);
  return { success: true, ...clockFields(live), cancelled: !reached };
}

async function step(live: LiveControl): Promise<C.StepResponse> {
  const due = await live.stepToNextTimer();
  return { success: true, ...clockFields(live), stepped_to: due === null ? null : toIso(live.nowMs) };
}

/** The schema bounds `sol`; SOL becomes whole lamports exactly, so more than 9 decimals are refused. */
function faucet(live: LiveControl, body: BodyOf<typeof C.airdrop>): C.AirdropResponse {
  const lamports =
    solToLamports(body.sol) ??
    fail('validation_error', 'sol: at most 9 decimal places (whole lamports)', { field: 'sol' });
  const { wallet, balanceLamports } = live.airdrop(body.handle, lamports);
  return {
    success: true,
    handle: body.handle,
    wallet_address: wallet,
    lamports,
    balance_lamports: balanceLamports,
  };
}
