import { Ajv, type ValidateFunction } from 'ajv';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as C from '../../src/api/contract/control.js';
import { codesOf, type RouteContract } from '../../src/api/contract/define.js';
import { CONTRACTS as ALL_CONTRACTS } from '../../src/api/contract/index.js';
import { addWireFormats } from '../../src/api/contract/formats.js';
import { TEXT_RULE_MESSAGE } from '../../src/api/contract/schema.js';
import { HTTP_STATUS_BY_CODE } from '../../src/api/errors.js';
import { LIVE_ROUTES } from '../../src/api/routes/index.js';
import type { ErrorCode } from '../../src/kernel/errors.js';
import type { LiveServer } from '../../src/http/live-server.js';
import { startLiveServer } from '../helpers/live-server.js';

/**
 * Every simulator-control route, called over the guarded HTTP server as `serve` runs it: each success
 * matches its contract's response schema exactly, and each refusal is a code the contract declares, with
 * the status the registry gives it. The four platform rows and the live world's rows are checked alike,
 * and refuse a bad body in the same words.
 */
const SCENARIO = `
name: control-contract
seed: 7
start: 2026-03-01T00:00:00Z
duration: 30d
population:
  - persona: random
    count: 4
    heartbeat: { min: 20s, max: 40s }
`;

type Json = Record<string, any>;
interface Call {
  params?: Record<string, string>;
  body?: unknown;
  /** Raw body text, sent as is (a body that is not valid JSON). */
  payload?: string;
  headers?: Record<string, string>;
}

/** The contract groups this file answers; test/unit/contract-groups.test.ts checks every group is some file's. */
const ANSWERED_GROUPS: readonly string[] = ['Simulator control'];

const ajv = new Ajv({ strict: false });
addWireFormats(ajv);
const validators = new Map<RouteContract, ValidateFunction>();

let app: FastifyInstance;
let server: LiveServer;
let control: Record<string, string>;

beforeAll(async () => {
  ({ app, server, control } = await startLiveServer(SCENARIO, { listen: false }));
});

afterAll(async () => {
  await app.close();
});

function urlOf(contract: RouteContract, params: Record<string, string> = {}): string {
  return contract.path.replace(/\{(\w+)\}/g, (_whole, name: string) =>
    encodeURIComponent(params[name] ?? 'x'),
  );
}

async function call(contract: RouteContract, options: Call = {}): Promise<LightMyRequestResponse> {
  const payload = options.payload ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const headers = options.headers ?? control;
  return app.inject({
    method: contract.method,
    url: urlOf(contract, options.params),
    headers,
    ...(payload === undefined ? {} : { payload }),
  });
}

/** Answers the contract's success: its status, and a body its response schema accepts (no field missing, none extra). */
function expectSuccess(contract: RouteContract, answer: LightMyRequestResponse): Json {
  const label = `${contract.method} ${contract.path}`;
  expect(answer.statusCode, `${label}: ${answer.body.slice(0, 300)}`).toBe(contract.status ?? 200);
  const body = answer.json<Json>();
  let validate = validators.get(contract);
  if (!validate) validators.set(contract, (validate = ajv.compile(contract.response)));
  expect(validate(body), `${label}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  return body;
}

/** A refusal the contract declares, with its registered status. */
function expectRefusal(contract: RouteContract, answer: LightMyRequestResponse, code: ErrorCode): Json {
  const body = answer.json<Json>();
  const label = `${contract.method} ${contract.path}`;
  expect([answer.statusCode, body['error']], `${label}: ${answer.body}`).toEqual([
    HTTP_STATUS_BY_CODE[code],
    code,
  ]);
  expect(codesOf(contract), label).toContain(code);
  expect(typeof body['message']).toBe('string');
  return body;
}

/** Holds a long job on the server until released, so a second one is refused `busy`. */
function holdJob(): () => Promise<void> {
  let release!: () => void;
  const held = server.exclusive('advance', () => new Promise<void>((resolve) => (release = resolve)));
  return async () => {
    release();
    await held;
  };
}

describe('the simulator-control contracts', () => {
  it('lists the nineteen /_sim routes, each in the Simulator control group and keyless', () => {
    expect(C.CONTROL_ROUTES).toHaveLength(19);
    expect(new Set(C.CONTROL_ROUTES.map((c) => `${c.method} ${c.path}`)).size).toBe(19);
    for (const contract of C.CONTROL_ROUTES) {
      expect([contract.path.startsWith('/_sim/'), contract.group, contract.auth]).toEqual([
        true,
        'Simulator control',
        'none',
      ]);
      expect(codesOf(contract)).toEqual(
        expect.arrayContaining(['control_token_required', 'invalid_control_token']),
      );
    }
  });

  it('refuses every route without the control token, and with a wrong one', async () => {
    for (const contract of C.CONTROL_ROUTES) {
      expectRefusal(contract, await call(contract, { headers: {} }), 'control_token_required');
      expectRefusal(
        contract,
        await call(contract, { headers: { authorization: 'Bearer not-the-token-at-all' } }),
        'invalid_control_token',
      );
    }
  });

  it('creates a human, and refuses a username that is taken', async () => {
    const created = expectSuccess(
      C.createHuman,
      await call(C.createHuman, { body: { username: 'hana', display_name: 'Hana', bio: 'two\nlines' } }),
    );
    expect([created['username'], created['display_name'], created['author_type']]).toEqual([
      'hana',
      'Hana',
      'human',
    ]);
    expectRefusal(C.createHuman, await call(C.createHuman, { body: { username: 'HANA' } }), 'handle_taken');
  });

  it('publishes on the external network, changes and reads an account, and refuses what each refuses', async () => {
    const posted = expectSuccess(
      C.publishExternalPost,
      await call(C.publishExternalPost, { body: { handle: 'ext_alice', text: 'hello\nworld' } }),
    );
    expect(posted['handle']).toBe('ext_alice');
    const changed = expectSuccess(
      C.updateExternalAccount,
      await call(C.updateExternalAccount, {
        params: { handle: 'ext_alice' },
        body: { display_name: 'Alice on X', followers: 5 },
      }),
    );
    expect([changed['account']['display_name'], changed['account']['followers_count']]).toEqual([
      'Alice on X',
      5,
    ]);
    const read = expectSuccess(
      C.getExternalAccount,
      await call(C.getExternalAccount, { params: { handle: 'EXT_ALICE' } }),
    );
    expect(read['account']['posts'].map((p: Json) => p['text'])).toEqual(['hello\nworld']);

    expectRefusal(
      C.updateExternalAccount,
      await call(C.updateExternalAccount, { params: { handle: 'ext_bob' }, body: { followers: -1 } }),
      'validation_error',
    );
    expectSuccess(
      C.updateExternalAccount,
      await call(C.updateExternalAccount, { params: { handle: 'ext_bob' }, body: { banned: true } }),
    );
    expectRefusal(
      C.publishExternalPost,
      await call(C.publishExternalPost, { body: { handle: 'ext_bob', text: 'let me in' } }),
      'account_banned',
    );
    expectRefusal(
      C.getExternalAccount,
      await call(C.getExternalAccount, { params: { handle: 'nobody_here' } }),
      'not_found',
    );
  });

  it('reads, advances, sets and steps the clock, and refuses a bad time or a clock moved backwards', async () => {
    const clock = expectSuccess(C.getClock, await call(C.getClock));
    expect([clock['manual'], clock['busy']]).toEqual([true, null]);
    const advanced = expectSuccess(C.advanceClock, await call(C.advanceClock, { body: { ms: 60_000 } }));
    expect([advanced['now_ms'], advanced['cancelled']]).toEqual([clock['now_ms'] + 60_000, false]);
    const set = expectSuccess(
      C.setClock,
      await call(C.setClock, { body: { at_ms: advanced['now_ms'] + 1000 } }),
    );
    expect(set['now_ms']).toBe(advanced['now_ms'] + 1000);
    const stepped = expectSuccess(C.stepClock, await call(C.stepClock));
    expect(stepped['stepped_to']).toBe(set['next_timer_at'] === null ? null : stepped['now']);

    const zero = expectRefusal(
      C.advanceClock,
      await call(C.advanceClock, { body: { ms: 0 } }),
      'validation_error',
    );
    expect([zero['field'], zero['message']]).toEqual(['ms', 'ms: must be >= 1']);
    const tooFar = expectRefusal(
      C.advanceClock,
      await call(C.advanceClock, { body: { ms: C.MAX_ADVANCE_MS + 1 } }),
      'validation_error',
    );
    expect(tooFar['field']).toBe('ms');
    expectRefusal(
      C.setClock,
      await call(C.setClock, { body: { at: '2026-03-01T00:00:00Z' } }),
      'bad_request',
    );
    expectRefusal(C.setClock, await call(C.setClock, { body: { at: 'tomorrow' } }), 'validation_error');
    expectRefusal(C.setClock, await call(C.setClock, { body: {} }), 'validation_error');
    expectRefusal(C.stepClock, await call(C.stepClock, { payload: '{"' }), 'validation_error');
    expectRefusal(
      C.advanceClock,
      await call(C.advanceClock, {
        payload: '{"ms":1000}',
        headers: { authorization: control['authorization']!, 'content-type': 'text/plain' },
      }),
      'unsupported_media_type',
    );
    expect(server.current.nowMs).toBe(stepped['now_ms']);
  });

  it('pauses, resumes and sets the speed of a real-time clock; a bad speed changes nothing', async () => {
    const realTime = await startLiveServer(SCENARIO, { listen: false, realTime: true });
    try {
      const on = (contract: RouteContract, body?: unknown) =>
        realTime.app.inject({
          method: contract.method,
          url: contract.path,
          headers: realTime.control,
          ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
        });
      const resumed = expectSuccess(C.resumeClock, await on(C.resumeClock));
      expect([resumed['manual'], resumed['speed']]).toEqual([false, 1]);
      const faster = expectSuccess(C.setSpeed, await on(C.setSpeed, { speed: 60 }));
      expect([faster['manual'], faster['speed']]).toEqual([false, 60]);
      for (const speed of [0, -1, C.MAX_SPEED + 1, 'fast', null]) {
        const refused = expectRefusal(C.setSpeed, await on(C.setSpeed, { speed }), 'validation_error');
        expect(refused['field'], String(speed)).toBe('speed');
      }
      expectRefusal(C.setSpeed, await on(C.setSpeed, {}), 'validation_error');
      expectRefusal(C.pauseClock, await on(C.pauseClock, '{"'), 'validation_error');
      expect(realTime.server.clock).toEqual({ manual: false, speed: 60 });
      const paused = expectSuccess(C.pauseClock, await on(C.pauseClock));
      expect([paused['manual'], paused['speed']]).toEqual([true, 60]);
      // A paused clock keeps its new speed for when it resumes.
      expectSuccess(C.setSpeed, await on(C.setSpeed, { speed: 0.5 }));
      expect(realTime.server.clock).toEqual({ manual: true, speed: 0.5 });
    } finally {
      await realTime.app.close();
    }
  });

  it('refuses resume and speed where nothing runs the clock in real time, changing nothing', async () => {
    const before = { ...server.clock };
    expectRefusal(C.resumeClock, await call(C.resumeClock), 'bad_request');
    expectRefusal(C.setSpeed, await call(C.setSpeed, { body: { speed: 10 } }), 'bad_request');
    expect(server.clock).toEqual(before);
    expect(expectSuccess(C.pauseClock, await call(C.pauseClock))['manual']).toBe(true);
  });

  it('refuses a second long job busy, with Retry-After, and cancels the one running', async () => {
    const release = holdJob();
    try {
      const before = server.current.nowMs;
      const refusals: Array<[RouteContract, Call]> = [
        [C.advanceClock, { body: { ms: 1000 } }],
        [C.setClock, { body: { at_ms: before + 1000 } }],
        [C.stepClock, {}],
        [C.restoreSnapshot, { body: server.current.snapshot() }],
      ];
      for (const [contract, options] of refusals) {
        const answer = await call(contract, options);
        expect(expectRefusal(contract, answer, 'busy')['retry_after']).toBe(1);
        expect(answer.headers['retry-after']).toBe('1');
      }
      const cancel = expectSuccess(C.cancelJob, await call(C.cancelJob));
      expect([cancel['cancelled'], cancel['busy']]).toEqual([true, 'advance']);
      expect(server.current.nowMs).toBe(before);
    } finally {
      await release();
    }
    expect(expectSuccess(C.cancelJob, await call(C.cancelJob))['cancelled']).toBe(false);
    expectRefusal(C.cancelJob, await call(C.cancelJob, { payload: '[1,' }), 'validation_error');
  });

  it('airdrops and reports invariants, and refuses an unknown agent or an amount out of bounds', async () => {
    await app.inject({ method: 'POST', url: '/api/register', payload: { handle: 'tester' } });
    const funded = expectSuccess(C.airdrop, await call(C.airdrop, { body: { handle: 'tester', sol: 1.5 } }));
    expect([funded['lamports'], funded['balance_lamports']]).toEqual([1_500_000_000, 1_500_000_000]);
    expectRefusal(C.airdrop, await call(C.airdrop, { body: { handle: 'nobody', sol: 1 } }), 'not_found');
    for (const sol of [0, -1, C.MAX_AIRDROP_SOL + 1, 1e-10, '1']) {
      const refused = expectRefusal(
        C.airdrop,
        await call(C.airdrop, { body: { handle: 'tester', sol } }),
        'validation_error',
      );
      expect(refused['field'], String(sol)).toBe('sol');
    }
    const invariants = expectSuccess(C.getInvariants, await call(C.getInvariants));
    expect(invariants['invariants'].length).toBeGreaterThan(0);
    expect(invariants['invariants'].every((i: Json) => i['passed'])).toBe(true);
  });

  it('snapshots and restores the world, and refuses a body that is no snapshot', async () => {
    const snapshot = expectSuccess(C.getSnapshot, await call(C.getSnapshot));
    await call(C.advanceClock, { body: { ms: 5 * 60_000 } });
    const restored = expectSuccess(C.restoreSnapshot, await call(C.restoreSnapshot, { body: snapshot }));
    expect([restored['restored'], restored['now_ms']]).toEqual([true, snapshot['nowMs']]);
    expect(server.current.snapshot().stateHash).toBe(snapshot['stateHash']);
    const wrong = expectRefusal(
      C.restoreSnapshot,
      await call(C.restoreSnapshot, { body: { format: 'x' } }),
      'validation_error',
    );
    expect(wrong['field']).toBe('snapshot');
    const none = expectRefusal(C.restoreSnapshot, await call(C.restoreSnapshot), 'validation_error');
    expect([none['field'], none['message']]).toEqual([
      'format',
      "format: must have required property 'format'",
    ]);
  });

  it("answers a live route's wrong method 405, marks every control answer no-store, and routes no live row in-process", async () => {
    const wrong = await app.inject({ method: 'DELETE', url: C.getClock.path, headers: control });
    expect([wrong.statusCode, wrong.json<Json>()['error']]).toEqual([405, 'method_not_allowed']);
    for (const contract of [C.getClock, C.getSnapshot, C.getInvariants])
      expect((await call(contract)).headers['cache-control'], contract.path).toBe('no-store');
    // The in-process world has no live server: its table answers these paths as unknown.
    for (const contract of LIVE_ROUTES.map((r) => r.contract)) {
      const answer = server.current.world.api.handle({ method: contract.method, path: contract.path });
      expect([answer.status, (answer.body as Json)['error']], contract.path).toEqual([
        404,
        'route_not_found',
      ]);
    }
  });

  it('words a bad body alike for a platform row (humans) and a live row (airdrop)', async () => {
    const inTable = (body: unknown) => call(C.createHuman, { payload: JSON.stringify(body) });
    const inServer = (body: unknown) => call(C.airdrop, { payload: JSON.stringify(body) });
    /** The message with its field named generically, so two routes' refusals of one kind compare equal. */
    const template = (answer: Json) => [
      answer['error'],
      answer['field'] === '' ? answer['message'] : answer['message'].split(answer['field']).join('<field>'),
    ];
    const kinds: Array<[table: unknown, server: unknown]> = [
      [{}, { sol: 1 }], // a required field missing
      [{ username: 5 }, { handle: 5, sol: 1 }], // a wrong type
      [{ username: 'a\u0000b' }, { handle: 'a\u0000b', sol: 1 }], // the text rule
      [[1], [1]], // not an object
    ];
    for (const [table, live] of kinds) {
      const a = expectRefusal(C.createHuman, await inTable(table), 'validation_error');
      const b = expectRefusal(C.airdrop, await inServer(live), 'validation_error');
      expect(template(b), JSON.stringify(live)).toEqual(template(a));
    }
    const pattern = expectRefusal(
      C.airdrop,
      await inServer({ handle: 'a\u202Eb', sol: 1 }),
      'validation_error',
    );
    expect(pattern['message']).toBe(`handle: ${TEXT_RULE_MESSAGE}`);
  });

  it('shows and replaces the fault profile, and writes a report only where serve has --out', async () => {
    expectSuccess(C.getFaults, await call(C.getFaults));
    const off = expectSuccess(C.setFaults, await call(C.setFaults, { body: { rules: [] } }));
    expect(off['profile']['rules']).toEqual([]);
    expectRefusal(C.setFaults, await call(C.setFaults, { body: { rules: 'all' } }), 'validation_error');
    expectRefusal(C.writeReport, await call(C.writeReport), 'bad_request');

    const files = ['/out/session/report.json', '/out/session/summary.md'];
    const withOut = await startLiveServer(SCENARIO, {
      listen: false,
      sessionReport: () => ({ files, agents: 4, failed: false }),
    });
    try {
      const answer = await withOut.app.inject({
        method: 'POST',
        url: '/_sim/report',
        headers: withOut.control,
      });
      expect(expectSuccess(C.writeReport, answer)).toMatchObject({ files, agents: 4, failed: false });
    } finally {
      await withOut.app.close();
    }
  });

  // Runs last: expectSuccess compiled a validator for each contract whose success it checked.
  it('answered a success of every contract of its groups', () => {
    const contracts = ALL_CONTRACTS.filter((contract) => ANSWERED_GROUPS.includes(contract.group));
    expect(contracts).toEqual([...C.CONTROL_ROUTES]);
    const missed = contracts.filter((contract) => !validators.has(contract));
    expect(missed.map((contract) => `${contract.method} ${contract.path}`)).toEqual([]);
  });
});
