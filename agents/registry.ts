import type { PersonaFactory } from './persona.js';
import { randomPersona } from './random.js';
import { slowPersona } from './slow.js';
import { organizerPersona } from './organizer.js';
import { entrantPersona } from './entrant.js';
import { posterPersona } from './poster.js';
import { replierPersona } from './replier.js';
import { spammerPersona } from './spammer.js';
import { grieferPersona } from './griefer.js';
import { humanPersona } from './human.js';
import { greedyPersona } from './greedy.js';
import { cautiousPersona } from './cautious.js';
import { bountyHunterPersona } from './bounty-hunter.js';
import { flakyPersona } from './flaky.js';
import { illegalPersona } from './illegal.js';
import { pollerPersona } from './poller.js';
import { uciPersona } from './uci.js';
import { enginePersona } from './engine.js';

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
 * mix): each agent gets a calibrated level from `levelsFor` in agents/engine/strength.ts.
 */
export const STRENGTH_PERSONAS: ReadonlySet<string> = new Set([enginePersona.name]);
