import type { Platform } from '../../platform/platform.js';
import type { Report } from '../report.js';
import { invariantStatus } from '../../sim/invariants/exercised.js';
import { agentLink } from './agent-table.js';
import { esc, note, section } from './html.js';

/**
 * "What broke": the first section of a failing run's report.html. Each broken invariant with its kept
 * violations (virtual time in ISO, the agents and the game the message names, and a link that opens that
 * game in the viewer at the ply reached by then), then each required invariant that ran no check.
 *
 * A violation records its time, event index and message only (src/sim/invariants/checker.ts); the agents
 * and the game are read back from the ids the message names (`game <id>`, `agent <id>`), the way a
 * reader would look them up, against the run's final platform state.
 */
type InvariantRow = Report['invariants'][number];
type ViolationRow = InvariantRow['violations'][number];

/** The names of the broken invariants, then of the required ones not exercised, for the badge. */
export function failureHeadline(report: Report): string {
  const broken = report.invariants.filter((i) => invariantStatus(i) === 'broken').map((i) => i.name);
  const unexercised = report.required_not_exercised.map((r) => r.name);
  const parts = [
    ...(broken.length ? [`broke: ${broken.join(', ')}`] : []),
    ...(unexercised.length ? [`required, not exercised: ${unexercised.join(', ')}`] : []),
  ];
  return parts.length ? parts.join(' · ') : 'the run failed';
}

export function whatBrokeSection(
  report: Report,
  platform: Platform,
  gameIndex: ReadonlyMap<string, number>,
): string {
  const broken = report.invariants.filter((i) => invariantStatus(i) === 'broken');
  const blocks = broken.map((inv) => brokenBlock(inv, platform, gameIndex));
  if (report.required_not_exercised.length > 0)
    blocks.push(
      `<h3>Required but not exercised</h3>\n<ul>${report.required_not_exercised.map((r) => `<li><strong>${esc(r.name)}</strong>: ${esc(r.message)}</li>`).join('')}</ul>`,
    );
  if (blocks.length === 0) blocks.push(note('The run failed, though no invariant broke (see the summary).'));
  return section('broke', 'What broke', blocks.join('\n'));
}

function brokenBlock(inv: InvariantRow, platform: Platform, gameIndex: ReadonlyMap<string, number>): string {
  const kept =
    inv.violations.length < inv.violationCount
      ? `${inv.violationCount} violations, the first ${inv.violations.length} below`
      : `${inv.violationCount} violation${inv.violationCount === 1 ? '' : 's'}`;
  const items = inv.violations.map((v) => `<li>${violationLine(v, platform, gameIndex)}</li>`).join('\n');
  return `<div class="broke"><h3>${esc(inv.name)} <span class="muted">${esc(kept)}</span></h3>\n<p class="muted">${esc(inv.description)}</p>\n<ol>\n${items}\n</ol></div>`;
}

function violationLine(v: ViolationRow, platform: Platform, gameIndex: ReadonlyMap<string, number>): string {
  const at = `<time>${esc(new Date(v.t).toISOString())}</time>`;
  const named = namedIds(v.message);
  const game = named.games.map((id) => platform.state.games.get(id)).find((g) => g !== undefined);
  const agentIds = new Set(named.agents);
  if (game) [game.whiteId, game.blackId].forEach((id) => agentIds.add(id));
  const agents = [...agentIds]
    .map((id) => platform.state.agents.get(id)?.handle)
    .filter((h): h is string => h !== undefined)
    .map((h) => agentLink(h, h));
  const parts = [at, esc(v.message)];
  if (agents.length) parts.push(`agents ${agents.join(', ')}`);
  const index = game ? gameIndex.get(game.id) : undefined;
  if (game && index !== undefined) {
    const ply = game.moves.filter((m) => m.playedAtMs <= v.t).length;
    parts.push(`<a class="violation-game" href="#g${index}.${ply}">open game ${index} at ply ${ply}</a>`);
  }
  return parts.join(' · ');
}

/** The ids a checker's message names: `game <id>` and `agent <id>` (src/sim/invariants/invariants.ts). */
function namedIds(message: string): { games: string[]; agents: string[] } {
  const ids = (word: string) =>
    [...message.matchAll(new RegExp(`\\b${word} ([A-Za-z0-9_-]+)`, 'g'))].map((m) => m[1]!);
  return { games: ids('game'), agents: ids('agent') };
}
