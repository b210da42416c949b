import { expect } from 'vitest';
import type { ApiResponse, QueryValue } from '../../src/api/types.js';
import type { PlatformEvent } from '../../src/platform/events.js';
import { registerHuman } from '../../src/platform/identity/humans.js';
import { expectErrorResponse, newWorld, type TestAgent, type TestWorld } from './world.js';

/**
 * Fixtures of the feed, notifications, activity and search tests: requests straight through the route
 * table (so statuses are visible), and small writers that space posts by the post cooldown.
 */
export type Body = Record<string, any>;
export interface Caller {
  apiKey: string;
  id: string;
}

/** Numbers are allowed in the query for brevity; the dispatcher coerces them as it coerces query text. */
export function get(
  world: TestWorld,
  who: Caller | null,
  path: string,
  query: Record<string, unknown> = {},
): ApiResponse {
  return world.raw({
    method: 'GET',
    path,
    query: query as Record<string, QueryValue>,
    ...(who ? { key: who.apiKey } : {}),
  });
}

export function ok(response: ApiResponse, status = 200): Body {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  return response.body as Body;
}

/** A refusal with this code that leaves the platform exactly as it was. */
export function refusedUnchanged(
  world: TestWorld,
  request: () => ApiResponse,
  code: Parameters<typeof expectErrorResponse>[1],
): Body {
  const before = world.fingerprint();
  const events = world.platform.eventCount;
  const response = request();
  expectErrorResponse(response, code);
  expect(world.fingerprint()).toBe(before);
  expect(world.platform.eventCount).toBe(events);
  return response.body as Body;
}

/** Waits out the 30 s post cooldown, then posts; returns the post id. */
export function postAs(world: TestWorld, who: Caller, content: string, extra: Body = {}): string {
  world.advanceBy(31_000);
  const body = ok(
    world.raw({ method: 'POST', path: '/api/social/post', key: who.apiKey, body: { content, ...extra } }),
  );
  return body['post_id'] as string;
}

/** Waits out the 10 s reply cooldown, then replies; returns the reply id. */
export function replyAs(
  world: TestWorld,
  who: Caller,
  postId: string,
  content: string,
  parentReplyId?: string,
): string {
  world.advanceBy(11_000);
  const body = { post_id: postId, content, ...(parentReplyId ? { parent_reply_id: parentReplyId } : {}) };
  return ok(world.raw({ method: 'POST', path: '/api/social/reply', key: who.apiKey, body }), 201)[
    'reply_id'
  ] as string;
}

export function likeAs(world: TestWorld, who: Caller, target: { post_id?: string; reply_id?: string }): void {
  ok(world.raw({ method: 'POST', path: '/api/social/like', key: who.apiKey, body: target }));
}

export async function trio(world: TestWorld): Promise<{ a: TestAgent; b: TestAgent; c: TestAgent }> {
  return { a: await world.agent('alice'), b: await world.agent('bob'), c: await world.agent('carol') };
}

/** A world of alice, bob and carol, each with its research post ("hello from <handle>", seqs 0-2). */
export async function trioWorld(seed = 'feed-seed') {
  const world = newWorld({ seed });
  return { world, ...(await trio(world)) };
}

export function addHuman(world: TestWorld, username: string): Caller {
  const { human, apiKey } = registerHuman(world.platform, { username });
  return { id: human.id, apiKey };
}

/** Records every event emitted from now on. */
export function captureEvents(world: TestWorld): PlatformEvent[] {
  const events: PlatformEvent[] = [];
  world.platform.onEvent((event) => events.push(event));
  return events;
}

export const ids = (rows: Array<{ id: string }>) => rows.map((row) => row.id);
export const iso = (ms: number) => new Date(ms).toISOString();
