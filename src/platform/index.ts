import { Platform, type PlatformOptions, type PlatformTimer } from './platform.js';
import { onChallengeExpiry } from './chess/challenges.js';
import { onTurnDeadline } from './chess/games.js';
import { onBountyFundingDeadline, onBountyGameEnded, onBountyTransfer } from './chess/bounties.js';
import { onTournamentGameEnded, onTournamentTimer, onTournamentTransfer } from './chess/tournaments.js';
import { attemptTransfer } from './money/transfers.js';
import { recordNotifications } from './social/notifications.js';
import { recordActivity } from './social/activity.js';
import { registerDerivedIndex } from './derived-index.js';
import { OWNER_INDEX } from './identity/owner-index.js';
import { POST_INDEX } from './social/post-index.js';
import { LIKE_INDEX } from './social/like-index.js';
import { CHALLENGE_INDEX } from './chess/challenge-index.js';
import { GAME_INDEX } from './chess/game-index.js';
import { LEADERBOARD_INDEX } from './chess/leaderboard-index.js';

export { Platform } from './platform.js';
export type { PlatformOptions, PlatformTimer } from './platform.js';

/** A platform with every timer handler wired. */
export function createPlatform(options: PlatformOptions): Platform {
  const platform = new Platform(options);
  // Timers fire later, on the virtual clock (Platform.advanceTo), which looks up each kind's handler here.
  platform.registerTimerHandler('turn_deadline', onTurnDeadline);
  platform.registerTimerHandler('challenge_expiry', onChallengeExpiry);
  platform.registerTimerHandler('transfer_due', onTransferDue);
  platform.registerTimerHandler('bounty_funding_deadline', onBountyFundingDeadline);
  platform.registerTimerHandler('tournament_timer', onTournamentTimer);
  // Bounty payouts and tournament advancement follow a game's result. A registry rather than a call from
  // games.ts, because both modules import games.ts (to create, start and cancel games): a call back would
  // be an import cycle.
  platform.registerGameEndHook(onBountyGameEnded);
  platform.registerGameEndHook(onTournamentGameEnded);
  // Derived read models: notifications and activity rows are built from the event log as it is written.
  platform.onEvent((event) => recordNotifications(platform, event));
  platform.onEvent((event) => recordActivity(platform, event));
  // Read indexes: each is built from the state on the first read that needs it and from then on follows
  // the event log (src/platform/derived-index.ts); a read of a kind not registered here throws.
  registerDerivedIndex(platform, OWNER_INDEX);
  registerDerivedIndex(platform, POST_INDEX);
  registerDerivedIndex(platform, LIKE_INDEX);
  registerDerivedIndex(platform, CHALLENGE_INDEX);
  registerDerivedIndex(platform, GAME_INDEX);
  registerDerivedIndex(platform, LEADERBOARD_INDEX);
  return platform;
}

/**
 * The `transfer_due` timer: one attempt of a queued transfer reaches the network. One that settled or
 * finally failed goes straight to the owner of its escrow, which books it through the escrow state machine
 * (src/platform/money/escrows.ts) and reacts. It is here, above both owners, because the owners import the
 * transfer queue: the queue calling them would be an import cycle.
 */
function onTransferDue(p: Platform, timer: PlatformTimer): void {
  const finished = attemptTransfer(p, timer);
  if (finished?.purpose.kind === 'bounty') onBountyTransfer(p, finished);
  else if (finished?.purpose.kind === 'tournament') onTournamentTransfer(p, finished);
}
