import type { PersonaFactory } from './persona.js';
import { randomPersona } from './random.js';
import { slowPersona } from './slow.js';
import { organizerPersona } from './organizer.js';
import { entrantPersona } from './entrant.js';

/** Every persona a scenario can name. */
export const PERSONAS: ReadonlyMap<string, PersonaFactory> = new Map([randomPersona, slowPersona, organizerPersona, entrantPersona].map((p) => [p.name, p]));
