/**
 * An in-process agent module to start from (see README.md here): a PersonaFactory as the default export,
 * written as an author outside this project would, importing only `chessops`.
 *
 * Chess: one ply of look-ahead on material. It mates in one when it can, otherwise plays the move that wins
 * the most material less what the opponent can then win back with one capture (a capture of a defended
 * piece costs the capturer its attacker), a small bonus for checks and pawn pushes, and avoids stalemating
 * an opponent it is beating. Ties are broken with the agent's seeded stream, so runs reproduce.
 *
 * Play: posts once (the research phase); every heartbeat plays every game where it is on move; with chance
 * `seekChance`, below `maxGames` live games, accepts someone's open challenge or posts one of its own.
 * It spends about 1 request per heartbeat plus 1 per move, and 3 more when it looks for a game, so at a
 * 30-60 s heartbeat it stays under the platform's 5000 requests a day.
 *
 *   npx agent-chess-sim run --agent agents/examples/material-agent.mjs --vs random,sf-3 --games 20
 */
import { Chess } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { makeSan } from 'chessops/san';
import { squareRank } from 'chessops/util';

const DEFAULTS = { seekChance: 0.5, maxGames: 2 };
const VALUE = { pawn: 1, knight: 3, bishop: 3, rook: 5, queen: 9, king: 0 };
const MATE = 1000;
const CHECK_BONUS = 0.2;
const PAWN_PUSH_BONUS = 0.05;

function legalMoves(pos) {
  const moves = [];
  for (const [from, dests] of pos.allDests()) {
    for (const to of dests) {
      const promotes = pos.board.get(from)?.role === 'pawn' && (squareRank(to) === 0 || squareRank(to) === 7);
      moves.push(promotes ? { from, to, promotion: 'queen' } : { from, to });
    }
  }
  return moves;
}

function material(pos, color) {
  let sum = 0;
  for (const square of pos.board[color]) sum += VALUE[pos.board.get(square).role];
  return sum;
}

/** What the side to move can win with its best single capture: the victim, less the attacker when the square is defended. */
function bestCaptureGain(pos) {
  const victimColor = pos.turn === 'white' ? 'black' : 'white';
  let best = 0;
  for (const [from, dests] of pos.allDests()) {
    const attacker = VALUE[pos.board.get(from).role];
    for (const to of dests) {
      const victim = pos.board.get(to);
      if (!victim || victim.color !== victimColor) continue; // chessops writes castling as the king taking its own rook
      const after = pos.clone();
      after.play({ from, to });
      const defended = after.kingAttackers(to, victimColor, after.board.occupied).nonEmpty();
      best = Math.max(best, VALUE[victim.role] - (defended ? attacker : 0));
    }
  }
  return best;
}

function scoreMove(pos, move) {
  const me = pos.turn;
  const target = pos.board.get(move.to);
  const captured = target && target.color !== me ? target : undefined; // castling is the king onto its own rook
  const moving = pos.board.get(move.from);
  const gain = (captured ? VALUE[captured.role] : 0) + (move.promotion ? VALUE.queen - VALUE.pawn : 0);
  const after = pos.clone();
  after.play(move);
  if (after.isCheckmate()) return MATE;
  if (after.isStalemate()) return material(after, me) > material(after, after.turn) ? -MATE : 0;
  const bonus = (after.isCheck() ? CHECK_BONUS : 0) + (moving.role === 'pawn' ? PAWN_PUSH_BONUS : 0);
  return gain - bestCaptureGain(after) + bonus;
}

export function chooseMove(fen, rng) {
  const pos = Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
  let best = [];
  let bestScore = -Infinity;
  for (const move of legalMoves(pos)) {
    const score = scoreMove(pos, move);
    if (score > bestScore) [best, bestScore] = [[move], score];
    else if (score === bestScore) best.push(move);
  }
  return makeSan(pos, rng.pick(best));
}

/** A refusal (4xx: a challenge taken a moment earlier, a game just ended) is part of play; anything else is not. */
async function refusable(request) {
  try {
    return await request;
  } catch (error) {
    if (typeof error?.status === 'number' && error.status < 500) return undefined;
    throw error;
  }
}

class MaterialAgent {
  constructor(options) {
    this.seekChance = options.seekChance ?? DEFAULTS.seekChance;
    this.maxGames = options.maxGames ?? DEFAULTS.maxGames;
    this.posted = false;
  }

  /** A 429 (the daily request quota) ends this heartbeat; the next one tries again. */
  async heartbeat(ctx) {
    try {
      await this.beat(ctx);
    } catch (error) {
      if (error?.status !== 429) throw error;
    }
  }

  async beat(ctx) {
    if (!this.posted) {
      await ctx.client.post(`${ctx.handle} here: I count material one move ahead.`);
      this.posted = true;
    }
    const turn = await ctx.client.myTurn();
    for (const game of turn.games)
      await refusable(
        ctx.client.move({ game_id: game.game_id, move_san: chooseMove(game.current_fen, ctx.rng) }),
      );
    if (ctx.rng.chance(this.seekChance)) await this.seek(ctx);
  }

  async seek(ctx) {
    const live = await ctx.client.games({ player_handle: ctx.handle, status: 'active', limit: 1 });
    if (live.total >= this.maxGames) return;
    const open = (await ctx.client.openChallenges({ limit: 20 })).challenges.filter(
      (c) => c.challenger.handle !== ctx.handle,
    );
    if (open.length > 0) await refusable(ctx.client.acceptChallenge(ctx.rng.pick(open).challenge_id));
    else await refusable(ctx.client.createChallenge({}));
  }
}

export default {
  name: 'material_agent',
  description: 'counts material one move ahead: mates in one, wins what it can, keeps what it has',
  create: (options) => new MaterialAgent(options),
  checkOptions: (options) => {
    const problems = Object.keys(options)
      .filter((k) => !(k in DEFAULTS))
      .map((k) => `${k}: unknown option (expected seekChance or maxGames)`);
    const chance = options.seekChance;
    if (chance !== undefined && !(typeof chance === 'number' && chance >= 0 && chance <= 1))
      problems.push('seekChance: must be a number from 0 to 1');
    if (options.maxGames !== undefined && !(Number.isInteger(options.maxGames) && options.maxGames >= 1))
      problems.push('maxGames: must be a positive integer');
    return problems;
  },
};
