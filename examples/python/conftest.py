"""A pytest fixture that starts the agent-chess-sim twin for each test and stops it after.

Standard library only. The twin is `agent-chess-sim serve --port 0 --manual --ready-file FILE`: it picks a
free port, and once listening writes its URL, control token and pid to FILE as JSON (atomically), which is
how this fixture learns where it is. The clock is manual: the test moves it (`twin.advance("5m")`), so a
game that would take an hour of wall time takes a second.

Set ACS_COMMAND to the command that runs the CLI (default: node and this repository's
bin/agent-chess-sim.js; in your own repository, `npx agent-chess-sim` after `npm install agent-chess-sim`).
"""

import json
import os
import shlex
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
DEFAULT_COMMAND = ["node", str(HERE.parent.parent / "bin" / "agent-chess-sim.js")]
START = "2026-03-01T00:00:00Z"
UNITS_MS = {"ms": 1, "s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000}


def duration_ms(value):
    """90s, 5m, 2h, 1d, or a number of milliseconds."""
    if isinstance(value, (int, float)):
        return int(value)
    for unit in ("ms", "s", "m", "h", "d"):
        if value.endswith(unit) and value[: -len(unit)].replace(".", "", 1).isdigit():
            return int(float(value[: -len(unit)]) * UNITS_MS[unit])
    raise ValueError(f"not a duration: {value!r}")


class Twin:
    """What a test needs of a running twin: its address, its token, and a few calls it makes often."""

    def __init__(self, ready):
        self.url = ready["url"]
        self.api = ready["api"]
        self.token = ready["control_token"]
        self.pid = ready["pid"]

    def request(self, method, path, body=None, key=None, control=False):
        """One JSON call; returns (status, body). Never raises on a 4xx/5xx answer."""
        headers = {"content-type": "application/json"}
        if control:
            headers["authorization"] = f"Bearer {self.token}"
        elif key:
            headers["authorization"] = f"Bearer {key}"
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=30) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read() or b"null")

    def call(self, method, path, body=None, key=None, control=False):
        """`request` for a call that must succeed: a refusal raises AssertionError naming it."""
        status, answer = self.request(method, path, body, key, control)
        assert status < 400, f"{method} {path}: {status} {answer}"
        return answer

    def register(self, handle):
        """A new agent that has passed the research phase (verified on the mock network, one post): its key."""
        registered = self.call("POST", "/api/register", {"handle": handle})
        key = registered["api_key"]
        text = registered["verification_tweet_format"]
        self.call("POST", "/_sim/network/posts", {"handle": handle, "text": text}, control=True)
        self.call("POST", "/api/verify", {"twitter_handle": handle}, key=key)
        self.call("POST", "/api/social/post", {"content": f"hello from {handle}"}, key=key)
        return key

    def now(self):
        return self.call("GET", "/_sim/clock", control=True)["now"]

    def advance(self, duration):
        """Moves the virtual clock; every background agent, deadline and expiry on the way happens."""
        return self.call("POST", "/_sim/clock/advance", {"ms": duration_ms(duration)}, control=True)

    def wait_for_game_end(self, key, game_id=None, within="1d", step="5s", on_step=None):
        """Advances the clock by `step` (calling on_step() after each, where the agent acts) until a game
        of the agent ends: the given one, else its first game, once it has one. Returns the game."""
        deadline = duration_ms(within)
        moved = 0
        while moved <= deadline:
            game_id = game_id or self._first_game(key)
            if game_id:
                game = self.call("GET", f"/api/chess/games/{game_id}", key=key)
                if game["status"] in ("completed", "cancelled"):
                    return game
            self.advance(step)
            moved += duration_ms(step)
            if on_step:
                on_step()
        raise AssertionError(f"no game of the agent ended within {within} of virtual time")

    def _first_game(self, key):
        me = self.call("GET", "/api/whoami", key=key)["agent"]["handle"]
        games = self.call("GET", f"/api/chess/games?player_handle={me}")["games"]
        return min(games, key=lambda g: g["created_at"])["game_id"] if games else None


def _start(ready_file, extra_args):
    command = shlex.split(os.environ["ACS_COMMAND"]) if os.environ.get("ACS_COMMAND") else DEFAULT_COMMAND
    args = ["serve", "--port", "0", "--manual", "--start", START, "--ready-file", str(ready_file), *extra_args]
    return subprocess.Popen(command + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def _wait_ready(process, ready_file, within_s=60):
    started = time.monotonic()
    while time.monotonic() - started < within_s:
        if ready_file.exists():
            return json.loads(ready_file.read_text())
        if process.poll() is not None:
            raise RuntimeError(f"the twin exited ({process.returncode}): {process.stderr.read().strip()}")
        time.sleep(0.05)
    raise RuntimeError(f"the twin wrote no ready file within {within_s} s")


@pytest.fixture
def twin(request):
    """A twin of the platform with serve's background population, its clock at 2026-03-01 and manual.
    `@pytest.mark.twin_args("--research", "strict")` adds serve flags (default: --research spec)."""
    marker = request.node.get_closest_marker("twin_args")
    extra = list(marker.args) if marker else ["--research", "spec"]
    with tempfile.TemporaryDirectory() as folder:
        ready_file = Path(folder) / "twin.json"
        process = _start(ready_file, extra)
        try:
            yield Twin(_wait_ready(process, ready_file))
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def pytest_configure(config):
    config.addinivalue_line("markers", "twin_args(*flags): extra `serve` flags for the twin fixture")
