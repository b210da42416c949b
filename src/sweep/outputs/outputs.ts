import { sweepJunit } from './junit.js';
import { sweepSummary } from './summary.js';
import { sweepHtml } from './html.js';
import { sweepJson, type SweepResult } from '../sweep-result.js';

/** The files a finished sweep (or a merge) writes, by name; a merge writes exactly these bytes too. */
export function sweepFiles(sweep: SweepResult): Record<string, string> {
  return {
    'sweep.json': sweepJson(sweep),
    'junit.xml': sweepJunit(sweep),
    'summary.md': sweepSummary(sweep),
    'sweep.html': sweepHtml(sweep),
  };
}
