import { asSmallInt } from '../../../kernel/small-int.js';
import type { Challenge, ChallengeStatus, Game } from '../../state.js';

/** What a challenge keeps while it is open, and after it expired: what its game will not say. */
class OpenTerms {
  status: ChallengeStatus = 'open';
  acceptedById: string | null = null;
  acceptedAtMs: number | null = null;
  expiryTimer: number | null = null;
  readonly bountyLamports: number | null;
  readonly escrowAddress: string | null;

  constructor(bountyLamports: number | null, escrowAddress: string | null) {
    this.bountyLamports = bountyLamports;
    this.escrowAddress = escrowAddress;
  }
}

/**
 * A challenge. Once accepted and its game made, the game says who accepted it and when (its Black, its
 * creation), its stake and its escrow, so the challenge keeps the game in place of its open terms: an
 * accepted challenge, kept for the whole run like its game, costs its ids, its creation time and two small
 * fields (about 90 bytes instead of 160). Its expiry is kept as an offset from its creation, a small integer
 * that V8 keeps unboxed.
 */
export class ChallengeRecord implements Challenge {
  readonly id: string;
  readonly challengerId: string;
  readonly opponentId: string | null;
  readonly createdAtMs: number;
  readonly #expiresAfterMs: number;
  /** Open or expired: its terms; accepted, once its game is made (see settle): the game. */
  #kept: OpenTerms | Game;

  constructor(
    ids: { id: string; challengerId: string; opponentId: string | null },
    times: { createdAtMs: number; expiresAtMs: number },
    stake: { bountyLamports: number | null; escrowAddress: string | null },
  ) {
    this.id = ids.id;
    this.challengerId = ids.challengerId;
    this.opponentId = ids.opponentId;
    this.createdAtMs = times.createdAtMs;
    this.#expiresAfterMs = asSmallInt(times.expiresAtMs - times.createdAtMs);
    this.#kept = new OpenTerms(stake.bountyLamports, stake.escrowAddress);
  }

  get expiresAtMs(): number {
    return this.createdAtMs + this.#expiresAfterMs;
  }

  get status(): ChallengeStatus {
    const kept = this.#kept;
    return kept instanceof OpenTerms ? kept.status : 'accepted';
  }
  set status(status: ChallengeStatus) {
    this.terms().status = status;
  }

  get acceptedById(): string | null {
    const kept = this.#kept;
    return kept instanceof OpenTerms ? kept.acceptedById : kept.blackId;
  }
  set acceptedById(agentId: string | null) {
    this.terms().acceptedById = agentId;
  }

  get acceptedAtMs(): number | null {
    const kept = this.#kept;
    return kept instanceof OpenTerms ? kept.acceptedAtMs : kept.createdAtMs;
  }
  set acceptedAtMs(ms: number | null) {
    this.terms().acceptedAtMs = ms;
  }

  get expiryTimer(): number | null {
    const kept = this.#kept;
    return kept instanceof OpenTerms ? kept.expiryTimer : null;
  }
  set expiryTimer(timer: number | null) {
    this.terms().expiryTimer = timer;
  }

  get bountyLamports(): number | null {
    return this.#kept.bountyLamports;
  }

  get escrowAddress(): string | null {
    return this.#kept.escrowAddress;
  }

  /**
   * The challenge was accepted and `game` made from it: from now on the game answers for it. A game that
   * does not say the same (another acceptor, time or stake) leaves the challenge as it is.
   */
  settle(game: Game): void {
    const terms = this.#kept;
    if (!(terms instanceof OpenTerms) || terms.status !== 'accepted' || terms.expiryTimer !== null) return;
    const same =
      game.id === this.id &&
      game.whiteId === this.challengerId &&
      game.blackId === terms.acceptedById &&
      game.createdAtMs === terms.acceptedAtMs &&
      game.bountyLamports === terms.bountyLamports &&
      game.escrowAddress === terms.escrowAddress;
    if (same) this.#kept = game;
  }

  // Plain private methods, not #methods: a class with #methods gives every instance a brand field (8 bytes).
  private terms(): OpenTerms {
    const kept = this.#kept;
    if (!(kept instanceof OpenTerms))
      throw new Error(`challenge ${this.id}: accepted, nothing about it can change`);
    return kept;
  }
}

/** A challenge's fields as plain data (state snapshots: the same whatever a challenge keeps). */
export function challengeSnapshot(c: Challenge): Record<string, unknown> {
  return {
    id: c.id,
    challengerId: c.challengerId,
    opponentId: c.opponentId,
    status: c.status,
    createdAtMs: c.createdAtMs,
    expiresAtMs: c.expiresAtMs,
    acceptedById: c.acceptedById,
    acceptedAtMs: c.acceptedAtMs,
    expiryTimer: c.expiryTimer,
    bountyLamports: c.bountyLamports,
    escrowAddress: c.escrowAddress,
  };
}
