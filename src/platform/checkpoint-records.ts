import type { Field } from '../kernel/checkpoint.js';
import { RATE_ACTIONS } from '../rules/rate-limit.js';
import { END_REASONS } from '../rules/chess/game.js';
import { STANDARD_START_FEN } from '../rules/chess/chess.js';
import type { SavedGame } from './chess/storage/game-record.js';
import type { PlatformTimer } from './platform.js';
import {
  POST_TYPES,
  TRANSFER_TYPES,
  type Actor,
  type Agent,
  type ApiUsage,
  type Eligibility,
  type Escrow,
  type ExternalAccount,
  type GameEnd,
  type Human,
  type Match,
  type Notification,
  type Participant,
  type Post,
  type Reply,
  type Tournament,
  type Transfer,
  type TransferPurpose,
} from './state.js';

/**
 * How each record of the platform's tables is read back from a checkpoint (src/platform/checkpoint.ts), in
 * the form the state fingerprint writes it (src/platform/snapshot.ts). Each reader takes every field through
 * `Field`, so a wrong type or an unknown field is a CheckpointError naming it; the records are built with the
 * fields in the order their routes create them, so restored records share the live ones' shapes.
 */

/** Ids, handles, hashes, addresses: short strings. */
export const ID_MAX = 256;

export const id = (f: Field): string => f.str(ID_MAX);
const optionalId = (f: Field): string | null => f.nullOr(id);
const optionalText = (f: Field): string | null => f.nullOr((v) => v.str());
const optionalNat = (f: Field): number | null => f.nullOr((v) => v.nat());
const optionalNum = (f: Field): number | null => f.nullOr((v) => v.num());

function usage(f: Field): ApiUsage {
  return f.record((get) => ({
    dayIndex: get('dayIndex').nat(),
    requestsToday: get('requestsToday').nat(),
    totalRequests: get('totalRequests').nat(),
    lastUsedMs: optionalNat(get('lastUsedMs')),
  }));
}

function rateLog(f: Field): Actor['rateLog'] {
  return f.record((get) => {
    const log = {} as Actor['rateLog'];
    for (const action of RATE_ACTIONS) log[action] = get(action).list((t) => t.nat());
    return log;
  });
}

type Get = (key: string) => Field;

/** A `[key, value]` list of two, as maps are saved. */
export function pair<K, V>(f: Field, readKey: (key: Field) => K, readValue: (value: Field) => V): [K, V] {
  const cells = f.list((cell) => cell);
  if (cells.length !== 2) f.fail('a [key, value] pair');
  return [readKey(cells[0]!), readValue(cells[1]!)];
}

/** The fields agents and humans share, in `actorBase`'s order (src/platform/identity/actors.ts). */
function actorFields(get: Get): Omit<Actor, 'kind' | 'handle' | 'bio'> {
  return {
    id: id(get('id')),
    apiKeyHash: id(get('apiKeyHash')),
    apiKeyPrefix: id(get('apiKeyPrefix')),
    createdAtMs: get('createdAtMs').nat(),
    postsCount: get('postsCount').nat(),
    followingCount: get('followingCount').nat(),
    followersCount: get('followersCount').nat(),
    likesGivenCount: get('likesGivenCount').nat(),
    likesReceived: get('likesReceived').nat(),
    repliesReceived: get('repliesReceived').nat(),
    profileUpvotes: get('profileUpvotes').nat(),
    profileDownvotes: get('profileDownvotes').nat(),
    usage: usage(get('usage')),
    rateLog: rateLog(get('rateLog')),
  };
}

export function agent(f: Field): Agent {
  return f.record((get) => {
    const base = actorFields(get);
    get('kind').oneOf(['agent']);
    // Written out, not spread: see `register` (a spread gives every record a hidden class of its own).
    return {
      id: base.id,
      apiKeyHash: base.apiKeyHash,
      apiKeyPrefix: base.apiKeyPrefix,
      createdAtMs: base.createdAtMs,
      postsCount: base.postsCount,
      followingCount: base.followingCount,
      followersCount: base.followersCount,
      likesGivenCount: base.likesGivenCount,
      likesReceived: base.likesReceived,
      repliesReceived: base.repliesReceived,
      profileUpvotes: base.profileUpvotes,
      profileDownvotes: base.profileDownvotes,
      usage: base.usage,
      rateLog: base.rateLog,
      kind: 'agent' as const,
      handle: id(get('handle')),
      bio: optionalText(get('bio')),
      tags: get('tags').list(id),
      githubUrl: optionalText(get('githubUrl')),
      githubUsername: optionalId(get('githubUsername')),
      githubRepoUrl: optionalText(get('githubRepoUrl')),
      walletAddress: id(get('walletAddress')),
      verificationCode: id(get('verificationCode')),
      verified: get('verified').bool(),
      verifiedAtMs: optionalNat(get('verifiedAtMs')),
      twitterHandle: optionalId(get('twitterHandle')),
      avatarUrl: optionalText(get('avatarUrl')),
      twitterDisplayName: optionalText(get('twitterDisplayName')),
      twitterFollowers: optionalNat(get('twitterFollowers')),
      socialRefreshedAtMs: optionalNat(get('socialRefreshedAtMs')),
      handleChangesLeft: get('handleChangesLeft').nat(),
      elo: get('elo').num(),
      peakElo: get('peakElo').num(),
      wins: get('wins').nat(),
      losses: get('losses').nat(),
      draws: get('draws').nat(),
    };
  });
}

export function human(f: Field): Human {
  return f.record((get) => {
    const base = actorFields(get);
    get('kind').oneOf(['human']);
    return {
      id: base.id,
      apiKeyHash: base.apiKeyHash,
      apiKeyPrefix: base.apiKeyPrefix,
      createdAtMs: base.createdAtMs,
      postsCount: base.postsCount,
      followingCount: base.followingCount,
      followersCount: base.followersCount,
      likesGivenCount: base.likesGivenCount,
      likesReceived: base.likesReceived,
      repliesReceived: base.repliesReceived,
      profileUpvotes: base.profileUpvotes,
      profileDownvotes: base.profileDownvotes,
      usage: base.usage,
      rateLog: base.rateLog,
      kind: 'human' as const,
      handle: id(get('handle')),
      bio: optionalText(get('bio')),
      displayName: get('displayName').str(),
      avatarUrl: optionalText(get('avatarUrl')),
    };
  });
}

/** A challenge as `challengeSnapshot` writes it (src/platform/chess/storage/challenge-record.ts). */
export interface SavedChallenge {
  id: string;
  challengerId: string;
  opponentId: string | null;
  status: 'open' | 'accepted' | 'expired';
  createdAtMs: number;
  expiresAtMs: number;
  acceptedById: string | null;
  acceptedAtMs: number | null;
  expiryTimer: number | null;
  bountyLamports: number | null;
  escrowAddress: string | null;
}

export function challenge(f: Field): SavedChallenge {
  return f.record((get) => {
    const createdAtMs = get('createdAtMs').nat();
    return {
      id: id(get('id')),
      challengerId: id(get('challengerId')),
      opponentId: optionalId(get('opponentId')),
      status: get('status').oneOf(['open', 'accepted', 'expired'] as const),
      createdAtMs,
      // Kept as an offset from the creation that must be a small integer (see ChallengeRecord).
      expiresAtMs: get('expiresAtMs').int(createdAtMs, createdAtMs + 2 ** 30 - 1),
      acceptedById: optionalId(get('acceptedById')),
      acceptedAtMs: optionalNat(get('acceptedAtMs')),
      expiryTimer: optionalNat(get('expiryTimer')),
      bountyLamports: optionalNat(get('bountyLamports')),
      escrowAddress: optionalId(get('escrowAddress')),
    };
  });
}

export function gameEnd(f: Field): GameEnd {
  return f.record((get) => ({
    result: get('result').oneOf(['1-0', '0-1', '1/2-1/2'] as const),
    reason: get('reason').oneOf(END_REASONS),
    winner: get('winner').nullOr((w) => w.oneOf(['white', 'black'] as const)),
    endedAtMs: get('endedAtMs').nat(),
    whiteEloBefore: get('whiteEloBefore').num(),
    blackEloBefore: get('blackEloBefore').num(),
    whiteDelta: get('whiteDelta').num(),
    blackDelta: get('blackDelta').num(),
    equalK: get('equalK').bool(),
  }));
}

/** A game as `gameSnapshot` writes it: what GameRecord.restore needs, and what the replay must agree with. */
export interface SavedGameRow {
  game: SavedGame;
  fen: string;
  /** A live game's board as saved (FEN, plies, repetition counts), checked against the replayed one. */
  board: { fen: string; plies: number; repetitions: Array<[string, number]> } | null;
}

export function game(f: Field): SavedGameRow {
  return f.record((get) => {
    const gameId = id(get('id'));
    const status = get('status').oneOf(['pending', 'active', 'completed', 'cancelled'] as const);
    const createdAtMs = get('createdAtMs').nat();
    const seat = {
      id: gameId,
      whiteId: id(get('whiteId')),
      blackId: id(get('blackId')),
      ...optionalTerms(get),
    };
    get('initialFen').oneOf([STANDARD_START_FEN]); // every game starts from it (GameRecord)
    const board = get('board').nullOr((b) =>
      b.record((part) => ({
        fen: part('fen').str(128),
        plies: part('plies').nat(),
        repetitions: part('repetitions').list((r) =>
          pair(
            r,
            (key) => key.str(128),
            (count) => count.int(1),
          ),
        ),
      })),
    );
    const saved: SavedGame = {
      seat,
      seq: get('seq').nat(),
      createdAtMs,
      status,
      startedAtMs: get('startedAtMs').nullOr((v) => v.int(createdAtMs, createdAtMs + 2 ** 30 - 1)),
      turnStartedMs: optionalNat(get('turnStartedMs')),
      deadlineMs: optionalNat(get('deadlineMs')),
      deadlineTimer: optionalNat(get('deadlineTimer')),
      end: get('end').nullOr(gameEnd),
      cancelReason: optionalText(get('cancelReason')),
      moves: { text: get('moves').str(), count: get('plies').nat() },
      repetitions: board?.repetitions ?? [],
    };
    return { game: saved, fen: get('fen').str(128), board };
  });
}

/** A game's stake and tournament: present only where not null (GameRecord keeps no terms for most games). */
function optionalTerms(get: Get): { bountyLamports?: number; escrowAddress?: string; tournamentId?: string } {
  const terms: { bountyLamports?: number; escrowAddress?: string; tournamentId?: string } = {};
  const bounty = optionalNat(get('bountyLamports'));
  const escrow = optionalId(get('escrowAddress'));
  const tournament = optionalId(get('tournamentId'));
  if (bounty !== null) terms.bountyLamports = bounty;
  if (escrow !== null) terms.escrowAddress = escrow;
  if (tournament !== null) terms.tournamentId = tournament;
  return terms;
}

export function post(f: Field): Post {
  return f.record((get) => ({
    id: id(get('id')),
    seq: get('seq').nat(),
    authorId: id(get('authorId')),
    authorKind: get('authorKind').oneOf(['agent', 'human'] as const),
    content: get('content').str(),
    postType: get('postType').oneOf(POST_TYPES),
    chessGameId: optionalId(get('chessGameId')),
    tournamentId: optionalId(get('tournamentId')),
    repostOfPostId: optionalId(get('repostOfPostId')),
    createdAtMs: get('createdAtMs').nat(),
    mentions: get('mentions').list(id),
    likesCount: get('likesCount').nat(),
    repliesCount: get('repliesCount').nat(),
  }));
}

export function reply(f: Field): Reply {
  return f.record((get) => ({
    id: id(get('id')),
    seq: get('seq').nat(),
    postId: id(get('postId')),
    parentReplyId: optionalId(get('parentReplyId')),
    depth: get('depth').int(1),
    authorId: id(get('authorId')),
    authorKind: get('authorKind').oneOf(['agent', 'human'] as const),
    content: get('content').str(),
    createdAtMs: get('createdAtMs').nat(),
    mentions: get('mentions').list(id),
    likesCount: get('likesCount').nat(),
    repliesCount: get('repliesCount').nat(),
  }));
}

export function notification(f: Field): Notification {
  return f.record((get) => ({
    seq: get('seq').nat(),
    type: get('type').oneOf(['mentions', 'game_posts', 'replies'] as const),
    postId: id(get('postId')),
    replyId: optionalId(get('replyId')),
    atMs: get('atMs').nat(),
  }));
}

function purpose(f: Field): TransferPurpose {
  return f.record((get, has) => {
    const kind = get('kind').oneOf(['bounty', 'tournament', 'funding'] as const);
    if (kind === 'bounty') return { kind, escrow: id(get('escrow')) };
    if (kind === 'tournament') return { kind, tournamentId: id(get('tournamentId')) };
    if (has('escrow') || has('tournamentId')) f.fail('a funding purpose with no other field');
    return { kind };
  });
}

export function transfer(f: Field): Transfer {
  return f.record((get) => ({
    id: id(get('id')),
    seq: get('seq').nat(),
    type: get('type').oneOf(TRANSFER_TYPES),
    from: id(get('from')),
    to: id(get('to')),
    lamports: get('lamports').nat(),
    agentId: optionalId(get('agentId')),
    chargedToId: optionalId(get('chargedToId')),
    purpose: purpose(get('purpose')),
    description: get('description').str(),
    status: get('status').oneOf(['queued', 'settled', 'failed'] as const),
    attempts: get('attempts').nat(),
    createdAtMs: get('createdAtMs').nat(),
    settledAtMs: optionalNat(get('settledAtMs')),
    failureReason: optionalText(get('failureReason')),
  }));
}

export function escrow(f: Field): Escrow {
  return f.record((get) => ({
    address: id(get('address')),
    kind: get('kind').oneOf(['bounty', 'tournament'] as const),
    refId: id(get('refId')),
    status: get('status').oneOf([
      'awaiting_deposits',
      'funded',
      'paying_out',
      'paid_out',
      'refunding',
      'refunded',
    ] as const),
    pendingIn: new Set(get('pendingIn').list(id)),
    pendingOut: new Set(get('pendingOut').list(id)),
    depositIds: get('depositIds').list(id),
    settledDepositIds: get('settledDepositIds').list(id),
    lamportsIn: get('lamportsIn').nat(),
    lamportsOut: get('lamportsOut').nat(),
    timer: optionalNat(get('timer')),
    closedAtMs: optionalNat(get('closedAtMs')),
  }));
}

function eligibility(f: Field): Eligibility {
  return f.record((get) => ({
    verifiedOnly: get('verifiedOnly').bool(),
    eloMin: optionalNum(get('eloMin')),
    eloMax: optionalNum(get('eloMax')),
    minGamesPlayed: optionalNat(get('minGamesPlayed')),
    maxGamesPlayed: optionalNat(get('maxGamesPlayed')),
    requiredTags: get('requiredTags').list(id),
  }));
}

function participant(f: Field): Participant {
  return f.record((get) => ({
    id: id(get('id')),
    agentId: id(get('agentId')),
    joinOrder: get('joinOrder').nat(),
    joinedAtMs: get('joinedAtMs').nat(),
    entryTransferId: optionalId(get('entryTransferId')),
    paymentStatus: get('paymentStatus').oneOf(['pending', 'paid', 'free', 'failed', 'refunded'] as const),
    seed: optionalNat(get('seed')),
    eloAtSeed: optionalNum(get('eloAtSeed')),
    eliminated: get('eliminated').bool(),
    eliminatedRound: optionalNat(get('eliminatedRound')),
  }));
}

function match(f: Field): Match {
  return f.record((get) => {
    const slots = get('slots').list(optionalId);
    if (slots.length !== 2) get('slots').fail('a list of two slots');
    return {
      matchIndex: get('matchIndex').nat(),
      slots: [slots[0]!, slots[1]!] as [string | null, string | null],
      gameId: optionalId(get('gameId')),
      winnerId: optionalId(get('winnerId')),
      status: get('status').oneOf(['waiting', 'active', 'completed'] as const),
    };
  });
}

export function tournament(f: Field): Tournament {
  return f.record((get) => ({
    id: id(get('id')),
    seq: get('seq').nat(),
    name: get('name').str(),
    description: optionalText(get('description')),
    creatorId: id(get('creatorId')),
    maxParticipants: get('maxParticipants').nat(),
    prizeLamports: get('prizeLamports').nat(),
    entryFeeLamports: get('entryFeeLamports').nat(),
    distribution: get('distribution').oneOf(['winner_only', 'top_four'] as const),
    organizerFeeEnabled: get('organizerFeeEnabled').bool(),
    eligibility: eligibility(get('eligibility')),
    minimumStartAtMs: optionalNat(get('minimumStartAtMs')),
    createdAtMs: get('createdAtMs').nat(),
    registrationClosesAtMs: get('registrationClosesAtMs').nat(),
    escrowAddress: id(get('escrowAddress')),
    fundTransferId: optionalId(get('fundTransferId')),
    fundSettled: get('fundSettled').bool(),
    status: get('status').oneOf(['registration', 'in_progress', 'completed', 'cancelled'] as const),
    participants: get('participants').list(participant),
    joins: get('joins').nat(),
    filledAtMs: optionalNat(get('filledAtMs')),
    seededAtMs: optionalNat(get('seededAtMs')),
    scheduledStartMs: optionalNat(get('scheduledStartMs')),
    startedAtMs: optionalNat(get('startedAtMs')),
    completedAtMs: optionalNat(get('completedAtMs')),
    timer: optionalNat(get('timer')),
    rounds: get('rounds').list((round) => round.list(match)),
    placements: get('placements').list(id),
    cancelReason: optionalText(get('cancelReason')),
  }));
}

export function externalAccount(f: Field): ExternalAccount {
  return f.record((get) => ({
    handle: id(get('handle')),
    displayName: get('displayName').str(),
    avatarUrl: get('avatarUrl').str(),
    followers: get('followers').nat(),
    banned: get('banned').bool(),
    posts: get('posts').list((p) =>
      p.record((part) => ({ id: id(part('id')), text: part('text').str(), atMs: part('atMs').nat() })),
    ),
  }));
}

export function timer(f: Field): PlatformTimer {
  return f.record((get) => {
    const kind = get('kind').oneOf([
      'turn_deadline',
      'challenge_expiry',
      'transfer_due',
      'bounty_funding_deadline',
      'tournament_timer',
    ] as const);
    switch (kind) {
      case 'turn_deadline':
        return { kind, gameId: id(get('gameId')), deadlineMs: get('deadlineMs').nat() };
      case 'challenge_expiry':
        return { kind, challengeId: id(get('challengeId')) };
      case 'transfer_due':
        return { kind, transferId: id(get('transferId')), attempt: get('attempt').nat() };
      case 'bounty_funding_deadline':
        return { kind, gameId: id(get('gameId')) };
      case 'tournament_timer':
        return {
          kind,
          tournamentId: id(get('tournamentId')),
          phase: get('phase').oneOf(['registration_closes', 'settlement_ends', 'round_one'] as const),
        };
    }
  });
}
