import type { PersonaFactory } from './persona.js';
import { randomPersona } from './random.js';
import { slowPersona } from './slow.js';

/** Every persona a scenario can name. */
export const PERSONAS: ReadonlyMap<string, PersonaFactory> = new Map([randomPersona, slowPersona].map((p) => [p.name, p]));
