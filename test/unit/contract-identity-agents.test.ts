import { Ajv, type ValidateFunction } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import * as Ag from '../../src/api/contract/agents.js';
import { codesOf, type RouteContract } from '../../src/api/contract/define.js';
import { CONTRACTS as ALL_CONTRACTS } from '../../src/api/contract/index.js';
import { addWireFormats } from '../../src/api/contract/formats.js';
import * as Hu from '../../src/api/contract/humans.js';
import * as Id from '../../src/api/contract/identity.js';
import * as Sy from '../../src/api/contract/system.js';
import { HTTP_STATUS_BY_CODE } from '../../src/api/errors.js';
import { ROUTES } from '../../src/api/routes/index.js';
import type { TransportRequest, TransportResponse } from '../../src/client/transport.js';
import type { ErrorCode } from '../../src/kernel/errors.js';
import { publishExternal } from '../../src/platform/identity/external-network.js';
import { registerHuman } from '../../src/platform/identity/humans.js';
import { verificationText } from '../../src/rules/identity/identity.js';
import { FIXED_NETWORK, FOOLS_MATE, newWorld, type TestAgent, type TestWorld } from '../helpers/world.js';

/**
 * The Identity, Agents, Human Profiles and System routes against their contracts. Each route answers once
 * (both sides where the answer has two shapes: whoami for an agent and a human, a first and a repeated
 * verification, a profile read with and without a key) in a world with data in it, and the body must
 * validate against the declared response (strict: no field the contract lacks, none it requires missing).
 * Each refusal must carry a code the contract declares. Requests go through the in-process transport,
 * which sends query values as text, as HTTP does.
 */
/** The contract groups this file answers; test/unit/contract-groups.test.ts checks every group is some file's. */
const ANSWERED_GROUPS: readonly string[] = ['Identity', 'Agents', 'Human Profiles', 'System'];
const CONTRACTS = ALL_CONTRACTS.filter((contract) => ANSWERED_GROUPS.includes(contract.group));

const ajv = new Ajv({ strict: false });
addWireFormats(ajv);
const validators = new Map<RouteContract, ValidateFunction>();
/** The contracts an answer was checked against: every one must be by the end. */
const answered = new Set<RouteContract>();

function validatorOf(contract: RouteContract): ValidateFunction {
  let validate = validators.get(contract);
  if (!validate) validators.set(contract, (validate = ajv.compile(contract.response)));
  return validate;
}

interface Call {
  query?: TransportRequest['query'];
  body?: unknown;
  as?: { apiKey: string };
  /** The concrete path, when the contract's has a parameter. */
  path?: string;
}

function send(world: TestWorld, contract: RouteContract, call: Call = {}): Promise<TransportResponse> {
  const request: TransportRequest = {
    method: contract.method,
    path: call.path ?? contract.path,
    query: call.query,
    body: call.body,
  };
  if (call.as) request.apiKey = call.as.apiKey;
  return world.transport.send(request);
}

/** Calls the route, expects its success status, checks the body against the contract and returns it. */
async function answer<T = Record<string, any>>(
  world: TestWorld,
  contract: RouteContract,
  call: Call = {},
): Promise<T> {
  const label = `${contract.method} ${contract.path}`;
  const response = await send(world, contract, call);
  expect(response.status, `${label}: ${JSON.stringify(response.body)}`).toBe(contract.status ?? 200);
  const validate = validatorOf(contract);
  expect(validate(response.body), `${label}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  answered.add(contract);
  return response.body as T;
}

/** Calls the route, expects the refusal `code` with its registry status, and that the contract declares it. */
async function refusal(
  world: TestWorld,
  contract: RouteContract,
  code: ErrorCode,
  call: Call = {},
): Promise<void> {
  const label = `${contract.method} ${contract.path}`;
  const response = await send(world, contract, call);
  expect((response.body as { error?: unknown }).error, `${label}: ${JSON.stringify(response.body)}`).toBe(
    code,
  );
  expect(response.status, label).toBe(HTTP_STATUS_BY_CODE[code]);
  expect(codesOf(contract), `${label} must declare ${code}`).toContain(code);
}

interface Fixture {
  world: TestWorld;
  alice: TestAgent;
  bob: TestAgent;
  carol: TestAgent;
  human: { apiKey: string; username: string };
}

/**
 * alice and bob played a game (bob won with Black); alice is verified as `alice_x` and funded (settled);
 * bob is verified with the external handle `hank`, which the human `hank` owns, so hank's profile lists
 * bob; hank has posted; bob has an open challenge waiting. carol has only posted.
 */
async function populated(): Promise<Fixture> {
  const world = newWorld({ network: FIXED_NETWORK });
  const [alice, bob, carol] = [
    await world.agent('alice', { bio: 'opens e4', tags: ['tactical'] }),
    await world.agent('bob'),
    await world.agent('carol'),
  ];
  await world.play(await world.game(alice, bob), alice, bob, FOOLS_MATE);
  publishExternal(world.platform, 'hank', verificationTextOf(world, bob));
  await bob.client.call('POST', '/api/verify', { body: { twitter_handle: 'hank' } });
  const { apiKey } = registerHuman(world.platform, { username: 'hank' });
  await world.client(apiKey).post('a human says hello');
  await bob.client.createChallenge({});
  return { world, alice, bob, carol, human: { apiKey, username: 'hank' } };
}

function verificationTextOf(world: TestWorld, agent: TestAgent): string {
  const record = world.platform.state.agents.get(agent.id)!;
  return verificationText(record.handle, record.verificationCode);
}

describe('Identity, Agents, Human Profiles and System answers match their contracts', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await populated();
  });

  it('serves every contract of the four groups from the route table', () => {
    const served = new Set(ROUTES.map((route) => route.contract));
    for (const contract of CONTRACTS)
      expect(served.has(contract), `${contract.method} ${contract.path}`).toBe(true);
  });

  it('registers, checks a free handle, and refuses a taken or invalid one with a declared 400', async () => {
    const registered = await answer<Id.RegisterResponse>(f.world, Id.register, {
      body: { handle: 'zed', bio: null, tags: ['positional'] },
    });
    expect(registered.handle).toBe('zed');
    await refusal(f.world, Id.register, 'handle_taken', { body: { handle: 'alice' } });
    await refusal(f.world, Id.register, 'validation_error', { body: { handle: 'x' } });

    expect(await answer(f.world, Id.checkHandle, { path: '/api/register/check/free_name' })).toEqual({
      success: true,
      available: true,
      handle: 'free_name',
    });
    await refusal(f.world, Id.checkHandle, 'handle_taken', { path: '/api/register/check/alice' });
    await refusal(f.world, Id.checkHandle, 'validation_error', { path: '/api/register/check/no' });
    expect(HTTP_STATUS_BY_CODE['handle_taken']).toBe(400);
  });

  it('answers whoami for an agent and for a human, each with its key usage', async () => {
    const agent = await answer<Id.WhoAmI>(f.world, Id.whoami, { as: f.alice });
    expect(agent.author_type === 'agent' && agent.agent.handle).toBe('alice');
    const human = await answer<Id.WhoAmI>(f.world, Id.whoami, { as: f.human });
    expect(human.author_type === 'human' && human.human.username).toBe('hank');
    await refusal(f.world, Id.whoami, 'authentication_required');
  });

  it('updates the profile, and refuses a handle that is taken', async () => {
    const updated = await answer<Id.UpdateProfileResponse>(f.world, Id.updateProfile, {
      as: f.carol,
      body: { bio: 'plays on', github_username: 'carol-gh' },
    });
    expect(updated.updated_fields).toEqual(['bio', 'github_username']);
    await refusal(f.world, Id.updateProfile, 'handle_taken', { as: f.carol, body: { handle: 'alice' } });
  });

  it('verifies once, answers a repeat as already verified, and refreshes by both route names', async () => {
    const { world, alice } = f;
    const status = await answer<Id.VerificationStatus>(world, Id.verificationStatus, { as: alice });
    expect(status.verified).toBe(false);
    await refusal(world, Id.verify, 'verification_failed', {
      as: alice,
      body: { twitter_handle: 'alice_x' },
    });
    publishExternal(world.platform, 'alice_x', status.verification_tweet_format);
    const first = await answer<Id.VerifyResponse>(world, Id.verify, {
      as: alice,
      body: { twitter_handle: 'alice_x' },
    });
    expect(first.funding_transfer_id).not.toBeNull();
    const again = await answer<Id.VerifyResponse>(world, Id.verify, {
      as: alice,
      body: { twitter_handle: 'alice_x' },
    });
    expect(again).toMatchObject({
      already_verified: true,
      funding_transfer_id: null,
      twitter_handle: 'alice_x',
    });
    expect(
      (await answer<Id.VerificationStatus>(world, Id.verificationStatus, { as: alice })).verified_at,
    ).toBe(first.verified_at);
    await refusal(world, Id.verificationStatus, 'authentication_required');

    const refreshed = await answer<Id.RefreshedSocial>(world, Id.refreshTwitter, {
      as: alice,
      path: '/api/agents/alice/refresh-twitter',
    });
    expect(refreshed.twitter_handle).toBe('alice_x');
    await refusal(world, Id.refreshSocial, 'rate_limit_exceeded', {
      as: alice,
      path: '/api/agents/alice/refresh-social',
    }); // the cooldown
    world.advanceBy(world.platform.ruleset.social.limits.refresh.cooldownMs);
    await answer(world, Id.refreshSocial, { as: alice, path: '/api/agents/alice/refresh-social' });
    await refusal(world, Id.refreshTwitter, 'bad_request', {
      as: alice,
      path: '/api/agents/bob/refresh-twitter',
    });
    await refusal(world, Id.refreshSocial, 'not_found', {
      as: alice,
      path: '/api/agents/ghost/refresh-social',
    });
  });

  it('lists the directory with and without stats, and the activity leaderboard', async () => {
    const plain = await answer<{ agents: Ag.DirectoryRow[] }>(f.world, Ag.listAgents, {
      query: { tag: ['tactical'] },
    });
    expect(plain.agents.map((row) => row.handle)).toEqual(['alice']);
    expect(plain.agents[0]).not.toHaveProperty('chess_wins');
    const withStats = await answer<{ agents: Ag.DirectoryRow[] }>(f.world, Ag.listAgents, {
      query: { stats: true, search: 'bob' },
    });
    expect(withStats.agents[0]).toMatchObject({ handle: 'bob', chess_wins: 1 });
    await refusal(f.world, Ag.listAgents, 'validation_error', { query: { limit: 0 } });

    const board = await answer<{ sort: string }>(f.world, Ag.activityLeaderboard, { query: { limit: 2 } });
    expect(board.sort).toBe(Ag.DEFAULT_ACTIVITY_SORT);
    await refusal(f.world, Ag.activityLeaderboard, 'validation_error', { query: { sort: 'elo' } });
  });

  it('shows a profile without a key (no your_vote) and with one (the standing vote), and votes', async () => {
    const { world, alice, human } = f;
    const anonymous = await answer<Ag.ProfileResponse>(world, Ag.agentProfile, { path: '/api/agents/bob' });
    expect(anonymous).not.toHaveProperty('your_vote');
    expect(anonymous.recent_posts.length).toBeGreaterThan(0);

    const vote = await answer<Ag.ProfileVoteResponse>(world, Ag.profileVote, {
      as: human,
      body: { target_handle: 'bob', vote: 'up' },
    });
    expect(vote.your_vote).toBe('up');
    const keyed = await answer<Ag.ProfileResponse>(world, Ag.agentProfile, {
      as: human,
      path: '/api/agents/bob',
    });
    expect(keyed.your_vote).toBe('up');
    expect(
      (await answer<Ag.ProfileResponse>(world, Ag.agentProfile, { as: alice, path: '/api/agents/bob' }))
        .your_vote,
    ).toBeNull();
    await refusal(world, Ag.agentProfile, 'not_found', { path: '/api/agents/ghost' });
    await refusal(world, Ag.profileVote, 'bad_request', {
      as: alice,
      body: { target_handle: 'alice', vote: 'down' },
    });
    await refusal(world, Ag.profileVote, 'validation_error', {
      as: alice,
      body: { target_handle: 'bob', target_agent_id: f.bob.id, vote: 'up' },
    });
  });

  it('answers the open-challenge probe either way, and the transfers report', async () => {
    const { world } = f;
    const waiting = await answer<Ag.OpenChallengeResponse>(world, Ag.openChallenge, {
      path: '/api/agents/bob/open-challenge',
    });
    expect(waiting.has_open_challenge && waiting.challenge?.challenger.handle).toBe('bob');
    const none = await answer<Ag.OpenChallengeResponse>(world, Ag.openChallenge, {
      path: '/api/agents/carol/open-challenge',
    });
    expect(none).toEqual({ has_open_challenge: false, challenge: null });
    await refusal(world, Ag.openChallenge, 'not_found', { path: '/api/agents/ghost/open-challenge' });

    world.advanceBy(5_000); // alice's funding (queued when she verified) settles
    const report = await answer<Ag.TransfersReport>(world, Ag.transfers, {
      path: '/api/agents/alice/transfers',
    });
    expect(report.transfers.map((row) => [row.transfer_type, row.direction, row.status])).toEqual([
      ['devnet_funding', 'in', 'settled'],
    ]);
    expect(report.balanceHistory).toHaveLength(1);
    await refusal(world, Ag.transfers, 'not_found', { path: '/api/agents/ghost/transfers' });
  });

  it("shows a human's profile with the agents it verified and its posts", async () => {
    const { human } = await answer<Hu.HumanProfileResponse>(f.world, Hu.humanProfile, {
      path: '/api/human/hank',
      query: { limit: 5 },
    });
    expect(human.agents.map((a) => a.handle)).toEqual(['bob']);
    expect(human.recent_posts.map((post) => post.content)).toEqual(['a human says hello']);
    await refusal(f.world, Hu.humanProfile, 'not_found', { path: '/api/human/nobody' });
  });

  it('serves the score boundaries and health', async () => {
    const agents = f.world.platform.state.agents.size;
    const boundaries = await answer<Sy.ScoreBoundaries>(f.world, Sy.socialScoreBoundaries);
    expect(boundaries.population.agents).toBe(agents);
    const health = await answer<Sy.Health>(f.world, Sy.health);
    expect(health).toMatchObject({ status: 'ok', agents, humans: 1 });
  });

  it('checked an answer of every contract', () => {
    const missed = CONTRACTS.filter((contract) => !answered.has(contract)).map(
      (contract) => `${contract.method} ${contract.path}`,
    );
    expect(missed).toEqual([]);
  });
});
