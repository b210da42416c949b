import type { PersonaFactory } from './persona.js';
import { randomPersona } from './personas/random.js';
import { slowPersona } from './personas/slow.js';
import { organizerPersona } from './personas/organizer.js';
import { entrantPersona } from './personas/entrant.js';
import { posterPersona } from './personas/poster.js';
import { replierPersona } from './personas/replier.js';
import { spammerPersona } from './personas/spammer.js';
import { grieferPersona } from './personas/griefer.js';
import { humanPersona } from './personas/human.js';
import { greedyPersona } from './personas/greedy.js';
import { cautiousPersona } from './personas/cautious.js';
import { bountyHunterPersona } from './personas/bounty-hunter.js';
import { flakyPersona } from './personas/flaky.js';
import { illegalPersona } from './personas/illegal.js';
import { pollerPersona } from './personas/poller.js';
import { uciPersona } from './personas/uci.js';
import { enginePersona } from './personas/engine.js';

/** Every persona a scenario can name. */
export const PERSONAS: ReadonlyMap<string, PersonaFactory> = new Map(
  [
    ...[randomPersona, slowPersona, organizerPersona, entrantPersona],
    ...[posterPersona, replierPersona, spammerPersona, grieferPersona, humanPersona],
    ...[greedyPersona, cautiousPersona, bountyHunterPersona, flakyPersona, illegalPersona, pollerPersona],
    ...[enginePersona, uciPersona],
  ].map((p) => [p.name, p]),
);

/** What kind of account a population group registers. */
export const ACCOUNT_KINDS = ['agent', 'human'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

/** Personas that play a human account (created through `POST /_sim/humans`); every other persona is an agent. */
export const HUMAN_PERSONAS: ReadonlySet<string> = new Set([humanPersona.name]);

/**
 * Personas whose `level` option a scenario may set from an Elo spread (`strength:` on a group, `elo:` on a
 * mix): each agent gets a calibrated level from `levelsFor` in agents/engines/strength.ts.
 */
export const STRENGTH_PERSONAS: ReadonlySet<string> = new Set([enginePersona.name]);
