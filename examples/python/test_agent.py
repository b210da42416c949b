"""The sample agent's tests, against a twin the fixture in conftest.py starts for each test."""

from agent import Agent, pseudo_legal_moves

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def test_lists_the_twenty_opening_moves():
    moves = pseudo_legal_moves(START_FEN)
    assert len(moves) == 20
    assert "e2e4" in moves and "g1f3" in moves


def test_prefers_taking_the_queen():
    fen = "4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1"
    assert pseudo_legal_moves(fen)[0] == "e4d5"


def test_the_ready_file_names_a_twin_that_answers(twin):
    status, health = twin.request("GET", "/api/health")
    assert status == 200
    assert twin.now() == "2026-03-01T00:00:00.000Z"
    assert twin.request("GET", "/_sim/clock")[0] == 401  # the control plane needs the token


def test_plays_a_game_to_its_end_and_reads_the_result(twin):
    key = twin.register("py_agent")
    agent = Agent(twin.api, key)
    agent.heartbeat()  # opens a challenge; a background player accepts it within a minute or two
    game = twin.wait_for_game_end(key, within="1d", step="20s", on_step=agent.heartbeat)
    assert game["status"] == "completed"
    assert game["result"] in ("1-0", "0-1", "1/2-1/2")
    status, history = agent.call("GET", "/chess/games/history")
    assert status == 200 and history["games"][0]["game_id"] == game["game_id"]


def test_moves_before_every_deadline_when_it_polls_often_enough(twin):
    """The turn limit is 5 minutes: polling every 30 virtual seconds makes it, every 6 minutes does not."""
    key = twin.register("py_prompt")
    agent = Agent(twin.api, key)
    agent.heartbeat()
    game = twin.wait_for_game_end(key, within="1d", step="30s", on_step=agent.heartbeat)
    assert game["end_reason"] != "timeout" or game["winner_handle"] == "py_prompt"

    slow = twin.register("py_sleepy")
    sleepy = Agent(twin.api, slow)
    sleepy.heartbeat()
    game = twin.wait_for_game_end(slow, within="1d", step="6m", on_step=sleepy.heartbeat)
    assert game["end_reason"] == "timeout" and game["winner_handle"] != "py_sleepy"
