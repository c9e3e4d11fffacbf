"""Game logs: one JSON object per line — a header, one line per move, the result.

    {"gamedsl": 1, "game": "examples/tictactoe.game", "sha256": "...", "players": 2,
     "seed": 1, "key": "9f3c...", "options": {...}, "max_turns": 5000}
    {"move": {"seat": 0, "alt": "place", "args": [[1, 1]]}, "text": "place 1,1"}
    ...
    {"result": {"finished": true, "ranks": [1, 2], ...}}

The game is deterministic (the seed, the key + options + moves give the same final state,
byte for byte), so a log is enough to replay a game exactly. The `key` (32 hex digits, absent
for a game dealt from its seed alone) is the host's secret the deal was drawn with: a log
holds every seat's moves and the key, so it is the host's, not something to hand a player
before the game is over. A log without a result line is
a game that was abandoned (or is still being played).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import IO, Callable, List, Optional, Tuple

import attrs

from gamedsl.files import FileRefused, read_bytes
from gamedsl.errors import MoveError, UsageError
from gamedsl.errors import OptionError
from gamedsl.pipeline import load as load_game
from gamedsl.runtime.rng import check_key

LOG_VERSION = 1
_LOG_CONTROL = re.compile("[\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
MAX_LOG_BYTES = 256 * 1024 * 1024  # a log of a game of the longest turn limit is far less



def source_hash(game) -> str:
    """The sha256 of the game's source text(s): the file itself, then each file it extends."""
    h = hashlib.sha256()
    for text in game.sources.values():
        h.update(text.encode("utf-8"))
    return h.hexdigest()


def _plain(data):
    """Plain JSON data (tuples become lists, keys texts), as the log stores it."""
    return json.loads(json.dumps(data))


def _line(obj) -> str:
    # (JSON writes the C0 controls as escapes already; the C1 ones and the marks that reorder
    # a line too, as a log is read in a terminal)
    return _LOG_CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(obj, ensure_ascii=False)) + "\n"


def header(game, players: int, seed: int, options: dict, max_turns: int, game_path: Optional[str] = None,
           key: Optional[str] = None) -> dict:
    out = {"gamedsl": LOG_VERSION, "game": str(game_path if game_path is not None else game.path),
           "sha256": source_hash(game), "players": players, "seed": seed}
    if key is not None:
        out["key"] = key
    out.update(options=_plain(options), max_turns=max_turns)
    return out


class LogWriter:
    """Writes a log as the game goes (flushed after every line, so an interrupted game keeps its log)."""

    def __init__(self, path, game, players: int, seed: int, options: dict, max_turns: int,
                 key: Optional[str] = None):
        try:
            self.file: Optional[IO[str]] = open(path, "w", encoding="utf-8")
        except OSError as err:
            raise UsageError(f"cannot write the log '{path}': {err.strerror or err}") from None
        self._write(header(game, players, seed, options, max_turns, key=key))

    def _write(self, obj) -> None:
        if self.file is not None:
            self.file.write(_line(obj))
            self.file.flush()

    def move(self, move: dict, text: str) -> None:
        self._write({"move": move, "text": text})

    def finish(self, result: dict) -> None:
        self._write({"result": _plain(result)})

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None


def write_log(path, game, players: int, seed: int, options: dict, max_turns: int,
              moves: List[Tuple[dict, str]], result: Optional[dict] = None, key: Optional[str] = None) -> None:
    """A whole log at once: `moves` are (move, text) pairs in the order they were applied."""
    w = LogWriter(path, game, players, seed, options, max_turns, key=key)
    try:
        for move, text in moves:
            w.move(move, text)
        if result is not None:
            w.finish(result)
    finally:
        w.close()


# ---------------------------------------------------------------- reading


@attrs.define
class Log:
    path: str
    header: dict
    moves: List[Tuple[int, dict, str]]       # (line number, move, text)
    result: Optional[dict]
    result_line: int = 0


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def read_log(path) -> Log:
    """Read and validate a log's structure; anything malformed is a UsageError (exit 2)."""
    name = str(path)
    try:
        text = read_bytes(Path(path), MAX_LOG_BYTES).decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{name}: not a gamedsl log (not UTF-8 text)") from None
    except FileRefused as err:
        raise UsageError(f"cannot read the log '{name}': it {err}") from None
    except OSError as err:
        raise UsageError(f"cannot read the log '{name}': {err.strerror or err}") from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    elif lines:
        # the last line has no newline: a log cut short while it was written
        pass
    if not lines:
        raise UsageError(f"{name}: the log is empty")
    entries = []
    for i, raw in enumerate(lines, 1):
        if not raw.strip():
            raise UsageError(f"{name}:{i}: an empty line in the log")
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as err:
            cut = " (the log looks truncated)" if i == len(lines) else ""
            raise UsageError(f"{name}:{i}: not a JSON line: {err.msg}{cut}") from None
        except (ValueError, RecursionError):
            # a number of thousands of digits, or lists nested thousands deep: no log holds them
            raise UsageError(f"{name}:{i}: not a log line (a number too long, or nesting too deep)") from None
        if not isinstance(obj, dict):
            raise UsageError(f"{name}:{i}: each line of a log is a JSON object")
        entries.append((i, obj))
    hdr = entries[0][1]
    if hdr.get("gamedsl") != LOG_VERSION:
        raise UsageError(f"{name}:1: not a gamedsl log (the first line must be a header with \"gamedsl\": {LOG_VERSION})")
    for key, ok in (("game", lambda v: isinstance(v, str) and v), ("players", _is_int),
                    ("seed", lambda v: _is_int(v) and abs(v) < 2**64),
                    ("options", lambda v: isinstance(v, dict)), ("max_turns", lambda v: _is_int(v) and v > 0),
                    ("sha256", lambda v: isinstance(v, str))):
        if key not in hdr or not ok(hdr[key]):
            raise UsageError(f"{name}:1: the header's \"{key}\" is missing or malformed")
    if "key" in hdr:
        try:
            hdr["key"] = check_key(hdr["key"])
        except ValueError as err:
            raise UsageError(f"{name}:1: the header's \"key\" is malformed ({err})") from None
    moves: List[Tuple[int, dict, str]] = []
    result, result_line = None, 0
    for i, obj in entries[1:]:
        if result is not None:
            raise UsageError(f"{name}:{i}: a line after the result line")
        if "result" in obj:
            if not isinstance(obj["result"], dict):
                raise UsageError(f"{name}:{i}: the result line is malformed")
            result, result_line = obj["result"], i
            continue
        move = obj.get("move")
        if not (isinstance(move, dict) and _is_int(move.get("seat")) and isinstance(move.get("alt"), str)
                and isinstance(move.get("args", []), list) and set(move) <= {"seat", "alt", "args"}):
            raise UsageError(f"{name}:{i}: not a move line (expected {{\"move\": {{\"seat\": n, \"alt\": name, "
                           f"\"args\": [...]}}, \"text\": ...}})")
        moves.append((i, move, str(obj.get("text", ""))))
    return Log(name, hdr, moves, result, result_line)


def find_game(game_path: str, log_path) -> Path:
    """The game a log names: as given, else relative to the log's directory, else beside the log.

    A log may come from anyone: it may only name a .game file, so a tampered log cannot make
    replay read some other file and print its lines in the diagnostics."""
    given = Path(game_path)
    if given.suffix != ".game":
        raise UsageError(f"{log_path}:1: the log names '{game_path}', which is not a .game file")
    base = Path(log_path).parent
    for candidate in (given, base / given, base / given.name):
        if candidate.is_file():
            return candidate
    raise UsageError(f"{log_path}: cannot find the game '{game_path}' (looked as given and beside the log)")


@attrs.define
class Replayed:
    game: object
    state: dict
    log: Log
    changed: bool          # the game's source differs from the one the log was written with


def replay(log_path, load: Optional[Callable] = None,
           on_move: Optional[Callable[[int, dict, str, dict], None]] = None) -> Replayed:
    """Re-apply every move of a log; a refused move is a UsageError naming the log's line (exit 1).

    `on_move(line, move, text, state_after)` is called after each move (for `replay --show`).
    Raises GameError (the game has errors) and RuleError (a rule failed) unchanged.
    """
    if load is None:
        load = load_game
    log = read_log(log_path)
    hdr = log.header
    path = find_game(hdr["game"], log_path)
    game = load(str(path))
    changed = source_hash(game) != hdr["sha256"]
    try:
        state = game.new_game(hdr["players"], hdr["seed"], hdr["options"], hdr["max_turns"], key=hdr.get("key"))
    except OptionError as err:
        raise UsageError(f"{log.path}:1: {err}") from None
    for line, move, text in log.moves:
        try:
            state = game.apply(state, move)
        except MoveError as err:
            shown = f" ('{text}')" if text else ""
            raise UsageError(f"{log.path}:{line}: the move{shown} is refused: {err.message}", 1) from None
        if on_move is not None:
            on_move(line, move, text, state)
    if log.result is not None:
        if not game.is_over(state):
            raise UsageError(f"{log.path}:{log.result_line}: the log has a result but the replayed game "
                           "is not over", 1)
        if _plain(game.results(state)) != log.result:
            raise UsageError(f"{log.path}:{log.result_line}: the replayed result differs from the logged one", 1)
    return Replayed(game, state, log, changed)
