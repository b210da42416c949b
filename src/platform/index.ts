import { Platform, type PlatformOptions, type PlatformTimer } from './platform.js';
import { onChallengeExpiry } from './chess/challenges.js';
import { onTurnDeadline } from './chess/games.js';
import { onBountyFundingDeadline, onBountyGameEnded, onBountyTransfer } from './money/bounties.js';
import { onTournamentGameEnded, onTournamentTimer, onTournamentTransfer } from './chess/tournaments.js';
import { attemptTransfer } from './money/transfers.js';
import { recordNotifications } from './social/notifications.js';
import { recordActivity } from './social/activity.js';

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
