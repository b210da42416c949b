import { Chess, type Move } from 'chess.js';
import { DEFAULT_RULESET } from '../../src/rules/ruleset.js';

/**
 * The reference model behind test/http/model.test.ts: plain records of what the platform should hold
 * (agents, posts, challenges, games, follows, standing votes, the virtual clock) and the answers the
 * HTTP API should give for them. It imports no platform code: the chess oracle is chess.js, and the
 * numbers are the spec's (SPEC) or, where the spec is silent, the default ruleset's (OURS).
 */
export const HOUR_MS = 60 * 60_000; // SPEC: limits are per hour
export const TURN_MS = 5 * 60_000; // SPEC: hard 5-minute turn deadline
export const POINTS = { post: 2, likeReceived: 1, followReceived: 1, win: 3, draw: 1, downvoteReceived: 2 }; // SPEC
const OURS = DEFAULT_RULESET;
export const ELO_INITIAL = OURS.elo.initial;
const K = OURS.elo.kFactor.mode === 'fixed' ? OURS.elo.kFactor.k : NaN; // the model knows a fixed K only
export const CHALLENGE_EXPIRY_MS = OURS.challenges.expiryMs;
export const MAX_OPEN_CHALLENGES = OURS.challenges.maxOpenPerAgent;
const RECENT_POSTS = OURS.social.profileRecentPosts;
const PAGE = OURS.api.defaultPageLimit;
export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

export type Action = 'post' | 'like' | 'follow' | 'vote';
export interface RateRule {
  limit: number;
  cooldownMs: number;
}
export type ModelRules = Record<Action, RateRule>;
export type Side = 'white' | 'black';
export type Vote = 'up' | 'down';

export interface ModelAgent {
  handle: string;
  id: string;
  key: string;
  wallet: string;
  /** Accepted actions per rate-limited kind, oldest first. */
  rate: Record<Action, number[]>;
  postIds: string[];
  following: number;
  followers: number;
  likesGiven: number;
  likesReceived: number;
  up: number;
  down: number;
  elo: number;
  peak: number;
  wins: number;
  losses: number;
  draws: number;
}

export interface ModelPost {
  id: string;
  author: number;
  content: string;
  atMs: number;
  likedBy: Set<number>;
}

export interface ModelChallenge {
  id: string;
  challenger: number;
  opponent: number | null;
  atMs: number;
  status: 'open' | 'accepted' | 'expired';
}

export interface ModelMove {
  id: string;
  san: string;
  uci: string;
  fen: string;
  color: Side;
  check: boolean;
  mate: boolean;
  atMs: number;
}

export interface GameEnd {
  winner: Side | null;
  reason: string;
  atMs: number;
}

export interface ModelGame {
  id: string;
  white: number;
  black: number;
  atMs: number;
  board: Chess;
  /** Position counts for threefold repetition, keyed on FEN without the move counters. */
  seen: Map<string, number>;
  moves: ModelMove[];
  deadlineMs: number | null;
  /** Order in which turn timers were set: breaks ties between deadlines at the same instant. */
  turnSeq: number;
  end: GameEnd | null;
}

export interface Model {
  nowMs: number;
  rules: ModelRules;
  agents: ModelAgent[];
  posts: ModelPost[];
  challenges: ModelChallenge[];
  games: ModelGame[];
  /** `follower>target` by agent index. */
  follows: Set<string>;
  votes: Map<string, Vote>;
  turnSeq: number;
}

export function newModel(nowMs: number, rules: ModelRules): Model {
  return {
    nowMs,
    rules,
    agents: [],
    posts: [],
    challenges: [],
    games: [],
    follows: new Set(),
    votes: new Map(),
    turnSeq: 0,
  };
}

export const iso = (ms: number): string => new Date(ms).toISOString();
export const pick = <T>(items: readonly T[], n: number): T => items[n % items.length]!;
export const pair = (a: number, b: number): string => `${a}>${b}`;

export function addAgent(m: Model, handle: string, id: string, key: string, wallet: string): ModelAgent {
  const agent: ModelAgent = {
    handle,
    id,
    key,
    wallet,
    rate: { post: [], like: [], follow: [], vote: [] },
    postIds: [],
    following: 0,
    followers: 0,
    likesGiven: 0,
    likesReceived: 0,
    up: 0,
    down: 0,
    elo: ELO_INITIAL,
    peak: ELO_INITIAL,
    wins: 0,
    losses: 0,
    draws: 0,
  };
  m.agents.push(agent);
  return agent;
}

/** Handles are unique without regard to case. */
export function handleTaken(m: Model, handle: string): boolean {
  return m.agents.some((a) => a.handle.toLowerCase() === handle.toLowerCase());
}

export function validHandle(handle: string): boolean {
  return /^[A-Za-z0-9._]{3,32}$/.test(handle);
}

// ---- rate limits -------------------------------------------------------------------------------------

/** Milliseconds until the action is allowed again, or null when it is allowed now (sliding hour + cooldown). */
export function rateWait(m: Model, agent: ModelAgent, action: Action): number | null {
  const rule = m.rules[action];
  const times = agent.rate[action];
  const last = times.at(-1);
  const cooldownLeft = last === undefined ? 0 : last + rule.cooldownMs - m.nowMs;
  const recent = times.filter((t) => t > m.nowMs - HOUR_MS);
  const limitLeft = recent.length >= rule.limit ? recent[recent.length - rule.limit]! + HOUR_MS - m.nowMs : 0;
  const wait = Math.max(cooldownLeft, limitLeft);
  return wait > 0 ? wait : null;
}

/** Retry-After: whole seconds, rounded up, never 0. */
export const retryAfterSeconds = (waitMs: number): number => Math.max(1, Math.ceil(waitMs / 1000));

// ---- social ------------------------------------------------------------------------------------------

export function recordPost(m: Model, author: number, id: string, content: string): ModelPost {
  const post: ModelPost = { id, author, content, atMs: m.nowMs, likedBy: new Set() };
  m.posts.push(post);
  m.agents[author]!.postIds.push(id);
  m.agents[author]!.rate.post.push(m.nowMs);
  return post;
}

/** SPEC: one post completes the research phase. */
export const researchDone = (a: ModelAgent): boolean => a.postIds.length >= 1;

export function downvoteBetween(m: Model, a: number, b: number): boolean {
  return m.votes.get(pair(a, b)) === 'down' || m.votes.get(pair(b, a)) === 'down';
}

export function setVote(m: Model, voter: number, target: number, next: Vote | null): void {
  const key = pair(voter, target);
  const previous = m.votes.get(key) ?? null;
  const t = m.agents[target]!;
  if (previous === 'up') t.up--;
  if (previous === 'down') t.down--;
  if (next === 'up') t.up++;
  if (next === 'down') t.down++;
  if (next === null) m.votes.delete(key);
  else m.votes.set(key, next);
}

export function startFollow(m: Model, follower: number, target: number): void {
  m.follows.add(pair(follower, target));
  m.agents[follower]!.following++;
  m.agents[target]!.followers++;
}

export function endFollow(m: Model, follower: number, target: number): void {
  m.follows.delete(pair(follower, target));
  m.agents[follower]!.following--;
  m.agents[target]!.followers--;
}

export function socialScore(a: ModelAgent): number {
  const sum =
    a.postIds.length * POINTS.post +
    a.likesReceived * POINTS.likeReceived +
    a.followers * POINTS.followReceived;
  return Math.max(0, sum + a.wins * POINTS.win + a.draws * POINTS.draw - a.down * POINTS.downvoteReceived);
}

function socialTier(score: number): string {
  let name = OURS.social.tiers[0]!.name;
  for (const tier of OURS.social.tiers) if (score >= tier.minScore) name = tier.name;
  return name;
}

// ---- challenges and games ----------------------------------------------------------------------------

export function openChallengeCount(m: Model, agent: number): number {
  return m.challenges.filter((c) => c.status === 'open' && c.challenger === agent).length;
}

export function startGame(m: Model, challenge: ModelChallenge, acceptor: number): ModelGame {
  challenge.status = 'accepted';
  const board = new Chess();
  const game: ModelGame = {
    id: challenge.id,
    white: challenge.challenger,
    black: acceptor,
    atMs: m.nowMs,
    board,
    seen: new Map([[positionKey(board), 1]]),
    moves: [],
    deadlineMs: null,
    turnSeq: 0,
    end: null,
  };
  beginTurn(m, game);
  m.games.push(game);
  return game;
}

function beginTurn(m: Model, game: ModelGame): void {
  game.deadlineMs = m.nowMs + TURN_MS;
  game.turnSeq = ++m.turnSeq;
}

export const sideToMove = (game: ModelGame): Side => (game.board.turn() === 'w' ? 'white' : 'black');
export const playerOf = (game: ModelGame, side: Side): number => (side === 'white' ? game.white : game.black);
export const colorOf = (game: ModelGame, agent: number): Side | null =>
  agent === game.white ? 'white' : agent === game.black ? 'black' : null;

/** FIDE 9.2: the same position is the same placement, side, castling rights and (legal) en passant. */
function positionKey(board: Chess): string {
  return board.fen().split(' ').slice(0, 4).join(' ');
}

export function legalMoves(game: ModelGame): Move[] {
  return game.board.moves({ verbose: true });
}

export function playMove(m: Model, game: ModelGame, move: Move, moveId: string): ModelMove {
  const color = sideToMove(game);
  game.board.move(move.san);
  const key = positionKey(game.board);
  game.seen.set(key, (game.seen.get(key) ?? 0) + 1);
  const record: ModelMove = {
    id: moveId,
    san: move.san,
    uci: move.lan,
    fen: game.board.fen(),
    color,
    check: game.board.inCheck(),
    mate: game.board.isCheckmate(),
    atMs: m.nowMs,
  };
  game.moves.push(record);
  const ending = boardEnding(game, color);
  if (ending) finishGame(m, game, ending.winner, ending.reason);
  else beginTurn(m, game);
  return record;
}

/** Automatic endings in the platform's precedence: mate, stalemate, dead position, threefold, fifty moves. */
function boardEnding(game: ModelGame, mover: Side): { winner: Side | null; reason: string } | null {
  const b = game.board;
  if (b.isCheckmate()) return { winner: mover, reason: 'checkmate' };
  if (b.isStalemate()) return { winner: null, reason: 'stalemate' };
  if (b.isInsufficientMaterial()) return { winner: null, reason: 'insufficient_material' };
  if ((game.seen.get(positionKey(b)) ?? 0) >= 3) return { winner: null, reason: 'threefold_repetition' };
  if (Number(b.fen().split(' ')[4]) >= 100) return { winner: null, reason: 'fifty_move_rule' };
  return null;
}

/** Standard Elo with a fixed K; the change rounds half away from zero, so the two changes cancel. */
function whiteEloDelta(white: number, black: number, whiteScore: number): number {
  const expected = 1 / (1 + 10 ** ((black - white) / 400));
  const x = K * (whiteScore - expected);
  return Math.sign(x) * Math.round(Math.abs(x)) || 0;
}

export function finishGame(m: Model, game: ModelGame, winner: Side | null, reason: string): void {
  const white = m.agents[game.white]!;
  const black = m.agents[game.black]!;
  const delta = whiteEloDelta(white.elo, black.elo, winner === null ? 0.5 : winner === 'white' ? 1 : 0);
  rate(white, delta, winner === null ? 'draw' : winner === 'white' ? 'win' : 'loss');
  rate(black, -delta, winner === null ? 'draw' : winner === 'black' ? 'win' : 'loss');
  game.end = { winner, reason, atMs: m.nowMs };
  game.deadlineMs = null;
}

function rate(a: ModelAgent, delta: number, outcome: 'win' | 'loss' | 'draw'): void {
  a.elo += delta;
  a.peak = Math.max(a.peak, a.elo);
  if (outcome === 'win') a.wins++;
  else if (outcome === 'loss') a.losses++;
  else a.draws++;
}

/**
 * Moves the clock to `untilMs`, firing what falls due on the way: turn deadlines (the side to move loses),
 * in deadline order and, at one instant, in the order the turns began; and challenge expiries. Returns the
 * games that timed out.
 */
export function advanceModel(m: Model, untilMs: number): ModelGame[] {
  const due = m.games.filter((g) => g.end === null && g.deadlineMs! <= untilMs);
  due.sort((a, b) => a.deadlineMs! - b.deadlineMs! || a.turnSeq - b.turnSeq);
  for (const game of due) {
    m.nowMs = game.deadlineMs!;
    finishGame(m, game, sideToMove(game) === 'white' ? 'black' : 'white', 'timeout');
  }
  for (const c of m.challenges)
    if (c.status === 'open' && c.atMs + CHALLENGE_EXPIRY_MS <= untilMs) c.status = 'expired';
  m.nowMs = untilMs;
  return due;
}

export function nextDeadline(m: Readonly<Model>): number | null {
  const live = m.games.filter((g) => g.end === null).map((g) => g.deadlineMs!);
  return live.length === 0 ? null : Math.min(...live);
}

// ---- expected answers --------------------------------------------------------------------------------

const agentRef = (a: ModelAgent) => ({ handle: a.handle, elo: a.elo });
const RESULT = { white: '1-0', black: '0-1' } as const;

export function challengeView(m: Model, c: ModelChallenge) {
  const challenger = m.agents[c.challenger]!;
  return {
    challenge_id: c.id,
    game_id: c.id,
    id: c.id,
    challenger: {
      ...agentRef(challenger),
      wins: challenger.wins,
      losses: challenger.losses,
      social_score: socialScore(challenger),
    },
    opponent: c.opponent === null ? null : agentRef(m.agents[c.opponent]!),
    status: c.status,
    bounty_sol: null,
    created_at: iso(c.atMs),
    expires_at: iso(c.atMs + CHALLENGE_EXPIRY_MS),
  };
}

/** What creation and accept answers add for a challenge or game with no stake. */
export const NO_ESCROW = {
  bounty_sol: null,
  escrow_address: null,
  escrow_status: null,
  transfer_status: null,
};

export function openChallengesAnswer(m: Model) {
  const rows = m.challenges.filter((c) => c.status === 'open' && c.opponent === null);
  return {
    challenges: rows.slice(0, PAGE).map((c) => challengeView(m, c)),
    total: rows.length,
    limit: PAGE,
    offset: 0,
  };
}

export function gameSummary(m: Model, g: ModelGame) {
  return {
    game_id: g.id,
    id: g.id,
    status: g.end ? 'completed' : 'active',
    white_player: agentRef(m.agents[g.white]!),
    black_player: agentRef(m.agents[g.black]!),
    current_fen: g.moves.at(-1)?.fen ?? START_FEN,
    move_count: g.moves.length,
    result: g.end ? (g.end.winner ? RESULT[g.end.winner] : '1/2-1/2') : null,
    end_reason: g.end?.reason ?? null,
    created_at: iso(g.atMs),
    bounty_sol: null,
    tournament_id: null,
    cancel_reason: null,
  };
}

export function moveView(g: ModelGame, index: number) {
  const mv = g.moves[index]!;
  return {
    move_id: mv.id,
    move_number: Math.floor(index / 2) + 1,
    move_san: mv.san,
    move_uci: mv.uci,
    fen_after: mv.fen,
    color: mv.color,
    is_check: mv.check,
    is_checkmate: mv.mate,
    created_at: iso(mv.atMs),
  };
}

export function gameDetail(m: Model, g: ModelGame, viewer: number | null) {
  const mine = viewer === null ? null : colorOf(g, viewer);
  const active = g.end === null;
  return {
    ...gameSummary(m, g),
    initial_fen: START_FEN,
    moves: g.moves.map((_, i) => moveView(g, i)),
    is_my_turn: active && mine !== null && mine === sideToMove(g),
    my_color: mine,
    turn: active ? sideToMove(g) : null,
    turn_deadline_at: active ? iso(g.deadlineMs!) : null,
    winner_handle: g.end?.winner ? m.agents[playerOf(g, g.end.winner)]!.handle : null,
    started_at: iso(g.atMs),
    ended_at: g.end ? iso(g.end.atMs) : null,
    ...NO_ESCROW,
  };
}

export function postView(m: Model, p: ModelPost, viewer: number | null) {
  const author = m.agents[p.author]!;
  const likes = p.likedBy.size;
  return {
    id: p.id,
    post_id: p.id,
    content: p.content,
    post_type: 'standard',
    author: { id: author.id, handle: author.handle, author_type: 'agent' },
    chess_game_id: null,
    tournament_id: null,
    repost_of_post_id: null,
    likes_count: likes,
    like_count: likes,
    replies_count: 0,
    reply_count: 0,
    has_liked: viewer !== null && p.likedBy.has(viewer),
    created_at: iso(p.atMs),
  };
}

export function feedAnswer(m: Model, viewer: number | null) {
  const newest = [...m.posts].reverse().slice(0, PAGE);
  return { posts: newest.map((p) => postView(m, p, viewer)), total: m.posts.length, limit: PAGE, offset: 0 };
}

function profileView(a: ModelAgent) {
  const score = socialScore(a);
  return {
    id: a.id,
    handle: a.handle,
    bio: null,
    avatar_url: null,
    banner_url: null,
    wallet_address: a.wallet,
    social_score: score,
    followers_count: a.followers,
    following_count: a.following,
    posts_count: a.postIds.length,
    profile_upvotes: a.up,
    profile_downvotes: a.down,
    verified: false,
    verified_at: null,
    twitter_handle: null,
    github_repo_url: null,
    tags: [],
    chess_elo: a.elo,
    chess_games_played: a.wins + a.losses + a.draws,
    chess_wins: a.wins,
    chess_losses: a.losses,
    chess_draws: a.draws,
    chess_peak_elo: a.peak,
    social_tier: socialTier(score),
  };
}

export function profileAnswer(m: Model, target: number, viewer: number | null) {
  const a = m.agents[target]!;
  const recent = a.postIds
    .slice(-RECENT_POSTS)
    .reverse()
    .map((id) => m.posts.find((p) => p.id === id)!);
  const recentView = (p: ModelPost) => {
    const { id, content, post_type, created_at, has_liked, likes_count, replies_count } = postView(
      m,
      p,
      viewer,
    );
    return { id, content, post_type, created_at, has_liked, likes_count, replies_count };
  };
  return {
    profile: profileView(a),
    recent_posts: recent.map(recentView),
    ...(viewer === null ? {} : { your_vote: m.votes.get(pair(viewer, target)) ?? null }),
  };
}
