import { sprtProblem, type SprtBounds } from '../rules/chess/sprt.js';

/** The test `compare --agent` runs unless told otherwise: fastchess's usual form, with a 10 Elo gain to find. */
export const DEFAULT_SPRT = 'elo0=0,elo1=10,alpha=0.05,beta=0.05';
const DEFAULTS: SprtBounds = { elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 };

/** `--sprt elo0=0,elo1=10,alpha=0.05,beta=0.05` (a key left out keeps its default), or a one-line problem. */
export function parseSprtOption(text: string): SprtBounds | string {
  const bounds: Record<string, number> = { ...DEFAULTS };
  for (const part of text.split(',')) {
    const [key, value, extra] = part.split('=').map((s) => s.trim());
    const known = key !== undefined && key in DEFAULTS;
    if (
      !known ||
      value === undefined ||
      value === '' ||
      extra !== undefined ||
      !Number.isFinite(Number(value))
    ) {
      return `--sprt: "${part}" is not one of elo0=, elo1=, alpha=, beta= with a number (e.g. --sprt ${DEFAULT_SPRT})`;
    }
    bounds[key] = Number(value);
  }
  const result = bounds as unknown as SprtBounds;
  const problem = sprtProblem(result);
  return problem ? `--sprt ${text}: ${problem}` : result;
}
