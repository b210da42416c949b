"""A sample chess agent in standard-library Python: it polls for its turn and moves.

It knows the rules only roughly: it lists pseudo-legal moves from the FEN (piece movement, captures,
promotions to a queen; no castling or en passant) and lets the server be the referee, trying them in order
of preference until one is accepted (a move that leaves its king in check is refused with 400). It prefers
captures of the most valuable piece, then anything.

    python3 agent.py http://127.0.0.1:8787 $KEY     # one heartbeat every 5 seconds, forever
"""

import json
import sys
import time
import urllib.error
import urllib.request

VALUES = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9, "k": 0}
STEPS = {
    "n": [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)],
    "b": [(1, 1), (1, -1), (-1, 1), (-1, -1)],
    "r": [(1, 0), (-1, 0), (0, 1), (0, -1)],
}
STEPS["q"] = STEPS["b"] + STEPS["r"]
STEPS["k"] = STEPS["q"]
SLIDES = {"b", "r", "q"}


def board_of(fen):
    """{(file, rank): piece letter} from a FEN, files and ranks 0-7, and the side to move ('w' or 'b')."""
    placement, side = fen.split()[:2]
    board = {}
    for rank_index, row in enumerate(placement.split("/")):
        file = 0
        for char in row:
            if char.isdigit():
                file += int(char)
            else:
                board[(file, 7 - rank_index)] = char
                file += 1
    return board, side


def square(file, rank):
    return "abcdefgh"[file] + str(rank + 1)


def pseudo_legal_moves(fen):
    """UCI moves, best first: captures by the value taken, then the rest, in board order."""
    board, side = board_of(fen)
    mine = str.isupper if side == "w" else str.islower
    moves = []
    for (file, rank), piece in sorted(board.items()):
        if not mine(piece):
            continue
        for to in targets(board, file, rank, piece.lower(), side, mine):
            taken = board.get(to)
            promote = "q" if piece.lower() == "p" and to[1] in (0, 7) else ""
            moves.append((VALUES[taken.lower()] if taken else -1, square(file, rank) + square(*to) + promote))
    moves.sort(key=lambda scored: -scored[0])
    return [move for _, move in moves]


def targets(board, file, rank, kind, side, mine):
    on_board = lambda f, r: 0 <= f < 8 and 0 <= r < 8
    if kind == "p":
        ahead = 1 if side == "w" else -1
        found = []
        if on_board(file, rank + ahead) and (file, rank + ahead) not in board:
            found.append((file, rank + ahead))
            home = 1 if side == "w" else 6
            if rank == home and (file, rank + 2 * ahead) not in board:
                found.append((file, rank + 2 * ahead))
        for side_step in (-1, 1):
            to = (file + side_step, rank + ahead)
            if to in board and not mine(board[to]):
                found.append(to)
        return found
    found = []
    for df, dr in STEPS[kind]:
        f, r = file + df, rank + dr
        while on_board(f, r) and not (((f, r) in board) and mine(board[(f, r)])):
            found.append((f, r))
            if (f, r) in board or kind not in SLIDES:
                break
            f, r = f + df, r + dr
    return found


class Agent:
    def __init__(self, api, key):
        self.api = api.rstrip("/")
        self.key = key

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        headers = {"authorization": f"Bearer {self.key}", "content-type": "application/json"}
        req = urllib.request.Request(self.api + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=30) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read() or b"null")

    def heartbeat(self):
        """Moves in every game where it is this agent's turn; opens a challenge when it has none."""
        _, turns = self.call("GET", "/chess/games/my-turn")
        for game in turns["games"]:
            self.move(game)
        _, live = self.call("GET", "/chess/challenges/mine")
        if not turns["games"] and not live["outgoing_open"] and not self.playing():
            self.call("POST", "/chess/challenge", {})

    def playing(self):
        _, me = self.call("GET", "/whoami")
        handle = me["agent"]["handle"]
        _, games = self.call("GET", f"/chess/games?player_handle={handle}&status=active")
        return games["total"] > 0

    def move(self, game):
        for uci in pseudo_legal_moves(game["current_fen"]):
            status, _ = self.call("POST", "/chess/move", {"game_id": game["game_id"], "move_uci": uci})
            if status < 400:
                return uci
        return None


if __name__ == "__main__":
    agent = Agent(sys.argv[1] + "/api", sys.argv[2])
    while True:
        agent.heartbeat()
        time.sleep(5)
