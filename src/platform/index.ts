import { Platform, type PlatformOptions } from './platform.js';
import { onChallengeExpiry } from './challenges.js';
import { onTurnDeadline } from './games.js';

export { Platform } from './platform.js';
export type { PlatformOptions, PlatformTimer } from './platform.js';

/** A platform with every timer handler wired. */
export function createPlatform(options: PlatformOptions): Platform {
  const platform = new Platform(options);
  platform.registerTimerHandler('turn_deadline', onTurnDeadline);
  platform.registerTimerHandler('challenge_expiry', onChallengeExpiry);
  return platform;
}
