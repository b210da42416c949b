/**
 * A helper of the commands, not a command: argv as main.ts hands it to yargs. The option checks the
 * seed-running commands share are the library's (src/sweep/run-options.ts).
 */

/** Options whose value may begin with a minus sign, which yargs would read as short flags (`-5..-1` as -5, -., ...). */
const SIGNED_VALUE_OPTIONS = new Set(['--seeds', '--seed']);

/**
 * argv with `--seeds -5..-1` joined into `--seeds=-5..-1`, so that the option's own check refuses the value
 * in its own words (seeds are non-negative) instead of yargs answering "Unknown argument: 5".
 */
export function joinSignedValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return [...out, ...argv.slice(i)];
    const next = argv[i + 1];
    if (SIGNED_VALUE_OPTIONS.has(arg) && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}
