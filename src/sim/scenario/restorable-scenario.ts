import { canonicalJson } from '../../kernel/canonical.js';
import { PERSONAS } from '../../../agents/registry.js';
import { SnapshotError } from '../live-snapshot.js';
import { isRecord } from './scenario-fields.js';
import { parseScenarioWithSource, ScenarioError, type ScenarioWithSource } from './scenario.js';

/**
 * What a scenario that arrives inside a snapshot may contain: a closed schema (an allow-list). A snapshot
 * is data from someone else (a bug report, a CI artifact), so every field it may set is listed here with
 * the shape of value it may hold, and none of those can name a file, a program, a module or an engine
 * option: numbers, booleans, and short words without path characters. Anything else is refused with one
 * line naming the field, before a world is built, so before any process, thread or file is touched.
 *
 * The list is a second gate in front of the scenario checks a file passes (`parseScenarioWithSource`),
 * which still run afterwards for ranges and enums. A snapshot of the server's own scenario (byte-equal as
 * canonical JSON) is not checked here: the owner's copy is used, with whatever the owner chose.
 */

/** The shapes an option value may have; each is data that can name nothing. */
type OptionKind = 'number' | 'boolean' | 'word' | 'words' | 'numbers';
type OptionTable = Readonly<Record<string, OptionKind>>;

const RANDOM_OPTIONS: OptionTable = {
  maxGames: 'number',
  seekChance: 'number',
  directShare: 'number',
  bountyShare: 'number',
  bountyMinSol: 'number',
  bountyMaxSol: 'number',
};

/**
 * Every persona a snapshot may name, with every option it may set. `engine` is here: it runs our own
 * stockfish.wasm in worker threads from a fixed file of ours (agents/engines/worker-engine.ts), with
 * `setoption`s fixed by the level table; a snapshot picks only a level name and think times.
 */
export const RESTORABLE_PERSONAS: ReadonlyMap<string, OptionTable> = new Map<string, OptionTable>([
  ['random', RANDOM_OPTIONS],
  ['greedy', RANDOM_OPTIONS],
  ['cautious', RANDOM_OPTIONS],
  ['slow', { ...RANDOM_OPTIONS, lateChance: 'number', maxThinkMs: 'number' }],
  ['flaky', { ...RANDOM_OPTIONS, missRate: 'number', skipChance: 'number', thinkMaxMs: 'number' }],
  ['entrant', { ...RANDOM_OPTIONS, joinChance: 'number' }],
  ['illegal', { ...RANDOM_OPTIONS, badChance: 'number', kinds: 'words' }],
  ['poller', { ...RANDOM_OPTIONS, reads: 'words' }],
  ['engine', { ...RANDOM_OPTIONS, level: 'word', thinkMinMs: 'number', thinkMaxMs: 'number' }],
  [
    'organizer',
    {
      ...RANDOM_OPTIONS,
      sizes: 'numbers',
      prizeSol: 'number',
      entryFeeSol: 'number',
      topFour: 'boolean',
      organizerFee: 'boolean',
      maxTournaments: 'number',
      minGames: 'number',
    },
  ],
  [
    'poster',
    {
      ...RANDOM_OPTIONS,
      postChance: 'number',
      likeChance: 'number',
      repeatRecapChance: 'number',
      verify: 'boolean',
    },
  ],
  [
    'replier',
    {
      replyChance: 'number',
      nestChance: 'number',
      mentionChance: 'number',
      answerChance: 'number',
      postChance: 'number',
      maxRepliesPerBeat: 'number',
    },
  ],
  ['spammer', { burst: 'number', honourChance: 'number', polls: 'number', verify: 'boolean' }],
  [
    'griefer',
    { downvoteChance: 'number', clearChance: 'number', redownChance: 'number', challengeChance: 'number' },
  ],
  ['human', { postChance: 'number', likeChance: 'number', followChance: 'number', replyChance: 'number' }],
  [
    'bounty-hunter',
    { minEloGap: 'number', maxBountySol: 'number', maxGames: 'number', huntChance: 'number' },
  ],
]);

/** Personas a snapshot may not name at all, and why (every other registered persona not listed above is refused too). */
export const REFUSED_PERSONAS: ReadonlyMap<string, string> = new Map([['uci', 'names a program']]);

const OWNER_ONLY = "only the server's owner can start programs (start serve with --scenario)";
const MODULES_OWNER_ONLY =
  "agent or invariant modules load only from the server's owner (start serve with --scenario)";

/** A short string with no path, URL or option syntax in it: a level, an enum value, a tier name. */
const WORD = /^[A-Za-z0-9_ -]{1,64}$/;
const MAX_TEXT = 2000;
const MAX_LIST = 64;
const MAX_GROUPS = 1000;
const MAX_RULESET_DEPTH = 6;

class Refusal extends Error {}

function refuse(field: string, why: string): never {
  throw new Refusal(`scenario.${field}: ${why}`);
}

/** The first field of a snapshot's scenario that is not on the list, as one line; undefined when all are. */
export function restorableScenarioProblem(source: Record<string, unknown>): string | undefined {
  try {
    checkTopLevel(source);
    return undefined;
  } catch (error) {
    if (error instanceof Refusal) return error.message;
    throw error;
  }
}

/**
 * The server's own scenario when the snapshot's is the same record; otherwise the snapshot's, refused at
 * its first field off the list, then checked as a file is.
 */
export function scenarioForRestore(
  source: Record<string, unknown>,
  own: ScenarioWithSource,
): ScenarioWithSource {
  if (canonicalJson(source) === canonicalJson(own.source)) return own;
  const problem = restorableScenarioProblem(source);
  if (problem !== undefined) throw new SnapshotError(problem);
  try {
    return parseScenarioWithSource(JSON.stringify(source), 'snapshot scenario');
  } catch (error) {
    if (error instanceof ScenarioError) throw new SnapshotError(error.problems.join('; '));
    throw error;
  }
}

const TOP_LEVEL: Readonly<Record<string, (value: unknown, field: string) => void>> = {
  name: (v, f) => checkText(v, f, 200, true),
  description: (v, f) => checkText(v, f, MAX_TEXT, false),
  seed: (v, f) => (typeof v === 'number' ? checkNumber(v, f) : checkText(v, f, 200, true)),
  start: (v, f) => checkText(v, f, 40, true),
  duration: checkDurationValue,
  ruleset: (v, f) => checkData(v, f, 0),
  escrow: checkEscrow,
  population: checkPopulationList,
  // Names of the run's own checkers (`all`, or a list): words, never paths.
  requireExercised: (v, f) => (typeof v === 'string' ? checkWord(v, f) : checkList(v, f, checkWord)),
  invariants: (_v, f) => refuse(f, `names invariant modules; ${MODULES_OWNER_ONLY}`),
  // A fault profile is data: kinds, rates, durations, route groups and handles; its bodies are built by the code.
  faults: (v, f) =>
    checkFields(v, f, {
      name: (n, g) => checkText(n, g, 64, true),
      description: (d, g) => checkText(d, g, MAX_TEXT, false),
      rules: (r, g) => checkList(r, g, (rule, h) => checkData(rule, h, 0)),
    }),
};

/** The top-level fields a snapshot's scenario may set (every other is refused). */
export const RESTORABLE_TOP_LEVEL: readonly string[] = Object.keys(TOP_LEVEL).filter(
  (k) => k !== 'invariants',
);

function checkTopLevel(source: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(source)) {
    const check = TOP_LEVEL[key];
    if (!check) refuse(key, notOnTheList(RESTORABLE_TOP_LEVEL));
    check(value, key);
  }
}

function checkEscrow(value: unknown, field: string): void {
  const record = checkRecord(value, field);
  for (const [key, inner] of Object.entries(record)) {
    const where = `${field}.${key}`;
    if (key === 'latency') checkFields(inner, where, { min: checkDurationValue, max: checkDurationValue });
    else if (key === 'faultRate') checkNumber(inner, where);
    else if (key === 'crossCheck') checkBoolean(inner, where);
    else refuse(where, notOnTheList(['latency', 'faultRate', 'crossCheck']));
  }
}

function checkPopulationList(value: unknown, field: string): void {
  if (!Array.isArray(value) || value.length > MAX_GROUPS)
    refuse(field, `must be a list of at most ${MAX_GROUPS} groups`);
  value.forEach((entry, i) => {
    const where = `${field}[${i}]`;
    if (isRecord(entry) && 'mix' in entry) checkFields(entry, where, { mix: checkMix });
    else checkGroup(entry, where);
  });
}

const HEARTBEAT = {
  min: checkDurationValue,
  max: checkDurationValue,
  distribution: checkWord,
  median: checkDurationValue,
};
const ELO = { mean: checkNumber, sd: checkNumber };

function checkGroup(value: unknown, field: string): void {
  const group = checkRecord(value, field);
  if ('module' in group) refuse(`${field}.module`, `names an agent module; ${MODULES_OWNER_ONLY}`);
  const persona = checkPersona(group['persona'], `${field}.persona`);
  checkFields(group, field, {
    persona: () => undefined,
    account: checkWord,
    count: checkNumber,
    heartbeat: (v, f) => checkFields(v, f, HEARTBEAT),
    airdrop: checkNumber,
    options: (v, f) => checkOptions(v, f, persona),
    strength: (v, f) => checkFields(v, f, ELO),
  });
}

function checkMix(value: unknown, field: string): void {
  const mix = checkRecord(value, field);
  const personas = checkRecord(mix['personas'] ?? {}, `${field}.personas`);
  for (const [name, share] of Object.entries(personas)) {
    checkPersona(name, `${field}.personas.${name}`);
    checkNumber(share, `${field}.personas.${name}`);
  }
  checkFields(mix, field, {
    total: checkNumber,
    personas: () => undefined,
    heartbeat: (v, f) => checkFields(v, f, HEARTBEAT),
    elo: (v, f) => checkFields(v, f, ELO),
    airdrop: checkNumber,
    options: (v, f) => {
      for (const [name, options] of Object.entries(checkRecord(v, f)))
        checkOptions(options, `${f}.${name}`, checkPersona(name, `${f}.${name}`));
    },
  });
}

/** The persona's name when a snapshot may name it; a refusal naming the field otherwise. */
function checkPersona(value: unknown, field: string): string {
  if (typeof value !== 'string' || !PERSONAS.has(value))
    refuse(field, `must be one of ${[...RESTORABLE_PERSONAS.keys()].join(', ')}`);
  const refused = REFUSED_PERSONAS.get(value);
  if (refused !== undefined) refuse(field, `${value} ${refused}; ${OWNER_ONLY}`);
  if (!RESTORABLE_PERSONAS.has(value))
    refuse(field, `${value} is not on the list of personas a snapshot may name; start serve with --scenario`);
  return value;
}

function checkOptions(value: unknown, field: string, persona: string): void {
  const table = RESTORABLE_PERSONAS.get(persona)!;
  for (const [key, option] of Object.entries(checkRecord(value, field))) {
    const kind = table[key];
    const where = `${field}.${key}`;
    if (kind === undefined) refuse(where, notOnTheList(Object.keys(table)));
    OPTION_CHECKS[kind](option, where);
  }
}

const OPTION_CHECKS: Readonly<Record<OptionKind, (value: unknown, field: string) => void>> = {
  number: checkNumber,
  boolean: checkBoolean,
  word: checkWord,
  words: (v, f) => checkList(v, f, checkWord),
  numbers: (v, f) => checkList(v, f, checkNumber),
};

/** Every key of `value` must have a check in `fields`, which then checks its value. */
function checkFields(
  value: unknown,
  field: string,
  fields: Readonly<Record<string, (value: unknown, field: string) => void>>,
): void {
  for (const [key, inner] of Object.entries(checkRecord(value, field))) {
    const check = fields[key];
    if (!check) refuse(`${field}.${key}`, notOnTheList(Object.keys(fields)));
    check(inner, `${field}.${key}`);
  }
}

/** The ruleset only feeds pure rule functions (src/rules/): any tree of numbers, booleans and words; its own check names unknown rules. */
function checkData(value: unknown, field: string, depth: number): void {
  if (typeof value === 'number') return checkNumber(value, field);
  if (typeof value === 'boolean') return;
  if (typeof value === 'string') return checkWord(value, field);
  if (depth >= MAX_RULESET_DEPTH || (!Array.isArray(value) && !isRecord(value)))
    refuse(field, `must be numbers, true/false and short words, at most ${MAX_RULESET_DEPTH} levels deep`);
  if (Array.isArray(value)) {
    if (value.length > MAX_LIST) refuse(field, `must list at most ${MAX_LIST} entries`);
    value.forEach((inner, i) => checkData(inner, `${field}[${i}]`, depth + 1));
    return;
  }
  for (const [key, inner] of Object.entries(value)) {
    checkWord(key, `${field}.${key}`);
    checkData(inner, `${field}.${key}`, depth + 1);
  }
}

function checkRecord(value: unknown, field: string): Record<string, unknown> {
  if (!isRecord(value)) refuse(field, 'must be a mapping');
  return value;
}

function checkList(value: unknown, field: string, each: (value: unknown, field: string) => void): void {
  if (!Array.isArray(value) || value.length > MAX_LIST)
    refuse(field, `must be a list of at most ${MAX_LIST} entries`);
  value.forEach((inner, i) => each(inner, `${field}[${i}]`));
}

function checkNumber(value: unknown, field: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) refuse(field, 'must be a number');
}

function checkBoolean(value: unknown, field: string): void {
  if (typeof value !== 'boolean') refuse(field, 'must be true or false');
}

function checkWord(value: unknown, field: string): void {
  if (typeof value !== 'string' || !WORD.test(value))
    refuse(field, 'must be a short word (letters, digits, spaces, _ and -), which names no file or program');
}

/** A duration as a scenario writes it: `90s`, `24h`, or a number (the scenario check asks for a unit). */
function checkDurationValue(value: unknown, field: string): void {
  if (typeof value === 'number') return checkNumber(value, field);
  if (typeof value !== 'string' || !/^[0-9a-z. ]{1,20}$/.test(value))
    refuse(field, 'must be a duration such as 500ms, 90s, 5m, 24h or 2d');
}

function checkText(value: unknown, field: string, max: number, oneLine: boolean): void {
  if (typeof value !== 'string' || value.length > max || (oneLine && /[\r\n]/.test(value)))
    refuse(field, `must be ${oneLine ? 'one line of ' : ''}text of at most ${max} characters`);
}

function notOnTheList(allowed: readonly string[]): string {
  return `not a field a snapshot may set (it may set ${allowed.join(', ')}); start serve with this scenario (--scenario) to use it`;
}
