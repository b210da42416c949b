/**
 * Bring your own agent, in process: a scenario names a module file (`module: ./my-agent.js`) and its
 * default export plays like any built-in persona, through `ctx.client`, `ctx.rng` and `ctx.later`.
 *
 * The default export is either a `PersonaFactory` ({ name?, description?, create(options), checkOptions? })
 * or a class or function that takes the options and gives a `Persona`. Every way a module can be wrong ends
 * in one `AgentModuleError` whose single-line message names the path as written and what is wrong, so a
 * scenario author sees the fault before (or, for heartbeats, exactly when) it matters.
 */
import { existsSync, statSync } from 'node:fs';
import { register } from 'node:module';
import { basename, extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AgentContext, Persona, PersonaFactory } from '../persona.js';

export const AGENT_MODULE_EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts', '.mts'] as const;
/** Agent handles are `<name>_0001`...: with the 32-character handle limit (WIRE §2) that leaves this much for the name. */
const MAX_NAME_LENGTH = 24;
/** The platform's bio limit (WIRE §2); the world registers each agent with the description as its bio. */
const MAX_DESCRIPTION_LENGTH = 500;

export class AgentModuleError extends Error {
  constructor(
    readonly modulePath: string,
    readonly problem: string,
    options?: { cause?: unknown },
  ) {
    super(`agent module ${modulePath}: ${problem.replace(/\s*\n\s*/g, ' ')}`, options);
    this.name = 'AgentModuleError';
  }
}

/**
 * Loads the agent module at `path` (relative to `baseDir`, the scenario file's directory, unless absolute).
 * With `options` (the scenario group's), it also runs the module's `checkOptions` and builds one persona as a
 * probe, so option problems and a persona without `heartbeat` surface at load time rather than mid-run.
 */
export async function loadAgentModule(
  path: string,
  baseDir: string,
  options?: Record<string, unknown>,
): Promise<PersonaFactory> {
  const file = locate(path, baseDir);
  const exported = await importDefault(path, file);
  const factory = toFactory(path, file, exported);
  if (options !== undefined) {
    const problems = factory.checkOptions(options);
    if (problems.length > 0)
      throw new AgentModuleError(path, `checkOptions refused the options: ${problems.join('; ')}`);
    factory.create(options);
  }
  return factory;
}

/** The absolute file, or an error saying why there is none. */
function locate(path: string, baseDir: string): string {
  if (typeof path !== 'string' || path.length === 0)
    throw new AgentModuleError(String(path), 'the path must be a non-empty string');
  const file = resolve(baseDir, path);
  const extension = extname(file);
  if (!(AGENT_MODULE_EXTENSIONS as readonly string[]).includes(extension)) {
    throw new AgentModuleError(
      path,
      `unsupported file type "${extension}" (expected ${AGENT_MODULE_EXTENSIONS.join(', ')})`,
    );
  }
  if (!existsSync(file)) throw new AgentModuleError(path, `file not found (looked for ${file})`);
  if (!statSync(file).isFile()) throw new AgentModuleError(path, `not a file (${file})`);
  return file;
}

async function importDefault(path: string, file: string): Promise<unknown> {
  let module: Record<string, unknown>;
  try {
    module = await importFile(file);
  } catch (error) {
    throw new AgentModuleError(path, `import threw: ${firstLine(error)}`, { cause: error });
  }
  if (module['default'] === undefined) {
    const named = Object.keys(module).filter((k) => k !== 'default');
    const found = named.length > 0 ? `it has only named exports (${named.join(', ')})` : 'it exports nothing';
    throw new AgentModuleError(
      path,
      `no default export: ${found}; export default a PersonaFactory, or a class or function create(options) returning a persona`,
    );
  }
  return module['default'];
}

/**
 * Imports a file. A runtime that cannot import TypeScript (plain Node 20) gets this project's transpiling
 * hooks registered, then the import is retried under a fresh URL: the failed attempt stays cached under the first.
 */
export async function importFile(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file).href;
  try {
    return (await import(url)) as Record<string, unknown>;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_UNKNOWN_FILE_EXTENSION' || !/\.m?ts$/.test(file))
      throw error;
    registerTypeScriptHooks();
    return (await import(`${url}?typescript`)) as Record<string, unknown>;
  }
}

let typeScriptHooksRegistered = false;

function registerTypeScriptHooks(): void {
  if (typeScriptHooksRegistered) return;
  // From agents/adapters/byo.ts the hooks sit beside this file; from dist/agents/adapters/byo.js they stay in the source tree.
  const candidates = [
    new URL('./byo-typescript.mjs', import.meta.url),
    new URL('../../../agents/adapters/byo-typescript.mjs', import.meta.url),
  ];
  const hooks = candidates.find((url) => existsSync(url));
  if (!hooks)
    throw new Error(
      'this runtime cannot import .ts and agents/adapters/byo-typescript.mjs is missing: compile the module to .js first',
    );
  register(hooks.href);
  typeScriptHooksRegistered = true;
}

type Options = Record<string, unknown>;

/** Promotes a module's default export to a checked factory whose personas are checked too. */
function toFactory(path: string, file: string, exported: unknown): PersonaFactory {
  if (typeof exported === 'function') return fromFunction(path, file, exported);
  if (typeof exported === 'object' && exported !== null)
    return fromObject(path, file, exported as Record<string, unknown>);
  throw new AgentModuleError(
    path,
    `the default export is ${describeValue(exported)}, not a PersonaFactory or a create(options) function`,
  );
}

/** A class is constructed with the options; any other function is called with them. Either is named after the file. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- the default export may be any function
function fromFunction(path: string, file: string, exported: Function): PersonaFactory {
  const build = isClass(exported)
    ? (o: Options) => new (exported as new (o: Options) => unknown)(o)
    : (o: Options) => (exported as (o: Options) => unknown)(o);
  return checkedFactory(path, {
    name: nameFromFile(file),
    description: `agent module ${basename(file)}`,
    build,
    check: () => [],
  });
}

function fromObject(path: string, file: string, raw: Record<string, unknown>): PersonaFactory {
  const create = raw['create'];
  if (typeof create !== 'function') {
    const single =
      typeof raw['heartbeat'] === 'function'
        ? ' (one persona object would be shared by every agent: export its class instead)'
        : '';
    throw new AgentModuleError(
      path,
      `the default export is an object without create(options)${single}: export a PersonaFactory { name, description, create, checkOptions }`,
    );
  }
  return checkedFactory(path, {
    name: factoryName(path, raw['name'], nameFromFile(file)),
    description: factoryDescription(path, raw['description'], file),
    build: (o) => create.call(raw, o) as unknown,
    check: optionChecker(path, raw),
  });
}

interface FactoryParts {
  name: string;
  description: string;
  build(options: Options): unknown;
  check(options: Options): string[];
}

function checkedFactory(path: string, parts: FactoryParts): PersonaFactory {
  return {
    name: parts.name,
    description: parts.description,
    checkOptions: (options) => parts.check(options),
    create: (options) => new ModulePersona(path, checkPersona(path, buildPersona(path, parts, options))),
  };
}

function buildPersona(path: string, parts: FactoryParts, options: Record<string, unknown>): unknown {
  try {
    return parts.build(options);
  } catch (error) {
    throw new AgentModuleError(path, `create(options) threw: ${firstLine(error)}`, { cause: error });
  }
}

function checkPersona(path: string, made: unknown): Persona {
  if (typeof (made as { then?: unknown } | null)?.then === 'function') {
    throw new AgentModuleError(
      path,
      'create(options) returned a Promise: it must return the persona itself (do async work in heartbeat)',
    );
  }
  if (typeof (made as { heartbeat?: unknown } | null)?.heartbeat !== 'function') {
    throw new AgentModuleError(
      path,
      `the persona lacks heartbeat(ctx): create(options) returned ${describeValue(made)}`,
    );
  }
  return made as Persona;
}

/** A module's persona, with any heartbeat failure named after the module it came from. */
export class ModulePersona implements Persona {
  constructor(
    readonly modulePath: string,
    readonly inner: Persona,
  ) {}

  async heartbeat(ctx: AgentContext): Promise<void> {
    try {
      await this.inner.heartbeat(ctx);
    } catch (error) {
      throw new AgentModuleError(this.modulePath, `heartbeat of ${ctx.handle} threw: ${firstLine(error)}`, {
        cause: error,
      });
    }
  }
}

function optionChecker(
  path: string,
  raw: Record<string, unknown>,
): (options: Record<string, unknown>) => string[] {
  const check = raw['checkOptions'];
  if (check === undefined) return () => [];
  if (typeof check !== 'function')
    throw new AgentModuleError(path, `checkOptions must be a function, not ${describeValue(check)}`);
  return (options) => {
    const problems: unknown = check.call(raw, options);
    if (!Array.isArray(problems) || !problems.every((p) => typeof p === 'string')) {
      throw new AgentModuleError(
        path,
        `checkOptions must return an array of strings, not ${describeValue(problems)}`,
      );
    }
    return problems;
  };
}

function factoryName(path: string, name: unknown, fallback: string): string {
  if (name === undefined) return fallback;
  if (typeof name !== 'string' || !new RegExp(`^[A-Za-z0-9._]{1,${MAX_NAME_LENGTH}}$`).test(name)) {
    throw new AgentModuleError(
      path,
      `name must be 1-${MAX_NAME_LENGTH} letters, digits, periods or underscores (it prefixes agent handles), not ${describeValue(name)}`,
    );
  }
  return name;
}

function factoryDescription(path: string, description: unknown, file: string): string {
  if (description === undefined) return `agent module ${basename(file)}`;
  if (typeof description !== 'string' || description.length > MAX_DESCRIPTION_LENGTH) {
    throw new AgentModuleError(
      path,
      `description must be a string of at most ${MAX_DESCRIPTION_LENGTH} characters (it becomes each agent's bio)`,
    );
  }
  return description;
}

/** `my-agent.v2.ts` -> `my_agent.v2`: a name that makes valid handles. */
function nameFromFile(file: string): string {
  const stem = basename(file, extname(file)).replace(/[^A-Za-z0-9._]/g, '_');
  return (stem.length > 0 ? stem : 'module').slice(0, MAX_NAME_LENGTH);
}

function isClass(fn: unknown): boolean {
  return (
    /^class\b/.test(Function.prototype.toString.call(fn)) ||
    typeof (fn as { prototype?: { heartbeat?: unknown } }).prototype?.heartbeat === 'function'
  );
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return `an object with keys [${Object.keys(value).join(', ')}]`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  // Objects and null are described above; what is left (number, boolean, bigint, symbol, function) prints itself.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string
  return typeof value === 'undefined' ? 'undefined' : `a ${typeof value} (${String(value).slice(0, 40)})`;
}

function firstLine(error: unknown): string {
  const text =
    error instanceof Error
      ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}`
      : String(error);
  return (
    text
      .split('\n')
      .find((line) => line.trim().length > 0)
      ?.trim() ?? '(no message)'
  );
}
