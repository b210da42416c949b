import type { Report } from '../report.js';
import { matchSection } from './match.js';
import type { RequestStats, RunOutcome } from '../../sim/world.js';
import type { Game } from '../../platform/state.js';
import { tournamentsSection } from './brackets.js';
import {
  binnedChart,
  endingsChart,
  ratingByAgentChart,
  ratingByGroupChart,
  ratingDistributionChart,
  totalsChart,
  type AgentRatingRow,
  type EndingRow,
  type GroupRatingRow,
} from './charts.js';
import { esc, facts, figure, note, section, table, type Cell } from './html.js';
import { pagePieces } from './page.js';
import {
  completedGames,
  edgeHours,
  endingsOverTime,
  moneyOverTime,
  ratingHistories,
  refusalsOverTime,
  round3,
  sampleRating,
  socialOverTime,
  timeAxis,
  type TimeAxis,
} from './series.js';
import { agentVerdictsSection, groupVerdictsSection } from './verdicts.js';
import { faultsParts } from './faults.js';
import { PAGE_SCRIPT, VIEWER_MARKUP, viewerAssets } from './viewer.js';
import { AGENT_TABLE_SCRIPT } from './agent-table.js';
import { failureHeadline, whatBrokeSection } from './failures.js';
import { invariantStatus, statusCounts } from '../../sim/invariants/exercised.js';

/**
 * report.html: the run at a glance, in one self-contained file. Built from report.json's model, the final
 * platform state and games.pgn; no wall clock, no random id, no outside address, so one seed gives one
 * file, byte for byte.
 */
export interface HtmlReportInput {
  report: Report;
  outcome: RunOutcome;
  /** games.pgn as written. */
  pgn: string;
}

/** Per-agent rating lines drawn at most; a larger population is sampled evenly along the final ranking. */
const MAX_AGENT_LINES = 120;
/** Leaderboard rows printed at most (the full table is in report.json). */
const MAX_LEADERBOARD_ROWS = 200;

interface Context {
  input: HtmlReportInput;
  axis: TimeAxis;
  games: Game[];
  /** Agent handle -> how its group is named on the page (persona, and the scenario's group label when known). */
  groupOf: Map<string, string>;
  groups: string[];
  /** Game id -> its 1-based position in games.pgn, for links into the viewer. */
  gameIndex: Map<string, number>;
}

export function renderHtmlReport(input: HtmlReportInput): string {
  return [...htmlReportPieces(input)].join('');
}

/** report.html in pieces, to be written one after another (see pagePieces). */
export function htmlReportPieces(input: HtmlReportInput): Generator<string> {
  const ctx = context(input);
  const { report } = input;
  const parts = sections(ctx);
  const assets = viewerAssets();
  return pagePieces({
    title: `${report.scenario.name} (seed ${report.scenario.seed}): agent-chess-sim report`,
    nav: parts.map(([id, label]) => [id, label]),
    body: `${header(report)}\n${parts.map(([, , html]) => html).join('\n')}`,
    viewerCss: assets.css,
    script: `${assets.script}\n${PAGE_SCRIPT}\n${AGENT_TABLE_SCRIPT}`,
    pgn: input.pgn,
  });
}

/** [anchor id, navigation label, html] of each section, in page order. */
function sections(ctx: Context): Array<[string, string, string]> {
  const verdicts = ctx.input.report.verdicts;
  const verdictParts: Array<[string, string, string]> = [
    ['verdicts', 'Verdicts', groupVerdictsSection(verdicts)],
    ['agents', 'Agents', agentVerdictsSection(verdicts)],
  ];
  const { report, outcome } = ctx.input;
  const match = report.match;
  // A failing run opens on what broke, before anything else.
  const broke: Array<[string, string, string]> = report.passed
    ? []
    : [['broke', 'What broke', whatBrokeSection(report, outcome.platform, ctx.gameIndex)]];
  return [
    ...broke,
    ...(match ? [['match', 'Match', matchSection(match)] as [string, string, string]] : []),
    ['summary', 'Summary', summarySection(ctx)],
    ['ratings', 'Ratings', ratingsSection(ctx)],
    ['endings', 'Endings', endingsSection(ctx)],
    ['money', 'Money', moneySection(ctx)],
    ['tournaments', 'Tournaments', tournamentsSection(ctx.input.outcome.platform, ctx.gameIndex)],
    ['social', 'Social', socialSection(ctx)],
    ['invariants', 'Invariants', invariantsSection(ctx)],
    ...faultsParts(ctx.input.report.faults),
    ...verdictParts,
    ['games', 'Games', gamesSection(ctx)],
  ];
}

function context(input: HtmlReportInput): Context {
  const { report, outcome } = input;
  const startMs = Date.parse(report.scenario.start);
  const axis = timeAxis(startMs, Date.parse(report.scenario.end));
  const games = completedGames(outcome.platform);
  const groupOf = new Map<string, string>();
  for (const a of outcome.agents) if (a.account === 'agent') groupOf.set(a.handle, a.persona);
  for (const a of report.verdicts.agents) groupOf.set(a.handle, groupName(a.persona, a.group));
  const groups = [...new Set(groupOf.values())].sort();
  const gameIndex = pgnGameIndex(input.pgn);
  return { input, axis, games, groupOf, groups, gameIndex };
}

/**
 * Game id -> its 1-based position in games.pgn, read from the PGN's own GameId tags: the viewer numbers
 * games by that position, so links stay right whichever games the PGN writer includes.
 */
export function pgnGameIndex(pgn: string): Map<string, number> {
  const index = new Map<string, number>();
  for (const match of pgn.matchAll(/^\[GameId "([^"]*)"\]$/gm)) index.set(match[1]!, index.size + 1);
  return index;
}

/** How a group is named on the page: its persona, and the scenario's label for it when that says more. */
function groupName(persona: string, label: string | undefined): string {
  if (!label || label === persona) return persona;
  return `${persona} (${label})`;
}

function header(report: Report): string {
  const s = report.scenario;
  const badge = report.passed
    ? `<span class="badge pass">invariants: ${statusCounts(report.invariants.map(invariantStatus))}</span>`
    : `<a class="badge fail" href="#broke">${esc(failureHeadline(report))}</a>`;
  return `<h1>${esc(s.name)} <span class="muted">seed ${esc(s.seed)}</span></h1>\n<p>${badge} virtual time ${esc(s.start)} to ${esc(s.end)} · fingerprint <code>${esc(report.fingerprint)}</code></p>`;
}

function summarySection(ctx: Context): string {
  const r = ctx.input.report;
  const c = r.counts;
  const counts = facts([
    ['agents', c.agents],
    ['games finished / started', `${c.games_completed} / ${c.games_started}`],
    ['moves', c.moves],
    ['longest game (plies)', c.longest_game_plies],
    ['results 1-0 / 0-1 / draw', `${r.results['1-0']} / ${r.results['0-1']} / ${r.results['1/2-1/2']}`],
    [
      'challenges created / accepted / expired',
      `${c.challenges_created} / ${c.challenges_accepted} / ${c.challenges_expired}`,
    ],
    ['posts', c.posts],
    ['events', c.events],
  ]);
  const refused = Object.entries(r.requests.rejected_by_code).map(([code, n]): Cell[] => [code, n]);
  const requests = `<h4>Requests: ${r.requests.total} made, ${r.requests.rejected} refused</h4>${refused.length ? table(['error code', 'refused'], refused) : ''}`;
  return section('summary', 'Summary', `<div class="grid"><div>${counts}</div><div>${requests}</div></div>`);
}

function ratingsSection(ctx: Context): string {
  const { outcome, report } = ctx.input;
  if (report.elo.length === 0)
    return section('ratings', 'Ratings', note('No agent account in this run, so no ratings.'));
  const histories = ratingHistories(outcome.platform);
  const hours = edgeHours(ctx.axis);
  const initial = report.ruleset.elo.initial;
  const samples = new Map<string, number[]>();
  for (const a of outcome.platform.state.agents.values())
    samples.set(a.handle, sampleRating(ctx.axis, histories.get(a.id), initial));
  const ranked = report.elo.map((row) => row.handle);
  const drawn = evenlyPicked(ranked, MAX_AGENT_LINES);
  const agentRows: AgentRatingRow[] = drawn.flatMap((handle) =>
    samples.get(handle)!.map((elo, i) => ({ hour: hours[i]!, handle, group: ctx.groupOf.get(handle)!, elo })),
  );
  const agentTitle =
    drawn.length === ranked.length
      ? 'Rating of every agent'
      : `Rating of ${drawn.length} of ${ranked.length} agents (evenly spaced along the final ranking)`;
  // An agent that finished no game still has its starting rating: in a crowd they would be the one bar.
  const played = report.elo.filter((row) => row.games > 0);
  const shown = played.length > 0 ? played : report.elo;
  const finals = shown.map((row) => ({ elo: row.elo, group: ctx.groupOf.get(row.handle)! }));
  const unplayed = report.elo.length - shown.length;
  const finalsTitle =
    unplayed === 0
      ? 'Final ratings'
      : `Final ratings of the ${shown.length} agents that finished a game (${unplayed} more finished none)`;
  const body = [
    figure(ratingByGroupChart(ctx.axis, groupRatingRows(ctx, samples, hours), ctx.groups).svg),
    figure(ratingByAgentChart(ctx.axis, agentRows, ctx.groups, agentTitle).svg),
    figure(ratingDistributionChart(finals, ctx.groups, finalsTitle).svg),
    leaderboard(ctx),
  ];
  return section('ratings', 'Ratings', body.join('\n'));
}

/** Mean and quartiles of each group's ratings at every bin edge. */
function groupRatingRows(ctx: Context, samples: Map<string, number[]>, hours: number[]): GroupRatingRow[] {
  const rows: GroupRatingRow[] = [];
  for (const group of ctx.groups) {
    const members = [...ctx.groupOf.entries()]
      .filter(([, g]) => g === group)
      .map(([handle]) => samples.get(handle)!);
    hours.forEach((hour, i) => {
      const values = members.map((s) => s[i]!).sort((a, b) => a - b);
      const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
      rows.push({ hour, group, mean: round3(mean), q1: quantile(values, 0.25), q3: quantile(values, 0.75) });
    });
  }
  return rows;
}

function quantile(sorted: number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return round3(sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo));
}

/** At most `max` items, evenly spaced, always the first and the last. */
function evenlyPicked<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  return Array.from({ length: max }, (_, i) => items[Math.round((i * (items.length - 1)) / (max - 1))]!);
}

function leaderboard(ctx: Context): string {
  const elo = ctx.input.report.elo;
  const rows = elo
    .slice(0, MAX_LEADERBOARD_ROWS)
    .map((r): Cell[] => [
      r.rank,
      { html: `<a href="#games=${encodeURIComponent(r.name)}">${esc(r.name)}</a>` },
      ctx.groupOf.get(r.handle),
      r.elo,
      r.peak_elo,
      `${r.wins} / ${r.draws} / ${r.losses}`,
      r.games,
    ]);
  const more =
    elo.length > MAX_LEADERBOARD_ROWS
      ? note(`The first ${MAX_LEADERBOARD_ROWS} of ${elo.length} agents; report.json has them all.`)
      : '';
  return `<details><summary>Elo table (${elo.length} agents; a name opens its games in the viewer)</summary>${table(['rank', 'agent', 'group', 'Elo', 'peak', 'W / D / L', 'games'], rows)}${more}</details>`;
}

function endingsSection(ctx: Context): string {
  if (ctx.games.length === 0) return section('endings', 'Endings', note('No game finished in this run.'));
  const resultName = { '1-0': 'white wins', '0-1': 'black wins', '1/2-1/2': 'draw' } as const;
  const counts = new Map<string, number>();
  for (const g of ctx.games) {
    const key = `${g.end!.reason.replace(/_/g, ' ')}|${resultName[g.end!.result]}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const rows: EndingRow[] = [...counts.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, games]) => {
      const [ending, result] = key.split('|') as [string, string];
      return { ending, result, games };
    });
  const overTime = endingsOverTime(ctx.axis, ctx.games).map((r) => ({
    ...r,
    kind: r.kind.replace(/_/g, ' '),
  }));
  const body = [
    figure(endingsChart(rows).svg),
    figure(
      binnedChart('endings-time', ctx.axis, overTime, {
        title: 'Games finished over time, by ending',
        value: 'games',
        kind: 'ending',
      }).svg,
    ),
  ];
  return section('endings', 'Endings', body.join('\n'));
}

function moneySection(ctx: Context): string {
  const { report, outcome } = ctx.input;
  const m = report.money;
  if (m.transfers === 0)
    return section(
      'money',
      'Money',
      note('No money moved in this run (no bounty, no tournament, no devnet funding).'),
    );
  const byType = Object.entries(m.by_type).map(([type, row]) => ({ type, ...row }));
  const totals = byType
    .filter((r) => r.settled_sol > 0)
    .map((r) => ({ name: r.type.replace(/_/g, ' '), value: r.settled_sol }));
  const typeTable = table(
    ['transfer type', 'settled', 'SOL settled', 'failed'],
    byType.map((r): Cell[] => [r.type, r.settled, r.settled_sol, r.failed]),
  );
  const info = facts([
    [
      'transfers (retries, in flight at the end)',
      `${m.transfers} (${m.transfers_retried}, ${m.transfers_in_flight_at_end})`,
    ],
    [
      'escrows opened / paid out / refunded',
      `${m.escrows.opened} / ${m.escrows.paid_out} / ${m.escrows.refunded}`,
    ],
    [
      'bounty games created / cancelled / settled',
      `${m.bounty_games.created} / ${m.bounty_games.cancelled} / ${m.bounty_games.settled}`,
    ],
    ['treasury / total supply', `${m.treasury_sol} / ${m.total_supply_sol} SOL`],
  ]);
  const body = [
    figure(
      binnedChart('money-time', ctx.axis, moneyOverTime(ctx.axis, outcome.platform), {
        title: 'SOL settled over time, by kind of flow',
        value: 'SOL',
        kind: 'flow',
      }).svg,
    ),
    totals.length
      ? figure(
          totalsChart('money-types', totals, { title: 'SOL settled by transfer type', value: 'SOL' }).svg,
        )
      : '',
    `<div class="grid"><div>${info}</div><div>${typeTable}</div></div>`,
  ];
  return section('money', 'Money', body.join('\n'));
}

function socialSection(ctx: Context): string {
  const { report, outcome } = ctx.input;
  const s = report.social;
  const activity = socialOverTime(ctx.axis, outcome.platform);
  const refusals = outcome.requests.rateLimitedByMinute;
  const limits = Object.entries(s.rate_limited_by_action).map(([name, value]) => ({ name, value }));
  const info = facts([
    ['posts (by humans)', `${s.posts} (${s.posts_by_humans})`],
    ['replies (nested, deepest)', `${s.replies} (${s.nested_replies}, ${s.max_reply_depth})`],
    ['likes / follows / unfollows', `${s.likes} / ${s.follows} / ${s.unfollows}`],
    [
      'profile votes up / down / clear',
      `${s.profile_votes.up} / ${s.profile_votes.down} / ${s.profile_votes.clear}`,
    ],
    ['429s by limit', limits.map((l) => `${l.name} ${l.value}`).join(', ') || 'none'],
    ['vote_blocked refusals', s.vote_blocked],
    ['top social scores', s.top_social_scores.map((row) => `${row.handle} ${row.social_score}`).join(', ')],
  ]);
  const body = [
    activity.length
      ? figure(
          binnedChart('social-time', ctx.axis, activity, {
            title: 'Accepted social actions over time',
            value: 'actions',
            kind: 'action',
          }).svg,
        )
      : note('No social action in this run.'),
    rateLimitChart(ctx, refusals, limits),
    info,
  ];
  return section('social', 'Social', body.join('\n'));
}

function rateLimitChart(
  ctx: Context,
  refusals: RequestStats['rateLimitedByMinute'],
  limits: Array<{ name: string; value: number }>,
): string {
  if (limits.length === 0) return note('No request was refused with 429 in this run.');
  const rows = refusalsOverTime(ctx.axis, refusals);
  return figure(
    binnedChart('refusals-time', ctx.axis, rows, {
      title: 'Rate-limit refusals (429) over time, by limit',
      value: '429s',
      kind: 'limit',
    }).svg,
  );
}

/**
 * Broken invariants first, then the held ones; the ones not exercised (0 checks: they held only because
 * nothing they watch happened) in a table of their own, so "held" never counts them.
 */
function invariantsSection(ctx: Context): string {
  const all = ctx.input.report.invariants;
  const rank = { broken: 0, held: 1, not_exercised: 2 } as const;
  const tested = all
    .filter((inv) => invariantStatus(inv) !== 'not_exercised')
    .sort((a, b) => rank[invariantStatus(a)] - rank[invariantStatus(b)]);
  const untested = all.filter((inv) => invariantStatus(inv) === 'not_exercised');
  const rows = tested.map((inv): Cell[] => [
    inv.name,
    { html: invariantResult(inv) },
    inv.checks,
    inv.violationCount,
    inv.violations.length
      ? {
          html: inv.violations
            .map((v) => `${esc(new Date(v.t).toISOString())}: ${esc(v.message)}`)
            .join('<br>'),
        }
      : '',
    inv.description,
  ]);
  const classes = tested.map((inv) => (invariantStatus(inv) === 'broken' ? 'failed' : ''));
  const checked = table(
    ['invariant', 'result', 'checks', 'violations', 'first violations', 'what it checks'],
    rows,
    'wide',
    classes,
  );
  const notExercised = untested.length
    ? `<h3>Not exercised <span class="muted">(0 checks ran: nothing they watch happened)</span></h3>\n${table(
        ['invariant', 'result', 'what it checks'],
        untested.map((inv): Cell[] => [inv.name, { html: invariantResult(inv) }, inv.description]),
        'wide',
        untested.map((inv) => (inv.required ? 'failed' : 'muted')),
      )}`
    : '';
  return section('invariants', 'Invariants', `${checked}\n${notExercised}`);
}

function invariantResult(inv: Report['invariants'][number]): string {
  const status = invariantStatus(inv);
  if (status === 'broken') return '<strong>broke</strong>';
  if (status === 'held') return 'held';
  return inv.required ? '<strong>not exercised</strong> (required)' : 'not exercised';
}

function gamesSection(ctx: Context): string {
  if (ctx.games.length === 0)
    return section('games', 'Games', note('No game finished in this run, so there is nothing to replay.'));
  const hint = note(
    'Every game of games.pgn (an unfinished one ends in *). Arrow keys or the buttons under the board step through the moves.',
  );
  return section('games', 'Games', `${hint}\n${VIEWER_MARKUP}`);
}
