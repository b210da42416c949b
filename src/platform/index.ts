import { Platform, type PlatformOptions } from './platform.js';
import { onChallengeExpiry } from './challenges.js';
import { onTurnDeadline } from './games.js';
import { onBountyFundingDeadline, onBountyGameEnded, onBountyTransfer } from './bounties.js';
import { onTournamentGameEnded, onTournamentTimer, onTournamentTransfer } from './tournaments.js';
import { onTransferDue } from './transfers.js';

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
  return platform;
}
