import { existsSync, statSync } from 'node:fs';
import { basename, extname, isAbsolute, resolve } from 'node:path';
import { LEVEL_NAMES, OPPONENT_PERSONAS } from '../sim/run-plan.js';
import { AGENT_MODULE_EXTENSIONS } from '../../agents/adapters/byo.js';

/**
 * A player of `compare --agent` (or an opponent of `--vs`), as written on the command line: a registered
 * persona (`greedy`), an engine level (`sf-3`, the engine persona at that level), or a module path. A word
 * with a `/` or an extension is a module, resolved from the current directory; anything else is a name.
 */
export interface PlayerSpec {
  /** As written on the command line (what compare.json records). */
  written: string;
  /**
   * How every output names it (src/report/agent-names.ts): the persona or level; a module by its file stem
   * until `compare` has loaded it, then by the name it declares.
   */
  name: string;
  persona?: string;
  options?: Record<string, unknown>;
  /** The module's absolute path. */
  module?: string;
}

export function isModuleWord(word: string): boolean {
  return word.includes('/') || extname(word) !== '';
}

/** The player `written` names, or a one-line problem naming `option`. */
export function parsePlayer(written: string, option: string, cwd: string): PlayerSpec | string {
  const word = written.trim();
  if (word === '') return `${option}: give a persona name or a module path`;
  if (isModuleWord(word)) return modulePlayer(word, option, cwd);
  if (LEVEL_NAMES.includes(word))
    return { written: word, name: word, persona: 'engine', options: { level: word } };
  if (OPPONENT_PERSONAS.includes(word)) return { written: word, name: word, persona: word };
  return `${option} ${word}: not a persona (${OPPONENT_PERSONAS.join(', ')}), an engine level (${LEVEL_NAMES[0]} to ${LEVEL_NAMES.at(-1)}) or a module path (a path with / or an extension)`;
}

function modulePlayer(word: string, option: string, cwd: string): PlayerSpec | string {
  const file = isAbsolute(word) ? word : resolve(cwd, word);
  const extension = extname(file);
  if (!(AGENT_MODULE_EXTENSIONS as readonly string[]).includes(extension))
    return `${option} ${word}: unsupported file type "${extension}" (expected ${AGENT_MODULE_EXTENSIONS.join(', ')})`;
  if (!existsSync(file)) return `${option} ${word}: no such file (looked for ${file})`;
  if (!statSync(file).isFile()) return `${option} ${word}: not a file`;
  return { written: word, name: basename(file, extension), module: file };
}
