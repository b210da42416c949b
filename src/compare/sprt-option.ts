import { SPRT_MODELS, sprtProblem, type SprtBounds, type SprtModel } from '../rules/chess/sprt.js';

/**
 * The test `compare --agent` runs unless told otherwise: a 10 Elo gain to find, in normalized Elo (Elo per
 * unit of the score's spread), fastchess's default model; `model=logistic` takes the bounds as plain Elo.
 */
export const DEFAULT_SPRT = 'elo0=0,elo1=10,alpha=0.05,beta=0.05,model=normalized';
/** The --help text of `--sprt`. */
export const SPRT_HELP =
  `with --agent: the test, default ${DEFAULT_SPRT}; model=normalized (the default, as in fastchess: ` +
  'elo0 and elo1 in normalized Elo, per unit of the score spread) or model=logistic (plain Elo)';
const DEFAULTS: Required<Omit<SprtBounds, 'model'>> = { elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 };
const MODEL_PROBLEM = `model= takes ${SPRT_MODELS.join(' or ')}`;

/**
 * `--sprt elo0=0,elo1=10,alpha=0.05,beta=0.05,model=normalized` (a key left out keeps its default), or a
 * one-line problem.
 */
export function parseSprtOption(text: string): SprtBounds | string {
  const bounds: Record<string, number> = { ...DEFAULTS };
  let model: SprtModel = 'normalized';
  for (const part of text.split(',')) {
    const [key, value, extra] = part.split('=').map((s) => s.trim());
    if (key === 'model' && extra === undefined) {
      if (!SPRT_MODELS.includes(value as SprtModel)) return `--sprt ${text}: ${MODEL_PROBLEM}`;
      model = value as SprtModel;
      continue;
    }
    const known = key !== undefined && key in DEFAULTS;
    if (
      !known ||
      value === undefined ||
      value === '' ||
      extra !== undefined ||
      !Number.isFinite(Number(value))
    ) {
      return `--sprt: "${part}" is not one of elo0=, elo1=, alpha=, beta= with a number, or model= (e.g. --sprt ${DEFAULT_SPRT})`;
    }
    bounds[key] = Number(value);
  }
  const result = { ...(bounds as unknown as SprtBounds), model };
  const problem = sprtProblem(result);
  return problem ? `--sprt ${text}: ${problem}` : result;
}
