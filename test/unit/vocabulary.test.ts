import { describe, expect, expectTypeOf, it } from 'vitest';
import * as Agents from '../../src/api/contract/agents.js';
import * as Feed from '../../src/api/contract/feed.js';
import * as Search from '../../src/api/contract/search.js';
import * as Social from '../../src/api/contract/social.js';
import * as Tournaments from '../../src/api/contract/tournaments.js';
import * as State from '../../src/platform/state.js';
import { PRIZE_DISTRIBUTIONS } from '../../src/rules/money/fees.js';
import { ACTIVITY_SORTS } from '../../src/rules/social/activity-rank.js';
import { FEED_SORTS, REPLY_SORTS } from '../../src/rules/social/feed.js';
import {
  ACTIVITY_TYPES,
  POST_TYPES,
  TRANSFER_TYPES,
  type ActivityType,
  type PostType,
  type TransferType,
} from '../../src/rules/vocabulary.js';

/**
 * Each closed list of names the wire shares with the code below it is written once, in src/rules; the
 * contracts build their enums from that very array, and the platform records rows with the same names.
 */
describe('the closed lists of the wire', () => {
  it('are the rules’ own arrays in the contracts, not copies', () => {
    expect(Social.POST_TYPES).toBe(POST_TYPES);
    expect(Feed.ACTIVITY_TYPES).toBe(ACTIVITY_TYPES);
    expect(Agents.TRANSFER_TYPES).toBe(TRANSFER_TYPES);
    expect(Feed.FEED_SORTS).toBe(FEED_SORTS);
    expect(Search.REPLY_SORTS).toBe(REPLY_SORTS);
    expect(Agents.ACTIVITY_SORTS).toBe(ACTIVITY_SORTS);
    expect(Tournaments.PRIZE_DISTRIBUTIONS).toBe(PRIZE_DISTRIBUTIONS);
  });

  it('hold each name once', () => {
    for (const list of [POST_TYPES, ACTIVITY_TYPES, TRANSFER_TYPES])
      expect(new Set(list).size).toBe(list.length);
  });

  // Compact storage keeps a row's kind as its index, so the platform must use these very arrays.
  it('are the platform’s own lists too, not copies', () => {
    expect(State.POST_TYPES).toBe(POST_TYPES);
    expect(State.ACTIVITY_TYPES).toBe(ACTIVITY_TYPES);
    expect(State.TRANSFER_TYPES).toBe(TRANSFER_TYPES);
    expectTypeOf<State.PostType>().toEqualTypeOf<PostType>();
    expectTypeOf<State.ActivityType>().toEqualTypeOf<ActivityType>();
    expectTypeOf<State.TransferType>().toEqualTypeOf<TransferType>();
  });
});
