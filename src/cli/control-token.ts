import { readFileSync } from 'node:fs';
import { newControlToken } from '../http/secrets.js';

/**
 * Where `serve`'s control token came from, and so what its banner may say of it. Only a token serve drew
 * itself is printed: one the user gave (environment, file, flag) is already known to them, and printing it
 * puts it in terminal scrollback, CI logs and screen shares that the user never meant to hold it.
 */
export type ControlTokenSource =
  { kind: 'generated' } | { kind: 'env' } | { kind: 'file'; file: string } | { kind: 'flag' };

export interface ControlToken {
  value: string;
  source: ControlTokenSource;
}

export const CONTROL_TOKEN_ENV = 'ACS_CONTROL_TOKEN';
const TOKEN = /^[A-Za-z0-9._~+/=-]{16,256}$/;

/** The token from --control-token, --control-token-file or the environment, else a fresh one; a string is the one-line refusal. */
export function resolveControlToken(
  args: { controlToken?: string; controlTokenFile?: string },
  env: NodeJS.ProcessEnv,
): ControlToken | string {
  if (args.controlToken !== undefined && args.controlTokenFile !== undefined)
    return '--control-token and --control-token-file: give one of them';
  const given = givenToken(args, env);
  if (typeof given === 'string') return given;
  if (given === undefined) return { value: newControlToken(), source: { kind: 'generated' } };
  if (!TOKEN.test(given.value))
    return `${sourceName(given.source)}: the control token is 16 to 256 characters of letters, digits and ._~+/=-`;
  return given;
}

function givenToken(
  args: { controlToken?: string; controlTokenFile?: string },
  env: NodeJS.ProcessEnv,
): ControlToken | string | undefined {
  if (args.controlToken !== undefined) return { value: args.controlToken, source: { kind: 'flag' } };
  if (args.controlTokenFile !== undefined) {
    const file = args.controlTokenFile;
    try {
      // One trailing newline (as `echo` or an editor leaves it) is not part of the token.
      return { value: readFileSync(file, 'utf8').replace(/\r?\n$/, ''), source: { kind: 'file', file } };
    } catch (error) {
      return `--control-token-file: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`;
    }
  }
  const fromEnv = env[CONTROL_TOKEN_ENV];
  return fromEnv ? { value: fromEnv, source: { kind: 'env' } } : undefined;
}

function sourceName(source: ControlTokenSource): string {
  if (source.kind === 'flag') return '--control-token';
  if (source.kind === 'file') return `--control-token-file ${source.file}`;
  return CONTROL_TOKEN_ENV;
}

/** The banner's line about the token: its value only when serve drew it. */
export function controlTokenLine(token: ControlToken): string {
  const needs = 'keep it private; every /_sim route needs it';
  const { source } = token;
  if (source.kind === 'generated') return `simulator control token (${needs}): ${token.value}`;
  const from = source.kind === 'file' ? `the contents of ${source.file}` : `from ${sourceName(source)}`;
  return `simulator control token: ${from}, not printed (${needs})`;
}

/**
 * The dashboard's address with the token in its fragment (`#token=`): a browser never sends a fragment, so
 * the token reaches no request line and no log, and the page passes it on as the Authorization header. Only
 * a token serve drew is written out; for one the user gave, the link shows where it goes.
 */
export function dashboardLink(origin: string, token: ControlToken): string {
  const value = token.source.kind === 'generated' ? encodeURIComponent(token.value) : '<your control token>';
  return `${origin}/#token=${value}`;
}

/** A curl `-H` option that sends the token: the value itself, or the shell word that holds it. */
export function controlAuthHeader(token: ControlToken): string {
  const { source } = token;
  if (source.kind === 'generated') return `-H 'authorization: Bearer ${token.value}'`;
  if (source.kind === 'env') return `-H "authorization: Bearer $${CONTROL_TOKEN_ENV}"`;
  if (source.kind === 'file') return `-H "authorization: Bearer $(cat ${shellQuoted(source.file)})"`;
  return `-H 'authorization: Bearer <your --control-token>'`;
}

/** The warning a token on the command line earns: argv is readable by every user of the machine (ps, /proc). */
export function argvTokenWarning(token: ControlToken): string | undefined {
  if (token.source.kind !== 'flag') return undefined;
  return `warning: --control-token is visible to every user of this machine (ps, /proc/<pid>/cmdline); pass it in ${CONTROL_TOKEN_ENV} or with --control-token-file FILE instead`;
}

function shellQuoted(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
