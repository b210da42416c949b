import { extname, resolve } from 'node:path';
import { importFile } from '../../../agents/adapters/byo.js';
import type { PlatformEvent } from '../../platform/events.js';
import type { Platform } from '../../platform/platform.js';
import type { Ruleset } from '../../rules/ruleset.js';
import type { Json } from '../../kernel/checkpoint.js';
import { Checker } from './checker.js';
import { isRecord } from '../../kernel/records.js';

/**
 * Invariants of the user's own, named by a scenario as agent modules are:
 *
 *   invariants:
 *     - module: ./checks/no-timeouts.mjs
 *
 * The module's default export is `{ name, description?, create(context) }`; `create` returns a checker
 * `{ check(event, expect), finalCheck?(expect) }`, where `expect(condition, message)` counts one check and
 * records a violation when the condition is false, as the built-in checkers do. A checker sees a copy of
 * every platform event, in order; `context.platform` is the platform itself, for end-of-run questions
 * (read it, never change it). A checker that throws records a violation instead of stopping the run.
 */
export interface InvariantModuleSpec {
  path: string;
  baseDir: string;
}

export type Expect = (condition: unknown, message: string) => void;

export interface UserChecker {
  check(event: Readonly<PlatformEvent>, expect: Expect): void;
  finalCheck?(expect: Expect): void;
}

export interface UserInvariantContext {
  ruleset: Ruleset;
  platform: Platform;
}

export class InvariantModuleError extends Error {}

const NAME = /^[a-z][a-z0-9_]{0,63}$/;
const EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts', '.mts'];

/** Loads each module and builds its checker; every fault is one InvariantModuleError naming the path. */
export async function loadUserInvariants(
  specs: readonly InvariantModuleSpec[],
  context: UserInvariantContext,
  taken: ReadonlySet<string>,
): Promise<Checker[]> {
  const names = new Set(taken);
  const checkers: Checker[] = [];
  for (const spec of specs) {
    const checker = await loadOne(spec, context);
    if (names.has(checker.name))
      throw new InvariantModuleError(
        `invariant module ${spec.path}: the name "${checker.name}" is already taken by another invariant`,
      );
    names.add(checker.name);
    checkers.push(checker);
  }
  return checkers;
}

async function loadOne(spec: InvariantModuleSpec, context: UserInvariantContext): Promise<Checker> {
  const fail = (problem: string): never => {
    throw new InvariantModuleError(`invariant module ${spec.path}: ${problem.replace(/\s*\n\s*/g, ' ')}`);
  };
  const file = resolve(spec.baseDir, spec.path);
  if (!EXTENSIONS.includes(extname(file)))
    fail(`unsupported file type "${extname(file)}" (expected ${EXTENSIONS.join(', ')})`);
  let module: Record<string, unknown> = {};
  try {
    module = await importFile(file);
  } catch (error) {
    fail(`import threw: ${firstLine(error)}`);
  }
  const exported = module['default'];
  if (!isRecord(exported)) return fail('the default export must be { name, description, create(context) }');
  const { name, description, create } = exported;
  if (typeof name !== 'string' || !NAME.test(name))
    fail('name: must be lower-case letters, digits and _, starting with a letter (at most 64)');
  if (description !== undefined && typeof description !== 'string') fail('description: must be a string');
  if (typeof create !== 'function')
    fail('create: must be a function (context) => { check(event, expect), finalCheck?(expect) }');
  let made: unknown;
  try {
    made = (create as (c: UserInvariantContext) => unknown).call(exported, context);
  } catch (error) {
    fail(`create threw: ${firstLine(error)}`);
  }
  if (!isRecord(made) || typeof made['check'] !== 'function')
    fail('create(context) must return an object with check(event, expect)');
  if (isRecord(made) && made['finalCheck'] !== undefined && typeof made['finalCheck'] !== 'function')
    fail('finalCheck: must be a function (expect) when given');
  return new UserInvariant(
    name as string,
    (description as string | undefined) ?? `user invariant from ${spec.path}`,
    made as UserChecker,
  );
}

/** Adapts a user's checker to the built-in Checker: same counting, same violation records. */
export class UserInvariant extends Checker {
  constructor(
    readonly name: string,
    readonly description: string,
    private readonly user: UserChecker,
  ) {
    super();
  }

  /** A user's checker keeps its state where no checkpoint can see it: a world with one is not checkpointable. */
  protected saveModel(): Json {
    throw new Error(`user invariant ${this.name} cannot be checkpointed`);
  }

  protected loadModel(): void {
    throw new Error(`user invariant ${this.name} cannot be checkpointed`);
  }

  protected check(event: PlatformEvent): void {
    this.#guarded(event.t, () => this.user.check({ ...event }, this.#expectAt(event.t)));
  }

  finalCheck(t: number): void {
    if (this.user.finalCheck) this.#guarded(t, () => this.user.finalCheck!(this.#expectAt(t)));
  }

  #expectAt(t: number): Expect {
    return (condition, message) => this.expect(Boolean(condition), t, () => String(message));
  }

  #guarded(t: number, run: () => void): void {
    try {
      run();
    } catch (error) {
      this.expect(false, t, () => `the checker threw: ${firstLine(error)}`);
    }
  }
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]!.slice(0, 300);
}
