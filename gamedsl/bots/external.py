"""A bot in any language, run as a child process speaking JSON lines (docs/bots.md).

The seat spec `cmd:COMMAND[:timeout=SECONDS][:fallback=random|forfeit]` starts COMMAND
(split like a shell line, no shell) once per game. It is sent one JSON object per line
on its stdin and answers each `choose` with one line on its stdout:

  -> {"type": "start", "protocol": 2, "game": TITLE, "seat": 0}
  -> {"type": "choose", "view": {...}, "moves": [{"seat": 0, "alt": "play", "args": [3], "text": "play 5"}, ...]}
  <- {"move": 2}                      (an index into "moves"; or {"move": {"alt": ..., "args": [...]}},
                                       or {"text": "play 5"})
  -> {"type": "end"}                  (then stdin closes)

Nothing sent holds the game's seed or its generator: a bot sees what its seat sees (its
view, its legal moves and their texts), so it cannot rebuild the deal or another seat's draws.

Whatever goes wrong never breaks the game: an answer that is not JSON (or nested deeper than
any move), longer than MAX_ANSWER bytes, names no legal move, or comes after `timeout`
seconds, or a bot that crashed, makes this seat fall back to a random legal move
(`fallback=random`, the default) or forfeit the game (`fallback=forfeit`, which raises
`Forfeit`). A bot that timed out, crashed or sent an endless line is stopped and not asked
again. The bot runs in its own process group, and the whole group is killed when the game
ends, so nothing it started outlives the game.
"""

from __future__ import annotations

import json
import math
import os
import queue
import shlex
import signal
import subprocess
import threading
from typing import List, Optional

from gamedsl.bots.spec import bot_rng
from gamedsl.errors import MoveError
from gamedsl.errors import UsageError

PROTOCOL = 2   # 2: the start message no longer carries the seed

MAX_ANSWER = 1 << 20        # bytes in one answer line: a move is a few hundred at most
MAX_TIMEOUT = 24 * 3600.0   # seconds a bot may be given to answer
_TOO_LONG = object()        # (the reader's mark for a line over MAX_ANSWER)


class Forfeit(UsageError):
    """A seat's external bot failed and its spec says the seat forfeits."""

    def __init__(self, seat: int, reason: str):
        super().__init__(f"P{seat + 1} forfeits: {reason}", 1)
        self.seat, self.reason = seat, reason


def _split(params: str):
    """`./bot.py --fast:timeout=2` -> ("./bot.py --fast", {"timeout": "2"})."""
    parts = params.split(":")
    opts = {}
    while len(parts) > 1 and parts[-1].partition("=")[0].strip().lower() in ("timeout", "fallback"):
        key, _, value = parts.pop().partition("=")
        opts[key.strip().lower()] = value.strip()
    return ":".join(parts).strip(), opts


class ExternalBot:
    @staticmethod
    def check_params(params: str):
        """(command, timeout, fallback) of a `cmd:` spec's parameters, or UsageError saying
        what is wrong — before any game is played or process started."""
        command, opts = _split(params)
        if not command:
            raise UsageError("cmd: needs a command, e.g. cmd:./mybot.py")
        timeout = _timeout(opts.get("timeout", "5"))
        fallback = opts.get("fallback", "random").lower()
        if fallback not in ("random", "forfeit"):
            raise UsageError(f"cmd: fallback is random or forfeit, not '{fallback}'")
        return command, timeout, fallback

    def __init__(self, game, seat: int, seed: int, params: str = ""):
        command, self.timeout, self.fallback = self.check_params(params)
        self.game, self.seat, self.command = game, seat, command
        self.rng = bot_rng(seed, seat, "cmd")
        self.problems: List[str] = []   # what went wrong, in order (for reports)
        self.lines: "queue.Queue[object]" = queue.Queue()
        try:
            # its own session (process group), so that whatever it forks is killed with it
            self.proc: Optional[subprocess.Popen] = subprocess.Popen(
                shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, start_new_session=hasattr(os, "killpg"))
        except (OSError, ValueError) as err:
            raise UsageError(f"cannot start bot '{command}': {err}") from None
        threading.Thread(target=self._read, daemon=True).start()
        # (no seed: with it a bot could rebuild the deal and the other seats' draws)
        self._send({"type": "start", "protocol": PROTOCOL, "game": game.title, "seat": seat})

    def _read(self) -> None:
        proc = self.proc
        try:
            while True:
                # bounded: a bot sending one endless line must not fill the host's memory
                line = proc.stdout.readline(MAX_ANSWER + 1)
                if not line:
                    break
                if len(line) > MAX_ANSWER:
                    self.lines.put(_TOO_LONG)
                    return
                self.lines.put(line.decode("utf-8", "replace"))
        except (OSError, ValueError):
            pass
        self.lines.put(None)  # end of output: the bot has gone

    def _send(self, message: dict) -> bool:
        if self.proc is None:
            return False
        try:
            self.proc.stdin.write((json.dumps(message) + "\n").encode("utf-8"))
            self.proc.stdin.flush()
            return True
        except (OSError, ValueError):
            return False

    def _give_up(self, reason: str, kill: bool = False) -> None:
        self.problems.append(reason)
        self.close(kill)

    def choose(self, state: dict) -> dict:
        game, seat = self.game, self.seat
        moves = game.legal_moves(state, seat)
        if self.proc is not None:
            listed = game.moves_seen(state, seat, moves)   # (components it cannot see as "?")
            view = game.view(state, seat)
            if not self._send({"type": "choose", "view": view, "moves": listed}):
                self._give_up("the bot stopped reading (crashed?)")
            else:
                move = self._answer(state, moves, listed)
                if move is not None:
                    return move
        if self.fallback == "forfeit":
            raise Forfeit(seat, self.problems[-1] if self.problems else "its bot is not running")
        return self.rng.choice(moves)

    def _answer(self, state: dict, moves: List[dict], listed: List[dict]) -> Optional[dict]:
        try:
            line = self.lines.get(timeout=self.timeout)
        except queue.Empty:
            self._give_up(f"no answer within {self.timeout:g} s", kill=True)
            return None
        if line is None:
            self._give_up("the bot exited")
            return None
        if line is _TOO_LONG:
            self._give_up(f"an answer longer than {MAX_ANSWER} bytes", kill=True)
            return None
        try:
            answer = json.loads(line)
        except ValueError:
            self.problems.append(f"not JSON: {line.strip()[:80]!r}")
            return None
        except RecursionError:
            # a move is never nested more than a few levels: this is a bad answer, not the rules
            self.problems.append(f"JSON nested too deeply: {line.strip()[:80]!r}")
            return None
        try:
            move = self.match_answer(state, answer, moves, listed)
        except RecursionError:
            self.problems.append(f"JSON nested too deeply: {line.strip()[:80]!r}")
            return None
        if move is None:
            self.problems.append(f"not a legal move: {line.strip()[:80]!r}")
        return move

    def match_answer(self, state, answer, moves, listed) -> Optional[dict]:
        """The legal move an answer names (`moves` as listed to the bot: `listed`), or None."""
        if not isinstance(answer, dict):
            return None
        pick = answer.get("move")
        if isinstance(pick, int) and not isinstance(pick, bool):
            return moves[pick] if 0 <= pick < len(moves) else None
        # A move named by its arguments or its text is matched as the bot was shown it: it
        # cannot pick a face-down card by naming its face (it sees "?" there; its index it may).
        if isinstance(pick, dict):
            want = (pick.get("alt"), pick.get("args", []))
            return next((m for m, seen in zip(moves, listed) if (seen["alt"], seen["args"]) == want), None)
        text = answer.get("text")
        if isinstance(text, str) and len(text) <= 10_000:
            try:
                move = self.game.parse_move(state, text, self.seat)
            except MoveError:
                return None
            seen = self.game.moves_seen(state, self.seat, [move])[0]
            return move if seen["args"] == move["args"] else None
        return None

    def close(self, kill: bool = False) -> None:
        """Tell the bot the game is over and let it exit (a stalled bot is killed at once)."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if not kill:
            try:
                proc.stdin.write((json.dumps({"type": "end"}) + "\n").encode("utf-8"))
                proc.stdin.close()
            except (OSError, ValueError):
                pass
            try:
                proc.wait(timeout=1)
            except subprocess.TimeoutExpired:
                pass
        # the whole group: what the bot forked must not outlive the game
        _kill_group(proc)
        proc.kill()
        proc.wait()
        for stream in (proc.stdin, proc.stdout):
            try:
                stream.close()
            except (OSError, ValueError):
                pass


def _kill_group(proc: subprocess.Popen) -> None:
    if hasattr(os, "killpg"):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (OSError, ProcessLookupError):
            pass   # (the group is gone already)


def _timeout(raw: str) -> float:
    """The `timeout=` seconds: a finite number above 0, at most MAX_TIMEOUT."""
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 < value <= MAX_TIMEOUT):
        raise UsageError(f"cmd: timeout is a number of seconds above 0 and at most {MAX_TIMEOUT:g}, "
                         f"not '{raw}'")
    return value
