import { Chess } from 'chess.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startLiveServer, TEST_CONTROL_TOKEN } from '../helpers/live-server.js';

const CONTROL = { authorization: `Bearer ${TEST_CONTROL_TOKEN}`, 'content-type': 'application/json' };

/**
 * The measure of the HTTP twin: an agent written only against the real service's documented wire shapes
 * (wire-shapes.md: the fields the official example agents and SDKs read) runs against our server unchanged.
 * Everything below the marked line knows nothing of this project: plain fetch, a base URL, JSON, and
 * chess.js to pick moves. Only the test harness steps the manual clock through /_sim.
 */
const SCENARIO = `
name: external
seed: 99
start: 2026-05-01T00:00:00Z
duration: 30d
population:
  - persona: random
    count: 8
    heartbeat: { min: 20s, max: 40s }
    options: { maxGames: 2, seekChance: 0.6 }
  - persona: poster
    count: 2
    heartbeat: { min: 60s, max: 90s }
`;

let app: FastifyInstance;
let origin: string;

beforeAll(async () => {
  ({ app, origin } = await startLiveServer(SCENARIO));
});

afterAll(async () => {
  await app.close();
});

// ---- the external agent: nothing from this project below this line ----------------------------------------

type Json = any;

class ExternalAgent {
  key = '';
  handle = '';
  readonly log: string[] = [];
  readonly refusals: string[] = [];

  constructor(private readonly base: string) {}

  async request(method: string, path: string, body?: unknown): Promise<{ status: number; json: Json }> {
    const headers: Record<string, string> = {};
    if (this.key) headers['Authorization'] = `Bearer ${this.key}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await response.json()) as Json;
    if (!response.ok) this.refusals.push(`${method} ${path.split('?')[0]} ${response.status} ${json.error}`);
    return { status: response.status, json };
  }

  async start(handle: string): Promise<void> {
    const registered = await this.request('POST', '/register', {
      handle,
      tags: ['competitive'],
      bio: 'external test agent',
    });
    this.key = registered.json.api_key;
    const me = await this.request('GET', '/whoami');
    this.handle = me.json.agent.handle;
    if (!Array.isArray(me.json.agent.tags) || me.json.agent.verified !== false)
      throw new Error('whoami shape');
    await this.request('POST', '/social/post', { content: `Hello from ${this.handle}, ready to play.` });
  }

  async heartbeat(): Promise<void> {
    await this.playMyTurns();
    await this.huntChallenges();
    await this.socialRound();
  }

  async playMyTurns(): Promise<void> {
    const turn = await this.request('GET', '/chess/games/my-turn?limit=50');
    for (const summary of turn.json.games) {
      const game = (await this.request('GET', `/chess/games/${summary.game_id}`)).json;
      if (!game.is_my_turn || !game.current_fen || !['white', 'black'].includes(game.my_color)) continue;
      const chess = new Chess(game.current_fen);
      const moves = chess.moves({ verbose: true });
      const pick = moves[(game.moves.length * 7 + moves.length) % moves.length]!;
      const uci = pick.from + pick.to + (pick.promotion ?? '');
      const played = await this.request('POST', '/chess/move', {
        game_id: game.game_id,
        move_san: pick.san,
        move_uci: uci,
      });
      if (played.status === 200)
        this.log.push(`move ${played.json.move.move_san} -> ${played.json.game_status}`);
    }
  }

  async huntChallenges(): Promise<void> {
    const open = (await this.request('GET', '/chess/challenges/open?limit=50')).json.challenges as Json[];
    const others = open.filter(
      (c) => c.challenger.handle !== this.handle && typeof c.challenge_id === 'string',
    );
    for (const challenge of others.slice(0, 1)) {
      const profile = (await this.request('GET', `/agents/${challenge.challenger.handle}`)).json.profile;
      if (typeof profile.chess_elo !== 'number') throw new Error('profile shape');
      const accepted = await this.request('POST', `/chess/challenges/${challenge.challenge_id}/accept`);
      if (accepted.status === 200) this.log.push(`accepted ${challenge.challenge_id}`);
    }
    const mine = await this.request('GET', `/agents/${this.handle}/open-challenge`);
    if (!mine.json.has_open_challenge) await this.request('POST', '/chess/challenge', {});
  }

  async socialRound(): Promise<void> {
    const feed = (await this.request('GET', '/feed?limit=10&sort=recent')).json.posts as Json[];
    const likeable = feed.find(
      (p) =>
        !p.has_liked &&
        p.author.handle !== this.handle &&
        typeof (p.likes_count ?? p.like_count) === 'number',
    );
    if (likeable && (await this.request('POST', '/social/like', { post_id: likeable.id })).status === 200)
      this.log.push('liked');
    const agents = (await this.request('GET', '/agents?limit=20')).json.agents as Json[];
    const target = agents.find((a) => a.handle !== this.handle && typeof a.social_score === 'number');
    if (
      target &&
      (await this.request('POST', '/social/follow', { target_handle: target.handle })).status === 200
    )
      this.log.push('followed');
    const notes = (await this.request('GET', '/feed/notifications?types=mentions&types=replies')).json;
    if (!Array.isArray(notes.mentions) || !Array.isArray(notes.replies_to_my_posts))
      throw new Error('notifications shape');
    const around = (await this.request('GET', '/chess/leaderboard/around?half_window=5')).json;
    if (!Array.isArray(around.leaderboard) || typeof around.total_ranked !== 'number')
      throw new Error('leaderboard shape');
  }
}

// ---- the harness ------------------------------------------------------------------------------------------

describe('an agent written for the real service', () => {
  it('plays, accepts, likes and follows against the twin unmodified, with base URL .../api', async () => {
    const agent = new ExternalAgent(`${origin}/api`);
    await agent.start('outside_agent');
    for (let beat = 0; beat < 120; beat++) {
      await agent.heartbeat();
      await fetch(`${origin}/_sim/clock/advance`, {
        method: 'POST',
        headers: CONTROL,
        body: JSON.stringify({ ms: 30_000 }),
      });
    }
    expect(agent.log.filter((l) => l.startsWith('move')).length).toBeGreaterThan(20);
    expect(agent.log.some((l) => l.startsWith('accepted'))).toBe(true);
    expect(agent.log).toContain('liked');
    expect(agent.log).toContain('followed');
    // The only refusals are the ones a busy world produces: a challenge taken a moment earlier, a follow or like repeat limit.
    const unexpected = agent.refusals.filter(
      (r) => !/challenge_not_open|rate_limit_exceeded|too_many_open_challenges/.test(r),
    );
    expect(unexpected).toEqual([]);
    const invariants = (await (
      await fetch(`${origin}/_sim/invariants`, { headers: CONTROL })
    ).json()) as Json;
    expect(invariants.invariants.filter((i: Json) => !i.passed)).toEqual([]);
  });
});
