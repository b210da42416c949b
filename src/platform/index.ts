import { Platform, type PlatformOptions } from './platform.js';
import { onChallengeExpiry } from './challenges.js';
import { onTurnDeadline } from './games.js';
import { onBountyFundingDeadline, onBountyGameEnded, onBountyTransfer } from './bounties.js';
import { onTournamentGameEnded, onTournamentTimer, onTournamentTransfer } from './tournaments.js';
import { onTransferDue } from './transfers.js';
import { recordNotifications } from './notifications.js';
import { recordActivity } from './activity.js';

export { Platform } from './platform.js';
export type { PlatformOptions, PlatformTimer } from './platform.js';

/** A platform with every timer handler wired. */
export function createPlatform(options: PlatformOptions): Platform {
  const platform = new Platform(options);
  platform.registerTimerHandler('turn_deadline', onTurnDeadline);
  platform.registerTimerHandler('challenge_expiry', onChallengeExpiry);
  platform.registerTimerHandler('transfer_due', onTransferDue);
  platform.registerTimerHandler('bounty_funding_deadline', onBountyFundingDeadline);
  platform.registerTimerHandler('tournament_timer', onTournamentTimer);
  platform.registerTransferHook('bounty', onBountyTransfer);
  platform.registerTransferHook('tournament', onTournamentTransfer);
  platform.registerGameEndHook(onBountyGameEnded);
  platform.registerGameEndHook(onTournamentGameEnded);
  // Derived read models: notifications and activity rows are built from the event log as it is written.
  platform.onEvent((event) => recordNotifications(platform, event));
  platform.onEvent((event) => recordActivity(platform, event));
  return platform;
}
