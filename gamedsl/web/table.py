"""One game at a web table: its seats and their tokens, the state, and what each seat is sent.

Nothing here knows HTTP: the server (gamedsl.web.server) passes in what a page sent and
sends out what `message_for` builds. Everything a seat is sent comes from `game.view(state,
seat)` and from texts checked against it, so a page never holds what its seat may not see:

- a move's text is shown to another seat only with every component it names that this
  seat sees neither before nor after the move written as "?" (a card returned into a
  hidden hand is not named to the table); a secret choice is "P2 has chosen";
- the game's log (which holds the seed, so every hidden card) is offered only at the end.
"""

from __future__ import annotations

import json
import secrets
import time
from pathlib import Path
from typing import Dict, List, Optional

from gamedsl.bots.registry import make_seat
from gamedsl.errors import MoveError
from gamedsl.logs import header

# the largest message a page may send (a typed word fits many times over)
MAX_MESSAGE = 4096
MAX_TYPED = 200  # characters of a typed move


class Refused(Exception):
    """A page's message that is not taken; the state is unchanged."""


def _ints(value) -> List[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, list):
        return [i for v in value for i in _ints(v)]
    return []


def _plain(data):
    return json.loads(json.dumps(data))


class Table:
    """A game being played by humans (each with a token) and bots (moved by the server).

    `hot_seat`: one token plays every human seat at one device; the page is told to pass the
    device (`pass`, with no view) whenever another human is to move, and is sent that
    seat's view only once the person says they are that seat (`ready`)."""

    def __init__(self, game, seats: List[str], seed: int, options: Optional[dict] = None,
                 max_turns: int = 5000, timers: bool = True, hot_seat: bool = False,
                 game_path: Optional[str] = None, clock=time.monotonic, hints: bool = False):
        self.game, self.seats, self.seed = game, list(seats), seed
        self.max_turns, self.timers, self.hot_seat, self.clock = max_turns, timers, hot_seat, clock
        self.state = game.new_game(len(seats), seed, options, max_turns)
        self.game_path = str(Path(game_path).resolve()) if game_path else str(game.path)
        self.bots = [make_seat(k, game, i, seed) for i, k in enumerate(seats)]
        self.humans = [i for i, b in enumerate(self.bots) if b is None]
        self.tokens: Dict[str, Optional[int]] = {}
        if hot_seat:
            self.tokens[secrets.token_urlsafe(24)] = None  # None: every human seat, at one device
        else:
            for seat in self.humans:
                self.tokens[secrets.token_urlsafe(24)] = seat
        self.moves: List[tuple] = []           # (move, text) as applied, for the log
        self.entries: List[List[dict]] = [[] for _ in seats]  # each seat's lines of the game's story
        self.version = 0                       # one more after every move
        self.deadlines: Dict[int, float] = {}  # seat -> when its timed choice runs out (clock)
        self.ready: Optional[int] = None       # hot seat: the seat whose view the device shows
        self.present: set = set()              # the seats whose page has opened: their clocks may run
        self.error: Optional[str] = None       # a bot or the rules failed: the game stopped
        # With `hints`, a human may ask for the typed moves the rules suggest to bots (a word
        # game's words), as `play --hints` allows: (version, seat, those moves) once asked.
        self.hints = hints
        self.offered: Optional[tuple] = None
        self._start_clocks()

    # ------------------------------------------------------------ who is who
    def seat_urls(self, base: str) -> List[tuple]:
        """(label, url) for each token: a human seat's page, or the hot seat's."""
        out = []
        for token, seat in self.tokens.items():
            label = "hot seat (" + ", ".join(f"P{s + 1}" for s in self.humans) + ")" if seat is None else f"P{seat + 1}"
            out.append((label, f"{base}/t/{token}"))
        return out

    def token_seat(self, token: str):
        """The seat a token plays (None: the hot seat); KeyError for anything else."""
        if not isinstance(token, str):
            raise KeyError(token)
        for known, seat in self.tokens.items():
            if secrets.compare_digest(known.encode(), token.encode()):
                return seat
        raise KeyError(token)

    def over(self) -> bool:
        return self.game.is_over(self.state) or self.error is not None

    def waiting_humans(self) -> List[int]:
        if self.over():
            return []
        return [s for s in self.game.waiting_for(self.state) if self.bots[s] is None]

    def bot_to_move(self) -> Optional[int]:
        if self.over():
            return None
        return next((s for s in self.game.waiting_for(self.state) if self.bots[s] is not None), None)

    def info(self) -> dict:
        """What every page is told once: the game's shape (no state)."""
        i = self.game.info
        return {
            "title": self.game.title, "players": len(self.seats),
            "seats": [{"label": f"P{s + 1}", "kind": k.partition(":")[0]} for s, k in enumerate(self.seats)],
            "zones": [{"name": z.name, "per_player": z.per_player, "visibility": z.visibility,
                       "grid": z.grid, "size": list(z.size) if z.size else None} for z in i.zones],
            "vars": [{"name": v.name, "per_player": v.per_player, "kind": v.kind} for v in i.vars],
            "states": dict(i.component_states), "hot_seat": self.hot_seat, "humans": self.humans,
        }

    # ------------------------------------------------------------ what a page is sent
    def message_for(self, token_seat) -> dict:
        """The message a page shows now: a seat's state, or (hot seat) pass the device."""
        if token_seat is None:
            if self.ready is None:
                return self.pass_message()
            return self.state_message(self.ready)
        return self.state_message(token_seat)

    def pass_message(self) -> dict:
        waiting = self.waiting_humans()
        return {"type": "pass", "version": self.version, "seat": waiting[0] if waiting else None,
                "over": self.over(), "result": self.result(), "error": self.error,
                "log_ready": self.over()}

    def state_message(self, seat: int) -> dict:
        game, state = self.game, self.state
        waiting = self.waiting_humans()
        mine = seat in waiting
        moves: List[dict] = []
        typed: List[str] = []
        helps: List[str] = []
        if mine:
            # (a face-down card the seat may pick shows as "?": `moves_seen`)
            for m in game.moves_seen(state, seat, game.legal_moves(state, seat, suggestions=False)):
                moves.append({"alt": m["alt"], "text": m["text"]})
            typed = game.typed_hints(state, seat)
            helps = game.typed_help(state, seat)
        offered = self._offered(seat)
        left = None
        if mine and seat in self.deadlines:
            left = max(0.0, self.deadlines[seat] - self.clock())
        return {"type": "state", "version": self.version, "seat": seat,
                "view": _plain(game.view(state, seat)), "your_turn": mine, "moves": moves,
                "typed": typed, "help": helps, "seconds_left": left,
                "hints": bool(mine and typed and self.hints),
                "suggested": None if offered is None else [game.move_text(state, m) for m in offered],
                "waiting_for": self.game.waiting_for(state) if not self.over() else [],
                "log": self.entries[seat], "over": self.over(), "result": self.result(),
                "error": self.error, "log_ready": self.over()}

    def result(self) -> Optional[dict]:
        if not self.game.is_over(self.state):
            return None
        r = _plain(self.game.results(self.state))
        return {"finished": r["finished"], "unfinished": r["unfinished"], "turns": r["turns"],
                "ranks": r["ranks"], "scores": r["scores"], "winners": r["winners"],
                "fields": r.get("fields", {}),
                # a cooperative game's shared result, a team game's teams
                **{k: r[k] for k in ("cooperative", "outcome", "shared_score", "teams", "team_scores",
                                     "team_ranks") if k in r}}

    # ------------------------------------------------------------ what a page may do
    def take(self, token_seat, data) -> None:
        """Act on one message of a page (already parsed JSON); Refused says why not."""
        if not isinstance(data, dict):
            raise Refused("a message is a JSON object")
        kind = data.get("type")
        if kind == "ready":
            return self._ready(token_seat, data.get("seat"))
        if kind not in ("move", "typed", "hint", "suggested"):
            raise Refused(f"unknown message type {str(kind)[:40]!r}")
        seat = self._acting_seat(token_seat, data.get("seat"))
        if self.over():
            raise Refused("the game is over")
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version != self.version:
            raise Refused("the table has changed since this page was drawn; choose again")
        if seat not in self.waiting_humans():
            raise Refused(f"it is not P{seat + 1}'s turn")
        if kind == "hint":
            if not self.hints:
                raise Refused("hints are off: find your own move (serve --hints turns them on)")
            if not self.game.typed_hints(self.state, seat):
                raise Refused("this choice has nothing to type, so nothing to suggest")
            if self._offered(seat) is None:
                offered = [m for m in self.game.legal_moves(self.state, seat) if self.game.is_suggestion(self.state, m)]
                self.offered = (self.version, seat, offered)
            return
        if kind == "suggested":
            choice = data.get("choice")
            offered = self._offered(seat) or []
            if not isinstance(choice, int) or isinstance(choice, bool) or not 0 <= choice < len(offered):
                raise Refused("there is no such suggested move (ask for a hint first)")
            move = offered[choice]
        elif kind == "move":
            choice = data.get("choice")
            moves = self.game.legal_moves(self.state, seat, suggestions=False)
            if not isinstance(choice, int) or isinstance(choice, bool) or not 0 <= choice < len(moves):
                raise Refused("there is no such move")
            move = moves[choice]
        else:
            text = data.get("text")
            if not isinstance(text, str) or not text.strip():
                raise Refused("type a move")
            if len(text) > MAX_TYPED:
                raise Refused(f"a typed move is at most {MAX_TYPED} characters")
            try:
                move = self.game.parse_move(self.state, text, seat)
            except MoveError as err:
                raise Refused(err.message) from None
        self.apply(move)

    def _offered(self, seat: int) -> Optional[List[dict]]:
        """The moves the rules suggest that `seat` asked for at this version, or None."""
        if self.offered is not None and self.offered[:2] == (self.version, seat):
            return self.offered[2]
        return None

    def _acting_seat(self, token_seat, asked) -> int:
        if token_seat is not None:
            if asked is not None and asked != token_seat:
                raise Refused(f"this page plays P{token_seat + 1} only")
            return token_seat
        if self.ready is None:
            raise Refused("pass the device first: no seat is shown")
        if asked is not None and asked != self.ready:
            raise Refused(f"this device shows P{self.ready + 1}")
        return self.ready

    def _ready(self, token_seat, seat) -> None:
        if token_seat is not None:
            raise Refused("only the hot seat passes the device")
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in self.humans:
            raise Refused("no such human seat")
        waiting = self.waiting_humans()
        if self.over():
            self.ready = seat  # at the end every hand may be looked at
            return
        if not waiting or seat != waiting[0]:
            raise Refused(f"it is not P{seat + 1}'s turn")
        self.ready = seat
        self._start_clocks()

    # ------------------------------------------------------------ moving
    def apply(self, move: dict) -> None:
        """Apply a legal move (MoveError, state unchanged, if it is not) and tell the story."""
        game, before = self.game, self.state
        text = game.move_text(before, move)
        after = game.apply(before, move)
        seat = move["seat"]
        for other in range(len(self.seats)):
            shown = text if other == seat else game.move_told(before, after, move, other)
            self.entries[other].append({"seat": seat, "text": shown, "said": list(after.get("said", []))})
        self.state = after
        self.moves.append((_plain(move), text))
        self.version += 1
        self.deadlines.pop(seat, None)
        if self.hot_seat:
            waiting = self.waiting_humans()
            if self.over() or (waiting and waiting[0] != self.ready):
                self.ready = None
        self._start_clocks()

    def arrive(self, token_seat) -> None:
        """A page has opened: from now on its seat's clock runs (a clock does not run down
        before its player has even opened the link; once started, closing the tab stops nothing)."""
        if token_seat is not None:
            self.present.add(token_seat)
            self._start_clocks()

    def _start_clocks(self) -> None:
        """Start the clock of each human's timed choice when it is reached and its page is
        open (at the hot seat: when its person has the device); forget those no longer waited for."""
        waiting = self.waiting_humans()
        for seat in list(self.deadlines):
            if seat not in waiting:
                del self.deadlines[seat]
        if not self.timers:
            return
        for seat in waiting:
            if seat in self.deadlines or (seat != self.ready if self.hot_seat else seat not in self.present):
                continue
            seconds = self.game.timer(self.state, seat)
            if seconds is not None:
                self.deadlines[seat] = self.clock() + float(seconds)

    def run_out(self, seat: int) -> bool:
        """Apply `seat`'s timeout move if its clock has run out; whether it did."""
        deadline = self.deadlines.get(seat)
        if deadline is None or self.clock() < deadline or self.over():
            return False
        self.apply(self.game.timeout_move(self.state, seat))
        return True

    def bot_move(self, seat: int, move: dict) -> None:
        self.apply(move)

    def stop(self, why: str) -> None:
        self.error = why
        self.deadlines.clear()

    # ------------------------------------------------------------ the log
    def log_text(self) -> str:
        """The game's JSON-lines log, as `gamedsl play --log` writes it (replay reads it)."""
        lines = [header(self.game, len(self.seats), self.seed, self.state["options"], self.max_turns,
                        self.game_path)]
        lines += [{"move": m, "text": t} for m, t in self.moves]
        if self.game.is_over(self.state):
            lines.append({"result": _plain(self.game.results(self.state))})
        return "".join(json.dumps(obj, ensure_ascii=False) + "\n" for obj in lines)

    def close(self) -> None:
        for bot in self.bots:
            if hasattr(bot, "close"):
                bot.close()
