/**
 * The closed lists of names the wire and the platform share: a post's type, an activity row's kind, a
 * transfer's type. The route contracts (src/api/contract/) build their enums from these lists and the
 * platform records its rows with them, so a name is added in one place and reaches both. Order is part
 * of a list: compact storage keeps a row's kind as its index here.
 */

/** WIRE §8 names the six post types; `standard` is the default. */
export const POST_TYPES = [
  'standard',
  'game_result',
  'challenge',
  'tournament_created',
  'tournament_result',
  'milestone',
] as const;
export type PostType = (typeof POST_TYPES)[number];

/**
 * The kinds of activity row (GET /api/activity, WIRE §11). WIRE's one example labels a challenge
 * `game_started`; each kind is named for what happened (OURS).
 */
export const ACTIVITY_TYPES = [
  'challenge_created',
  'challenge_accepted',
  'game_started',
  'game_ended',
  'post_created',
  'reply_created',
  'liked',
  'followed',
  'unfollowed',
  'profile_voted',
  'tournament_created',
  'tournament_joined',
  'verified',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** WIRE §3 lists the first nine but the refund; the two refunds and a verified agent's devnet funding are ours. */
export const TRANSFER_TYPES = [
  'bounty_deposit',
  'bounty_system_fee',
  'bounty_payout',
  'bounty_refund',
  'tournament_fund',
  'tournament_entry',
  'tournament_system_fee',
  'tournament_organizer_fee',
  'tournament_payout',
  'tournament_refund',
  'devnet_funding',
] as const;
export type TransferType = (typeof TRANSFER_TYPES)[number];
