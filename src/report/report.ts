import { toIso } from '../kernel/clock.js';
import { gamesPlayed } from '../platform/chess/games.js';
import { findAgent } from '../platform/identity/identity.js';
import { socialScoreOf } from '../platform/identity/actors.js';
import type { EndReason, Game, TransferType } from '../platform/state.js';
import { END_REASONS, TRANSFER_TYPES } from '../platform/state.js';
import { lamportsToSol } from '../kernel/money.js';
import type { GameResult } from '../rules/chess/game.js';
import type { RunOutcome } from '../sim/world.js';
import type { Scenario } from '../sim/scenario/scenario.js';
import { buildVerdicts } from './verdicts.js';
import { faultsSection, type FaultsSection } from './faults-section.js';
import type { AgentMatch } from './agent-match.js';
import { agentNames } from './agent-names.js';
import { invariantStatus, isRequired, notExercisedLine } from '../sim/invariants/exercised.js';

/**
 * The report model of one run. Everything in it derives from the scenario and the virtual timeline, never
 * from the wall clock, so the same scenario and seed give the same bytes.
 */
export interface EloRow {
  rank: number;
  handle: string;
  /** The agent's name everywhere (src/report/agent-names.ts). */
  name: string;
  persona: string;
  elo: number;
  peak_elo: number;
  wins: number;
  losses: number;
  draws: number;
  games: number;
}

/** `match`: `run --agent`'s match (src/report/agent-match.ts), kept in report.json as `match`. */
export function buildReport(scenario: Scenario, outcome: RunOutcome, match?: AgentMatch) {
  const games = [...outcome.platform.state.games.values()];
  const completed = games.filter((g) => g.status === 'completed');
  return {
    tool: 'agent-chess-sim',
    report_version: 1,
    scenario: {
      name: scenario.name,
      seed: scenario.seed,
      start: toIso(scenario.startMs),
      end: toIso(outcome.endMs),
      duration_ms: scenario.durationMs,
    },
    ruleset: scenario.ruleset,
    counts: counts(outcome, games, completed),
    results: countResults(completed),
    results_by_ending: countEndings(completed),
    results_by_rating_band: countRatingBands(completed),
    requests: {
      total: outcome.requests.requests,
      rejected: outcome.requests.rejected,
      rejected_by_code: Object.fromEntries(
        [...outcome.requests.byCode.entries()].sort(([a], [b]) => (a < b ? -1 : 1)),
      ),
    },
    money: moneySummary(outcome),
    tournaments: tournamentTable(outcome),
    social: socialSummary(outcome),
    elo: eloTable(outcome),
    verdicts: buildVerdicts(scenario, outcome),
    invariants: invariantRows(scenario, outcome),
    required_not_exercised: outcome.requiredNotExercised.map((name) => ({
      name,
      message: notExercisedLine(name),
    })),
    ...optionalFaults(outcome),
    passed: !outcome.failed,
    fingerprint: outcome.fingerprint,
    ...(match ? { match } : {}),
  };
}

export type Report = ReturnType<typeof buildReport>;

/** The `faults` section, present only for a run with a fault profile or an agent's crash (other reports keep their bytes). */
function optionalFaults(outcome: RunOutcome): { faults?: FaultsSection } {
  const section = faultsSection(outcome);
  return section ? { faults: section } : {};
}

/** Each invariant's result with its status (held, broken, or not exercised: 0 checks) and whether the scenario required it to be exercised. */
function invariantRows(scenario: Scenario, outcome: RunOutcome) {
  return outcome.invariants.map((result) => ({
    ...result,
    status: invariantStatus(result),
    required: isRequired(result.name, scenario.requireExercised),
  }));
}

function counts(outcome: RunOutcome, games: Game[], completed: Game[]) {
  const events = (type: Parameters<RunOutcome['eventCounts']['get']>[0]) =>
    outcome.eventCounts.get(type) ?? 0;
  return {
    agents: outcome.agents.filter((a) => a.account === 'agent').length,
    events: outcome.events,
    posts: events('post_created'),
    challenges_created: events('challenge_created'),
    challenges_accepted: events('challenge_accepted'),
    challenges_expired: events('challenge_expired'),
    games_started: games.length,
    games_completed: completed.length,
    games_unfinished: games.length - completed.length,
    moves: events('move_played'),
    longest_game_plies: completed.reduce((max, g) => Math.max(max, g.plies), 0),
  };
}

function countResults(completed: Game[]): Record<GameResult, number> {
  const out: Record<GameResult, number> = { '1-0': 0, '0-1': 0, '1/2-1/2': 0 };
  for (const g of completed) out[g.end!.result]++;
  return out;
}

function countEndings(completed: Game[]) {
  const out = Object.fromEntries(END_REASONS.map((r) => [r, 0])) as Record<EndReason, number>;
  for (const g of completed) out[g.end!.reason]++;
  return out;
}

/** Width of a rating band in `results_by_rating_band` (200 points, the width of a chess class such as 1400-1599). */
export const RATING_BAND_WIDTH = 200;

/**
 * Finished games by the band of the two players' mean rating before the game ("1400-1599"), so a rule's
 * effect on weak and strong play reads apart. Keys in rating order.
 */
function countRatingBands(completed: Game[]): Record<string, number> {
  const counts = new Map<number, number>();
  for (const g of completed) {
    const mean = (g.end!.whiteEloBefore + g.end!.blackEloBefore) / 2;
    const low = Math.floor(mean / RATING_BAND_WIDTH) * RATING_BAND_WIDTH;
    counts.set(low, (counts.get(low) ?? 0) + 1);
  }
  return Object.fromEntries(
    [...counts.entries()]
      .sort(([a], [b]) => a - b)
      .map(([low, n]) => [`${low}-${low + RATING_BAND_WIDTH - 1}`, n]),
  );
}

function eloTable(outcome: RunOutcome): EloRow[] {
  const agents = outcome.agents.filter((sim) => sim.account === 'agent');
  const names = agentNames(agents);
  const rows = agents.map((sim) => {
    const a = findAgent(outcome.platform, sim.handle)!;
    return {
      handle: a.handle,
      name: names.get(a.handle)!,
      persona: sim.persona,
      elo: a.elo,
      peak_elo: a.peakElo,
      wins: a.wins,
      losses: a.losses,
      draws: a.draws,
      games: gamesPlayed(a),
    };
  });
  rows.sort((a, b) => b.elo - a.elo || b.games - a.games || (a.handle < b.handle ? -1 : 1));
  return rows.map((row, i) => ({ rank: i + 1, ...row }));
}

/** Where the money went: per transfer type, what settled and what failed; escrows; the treasury's change. */
function moneySummary(outcome: RunOutcome) {
  const p = outcome.platform;
  const byType = Object.fromEntries(
    TRANSFER_TYPES.map((t) => [t, { settled: 0, settled_sol: 0, failed: 0 }]),
  ) as Record<TransferType, { settled: number; settled_sol: number; failed: number }>;
  const lamportsByType = new Map<TransferType, number>();
  for (const t of p.state.transfers.values()) {
    const row = byType[t.type];
    if (t.status === 'settled') {
      row.settled++;
      lamportsByType.set(t.type, (lamportsByType.get(t.type) ?? 0) + t.lamports);
    } else if (t.status === 'failed') row.failed++;
  }
  for (const [type, lamports] of lamportsByType) byType[type].settled_sol = lamportsToSol(lamports);
  const escrows = [...p.state.escrows.values()];
  const event = (type: Parameters<RunOutcome['eventCounts']['get']>[0]) => outcome.eventCounts.get(type) ?? 0;
  return {
    transfers: p.state.transfers.size,
    transfers_retried: event('transfer_retried'),
    transfers_in_flight_at_end: [...p.state.transfers.values()].filter((t) => t.status === 'queued').length,
    by_type: Object.fromEntries(Object.entries(byType).filter(([, row]) => row.settled + row.failed > 0)),
    escrows: {
      opened: escrows.length,
      paid_out: escrows.filter((e) => e.status === 'paid_out').length,
      refunded: escrows.filter((e) => e.status === 'refunded').length,
    },
    bounty_games: {
      created: event('game_created'),
      cancelled: event('game_cancelled'),
      settled: event('bounty_settled'),
    },
    total_supply_sol: lamportsToSol(p.ledger.totalSupply),
    treasury_sol: lamportsToSol(p.ledger.balance(p.treasuryAddress)),
  };
}

function tournamentTable(outcome: RunOutcome) {
  const p = outcome.platform;
  const handle = (id: string) => p.state.agents.get(id)!.handle;
  return [...p.state.tournaments.values()].map((t) => ({
    name: t.name,
    status: t.status,
    size: t.maxParticipants,
    entrants: t.participants.length,
    prize_sol: lamportsToSol(t.prizeLamports),
    entry_fee_sol: lamportsToSol(t.entryFeeLamports),
    created_at: toIso(t.createdAtMs),
    started_at: t.startedAtMs === null ? null : toIso(t.startedAtMs),
    completed_at: t.completedAtMs === null ? null : toIso(t.completedAtMs),
    placements: t.placements.map(handle),
    cancel_reason: t.cancelReason,
  }));
}

/** How many agents the social section ranks by score. */
const TOP_SOCIAL = 5;

/**
 * The social layer of the run: what was accepted (from the event log), how deep threads went, which limits
 * refused how often (429s by the `action` their body names; `requests` is the daily quota), and the agents
 * with the highest social score. `profile_votes` are the votes cast through the vote route; the upvote a
 * follow casts and the clear an unfollow casts are `follow_linked_votes`; `unfollows_by_vote` are follows a
 * down or clear vote ended.
 */
function socialSummary(outcome: RunOutcome) {
  const p = outcome.platform;
  const event = (type: Parameters<RunOutcome['eventCounts']['get']>[0]) => outcome.eventCounts.get(type) ?? 0;
  const replies = [...p.state.replies.values()];
  const humanPosts = [...p.state.posts.values()].filter((post) => post.authorKind === 'human').length;
  return {
    humans: p.state.humans.size,
    posts: event('post_created'),
    posts_by_humans: humanPosts,
    replies: event('reply_created'),
    nested_replies: replies.filter((r) => r.parentReplyId !== null).length,
    max_reply_depth: replies.reduce((max, r) => Math.max(max, r.depth), 0),
    likes: event('liked'),
    follows: event('followed'),
    unfollows: event('unfollowed'),
    unfollows_by_vote: outcome.unfollowsByVote,
    profile_votes: { ...outcome.votesByValue },
    follow_linked_votes: outcome.followLinkedVotes,
    unseen_serves: event('unseen_served'),
    external_posts: event('external_posted'),
    verifications: event('agent_verified'),
    social_refreshes: event('social_refreshed'),
    rate_limited_by_action: sortedRecord(outcome.requests.rateLimitedByAction),
    vote_blocked: outcome.requests.byCode.get('vote_blocked') ?? 0,
    top_social_scores: topSocialScores(outcome),
  };
}

function topSocialScores(outcome: RunOutcome) {
  const p = outcome.platform;
  const rows = [...p.state.agents.values()].map((a) => ({
    handle: a.handle,
    social_score: socialScoreOf(p, a),
  }));
  rows.sort((a, b) => b.social_score - a.social_score || (a.handle < b.handle ? -1 : 1));
  return rows.slice(0, TOP_SOCIAL);
}

/** A map as a plain record with its keys in code-point order, so the report's bytes do not depend on insertion order. */
function sortedRecord(map: ReadonlyMap<string, number>): Record<string, number> {
  return Object.fromEntries([...map.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * The social section as summary lines for the CLI (empty when the run had no social activity beyond the
 * research posts): volumes, refusals by limit, and the top social scores.
 */
export function socialLines(report: Report): string[] {
  const s = report.social;
  if (
    s.replies + s.likes + s.follows + s.profile_votes.up + s.profile_votes.down + s.profile_votes.clear ===
    0
  )
    return [];
  const votes = s.profile_votes;
  const limits = Object.entries(s.rate_limited_by_action)
    .map(([action, n]) => `${action} ${n}`)
    .join(', ');
  return [
    `social: ${s.posts} posts (${s.posts_by_humans} by ${s.humans} humans), ${s.replies} replies (${s.nested_replies} nested, depth up to ${s.max_reply_depth}), ${s.likes} likes, ${s.follows} follows, ${s.unfollows} unfollows`,
    `votes: up ${votes.up}, down ${votes.down}, clear ${votes.clear} (and ${s.follow_linked_votes} by follows); ${s.vote_blocked} refused vote_blocked; ${s.verifications} verified, ${s.unseen_serves} unseen pages served`,
    `429s by limit: ${limits || 'none'}`,
    `top social scores: ${s.top_social_scores.map((row) => `${row.handle} ${row.social_score}`).join(', ')}`,
  ];
}
