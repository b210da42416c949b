import { describe, expect, it } from 'vitest';
import { renderRunReport, type ReportText } from '../../src/report/write.js';
import { parseScenario } from '../../src/sim/scenario/scenario.js';
import { runScenario } from '../../src/sim/world.js';

const scenario = (faults: string) => `
name: faults-html
seed: 8
start: 2026-01-01T00:00:00Z
duration: 1h
population:
  - { persona: random, count: 4, heartbeat: { min: 30s, max: 60s }, options: { maxGames: 2 } }
${faults}
`;

/** Built-in personas handle no 502: some of them crash, the others retry nothing and play on. */
const PROXY_ERRORS = `faults:
  name: proxy-errors
  rules:
    - { kind: error, rate: 0.03, statuses: [502], scope: { from: 5m } }
    - { kind: latency, median: 200ms, p99: 2s }`;

async function html(text: string): Promise<string> {
  const s = parseScenario(text, 'faults-html.yaml');
  const { files } = renderRunReport(s, await runScenario(s), { replay: 'run' });
  const page: ReportText = files.get('report.html')!;
  return typeof page === 'string' ? page : [...page].join('');
}

/** The faults section's own HTML, between its opening tag and the next section. */
function faultsSection(page: string): string | undefined {
  return /<section id="faults">[\s\S]*?<\/section>/.exec(page)?.[0];
}

describe("report.html's Faults section (src/report/html/faults.ts)", () => {
  it('shows the profile, the faults met by kind and the crashed agents first, marked; nothing it loads or runs', async () => {
    const page = await html(scenario(PROXY_ERRORS));
    const section = faultsSection(page)!;
    expect(section).toBeDefined();
    expect(page).toContain('<a href="#faults">Faults</a>');
    expect(section).toContain('<tr><th>profile</th><td>proxy-errors</td></tr>');
    expect(section).toMatch(/<tr><td>error<\/td><td>\d+<\/td><\/tr>/);
    expect(section).toMatch(/<tr><td>latency<\/td><td>\d+<\/td><\/tr>/);
    const crashed = [
      ...section.matchAll(
        /<tr class="failed"><td>(random_\d{4})<\/td>.*?crashed at 2026-01-01T00:\d\d:\d\d\.\d{3}Z, /g,
      ),
    ];
    expect(crashed.length).toBeGreaterThan(0);
    // The crashed rows come before any other.
    const firstRow = /<tbody>\n<tr( class="failed")?>/.exec(
      section.slice(section.indexOf('games lost under a fault')),
    );
    expect(firstRow?.[1]).toBe(' class="failed"');
    // The page's CSP lets nothing load and only its hashed script run: the section adds neither.
    expect(section).not.toMatch(/<script|<img|<link|<iframe|\bon\w+=|https?:/i);
  });

  it('is absent from a run with no profile and no crash', async () => {
    const page = await html(scenario(''));
    expect(faultsSection(page)).toBeUndefined();
    expect(page).not.toContain('href="#faults"');
  });
});
