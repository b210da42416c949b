/**
 * The seed of every fast-check property: FC_SEED when set, else the pinned default, so a run is the same run
 * on every machine and a failure replays with `FC_SEED=<seed> npx vitest run <file>`. test/setup/fast-check.ts
 * hands it to fast-check for every test file; a test that needs the number itself (a second stream, say)
 * imports it from here.
 */
export const DEFAULT_FC_SEED = 20261121;

export const FC_SEED = fcSeed(process.env['FC_SEED']);

/** An empty FC_SEED counts as unset (as `${FC_SEED:-...}` in .ci/run); anything but an integer is a mistake. */
function fcSeed(text: string | undefined): number {
  if (text === undefined || text.trim() === '') return DEFAULT_FC_SEED;
  const seed = Number(text);
  if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer, got ${JSON.stringify(text)}`);
  return seed;
}
