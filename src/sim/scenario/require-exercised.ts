import { BUILT_IN_INVARIANTS, type RequiredInvariants } from '../invariants/exercised.js';

/**
 * The scenario's `requireExercised`: a list of invariant names, or `all`. A name must be a built-in
 * invariant's; a scenario with invariant modules of its own may also name theirs, which are known only once
 * the modules load (World checks those then, with `unknownRequired`).
 */
export function checkRequireExercised(
  value: unknown,
  hasUserInvariants: boolean,
  problems: string[],
): RequiredInvariants | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === 'all') return 'all';
  if (!Array.isArray(value) || value.some((name) => typeof name !== 'string')) {
    problems.push(
      'requireExercised: must be a list of invariant names, e.g. [escrow_settles_once, bounty_fees_exact], or all',
    );
    return undefined;
  }
  const names = [...new Set(value as string[])];
  const unknown = names.filter((name) => !BUILT_IN_INVARIANTS.includes(name) && !hasUserInvariants);
  if (unknown.length > 0) problems.push(unknownProblem(unknown, BUILT_IN_INVARIANTS));
  return names.length > 0 ? names : undefined;
}

/** Once the run's invariants are known (user modules loaded): the problem with a required name none of them has. */
export function unknownRequired(
  required: RequiredInvariants | undefined,
  known: ReadonlySet<string>,
): string | undefined {
  if (required === undefined || required === 'all') return undefined;
  const unknown = required.filter((name) => !known.has(name));
  return unknown.length > 0 ? unknownProblem(unknown, [...known]) : undefined;
}

function unknownProblem(unknown: readonly string[], known: readonly string[]): string {
  const which = unknown.length === 1 ? 'invariant' : 'invariants';
  return `requireExercised: unknown ${which} ${unknown.join(', ')} (the run checks ${known.join(', ')})`;
}
