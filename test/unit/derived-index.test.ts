import { describe, expect, it } from 'vitest';
import { createPlatform } from '../../src/platform/index.js';
import { Platform } from '../../src/platform/platform.js';
import { register } from '../../src/platform/identity/identity.js';
import { createPost } from '../../src/platform/social/posts.js';
import { POST_INDEX, postIndex } from '../../src/platform/social/post-index.js';
import {
  derivedIndex,
  registerDerivedIndex,
  type DerivedIndexKind,
} from '../../src/platform/derived-index.js';

const OPTIONS = { seed: 'derived-index', startMs: Date.UTC(2026, 0, 1) };

/** A kind that counts what it was built from and what it followed, to see when the registry calls it. */
function countingKind(): DerivedIndexKind<{ builtFrom: number; followed: string[] }> {
  return {
    name: 'counting',
    build: (p) => ({ builtFrom: p.state.agents.size, followed: [] }),
    follow: (index, event) => index.followed.push(event.type),
  };
}

describe('read indexes (src/platform/derived-index.ts)', () => {
  it('are read only when registered: createPlatform registers them, a bare Platform has none', () => {
    expect(() => postIndex(new Platform(OPTIONS))).toThrow('read index "posts" is not registered');
    const p = createPlatform(OPTIONS);
    expect(postIndex(p)).toBe(derivedIndex(p, POST_INDEX));
  });

  it('build an index on its first read, then hand it every later event, once', () => {
    const p = createPlatform(OPTIONS);
    const kind = countingKind();
    registerDerivedIndex(p, kind);
    const { agent } = register(p, { handle: 'first' });
    const index = derivedIndex(p, kind);
    expect(index.builtFrom).toBe(1);
    createPost(p, agent, { content: 'hello' });
    expect(derivedIndex(p, kind)).toBe(index);
    expect(index.followed).toEqual(['post_created']);
  });
});
