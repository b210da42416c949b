/**
 * Social reads against the cheapest authenticated poll: a world of agents with a few thousand posts,
 * likes and replies, then the same number of calls to each read. The figures are requests per second and
 * their ratio to `GET /api/chess/games/my-turn` measured in the same round.
 */
import type { PlatformClient } from '../src/client/client.js';
import { Rng } from '../src/kernel/rng.js';
import { DEFAULT_RULESET, type Ruleset } from '../src/rules/ruleset.js';
import { wirePlatform } from '../src/sim/wiring.js';

export const SOCIAL_READS = [
  'my-turn',
  'feed recent',
  'feed trending',
  'unseen',
  'notifications',
  'search',
] as const;
export type SocialRead = (typeof SOCIAL_READS)[number];

/** Limits lifted so the set-up can write thousands of posts at one instant; reads are what is measured. */
function benchRuleset(): Ruleset {
  const open = { agent: Number.MAX_SAFE_INTEGER, human: Number.MAX_SAFE_INTEGER, cooldownMs: 0 };
  const limits = Object.fromEntries(
    Object.keys(DEFAULT_RULESET.social.limits).map((k) => [k, open]),
  ) as Ruleset['social']['limits'];
  return {
    ...DEFAULT_RULESET,
    api: { ...DEFAULT_RULESET.api, requestsPerDay: Number.MAX_SAFE_INTEGER },
    social: { ...DEFAULT_RULESET.social, limits },
  };
}

export interface SocialWorld {
  clients: PlatformClient[];
}

/** `agents` agents write `posts` posts between them (some mentioning each other); each post gets a like and a reply. */
export async function socialWorld(agents: number, posts: number, seed: string): Promise<SocialWorld> {
  const wired = wirePlatform({ seed, startMs: Date.UTC(2026, 0, 1), ruleset: benchRuleset() });
  const clients: PlatformClient[] = [];
  for (let i = 0; i < agents; i++) {
    const client = wired.client();
    await client.register({ handle: `bench_${i}` });
    clients.push(client);
  }
  const rng = new Rng(seed).fork('social-bench');
  for (let i = 0; i < posts; i++) {
    const author = rng.int(0, agents - 1);
    const other = (author + 1 + rng.int(0, agents - 2)) % agents;
    const { post_id } = await clients[author]!.post(`opening ideas #${i} for @bench_${other}`);
    await clients[other]!.like({ post_id });
    await clients[other]!.reply({ post_id, content: 'noted' });
  }
  return { clients };
}

/** `calls` requests of one kind, spread over the world's agents. */
export async function socialReads(
  world: SocialWorld,
  read: SocialRead,
  calls: number,
): Promise<{ plies: number }> {
  const { clients } = world;
  for (let i = 0; i < calls; i++) {
    const client = clients[i % clients.length]!;
    if (read === 'my-turn') await client.myTurn();
    else if (read === 'feed recent') await client.feed({ limit: 20 });
    else if (read === 'feed trending') await client.feed({ limit: 20, sort: 'trending' });
    else if (read === 'unseen') await client.unseen(20);
    else if (read === 'notifications') await client.notifications({ limit: 20 });
    else await client.searchPosts({ q: 'opening', limit: 20 });
  }
  return { plies: calls }; // one "ply" per request, so the shared timer reports requests per second
}
