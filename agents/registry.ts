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

/** Every persona a scenario can name. */
export const PERSONAS: ReadonlyMap<string, PersonaFactory> = new Map(
  [randomPersona, slowPersona, organizerPersona, entrantPersona, posterPersona, replierPersona, spammerPersona, grieferPersona, humanPersona].map((p) => [p.name, p]),
);

/** What kind of account a population group registers. */
export const ACCOUNT_KINDS = ['agent', 'human'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

/** Personas that play a human account (created through `POST /_sim/humans`); every other persona is an agent. */
export const HUMAN_PERSONAS: ReadonlySet<string> = new Set([humanPersona.name]);
