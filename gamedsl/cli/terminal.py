"""The terminal client: seats played by humans (at this terminal) or bots, through the engine API only.

A human seat sees only `game.view(state, seat)`: its own hidden cards, counts of the
others'. It picks a numbered legal move or types one; bad input is refused with the
engine's message and asked again. A timed choice (`within N seconds`) runs against a
clock, shown in the prompt; when it runs out the timeout move is applied (unless timers
are off). The other seats are bots, made from the registry of seat kinds (gamedsl.bots.registry).
"""

from __future__ import annotations

import codecs
import os
import select
import time
from typing import IO, List, Optional

import attrs
from rich import box
from gamedsl.cli.output import Console
from rich.table import Table
from rich.text import Text

from gamedsl.runtime.values import plain
from gamedsl.errors import MoveError
from gamedsl.bots.registry import make_seat
from gamedsl.errors import UsageError
from gamedsl.logs import LogWriter

MAX_LISTED_MOVES = 40
WARN_AT = 10  # seconds left on a timed choice when the player is warned
QUIT_WORDS = {"quit", "exit", "q"}
HELP_WORDS = {"help", "?", "moves"}
VIEW_WORDS = {"view", "board", "look"}
HINT_WORDS = {"hint", "hints"}


# ---------------------------------------------------------------- showing a view


def _fmt(v) -> str:
    if isinstance(v, float) and not v.is_integer():
        return f"{v:g}"
    return plain(v)


def _cells(value: dict, size) -> Table:
    """A grid zone as a table of cells (x across, y down)."""
    coords = []
    for key in value:
        try:
            x, y = (int(k) for k in str(key).split(","))
            coords.append((x, y))
        except ValueError:
            continue
    if size:
        xs, ys = range(size[0]), range(size[1])
    elif coords:
        xs = range(min(c[0] for c in coords), max(c[0] for c in coords) + 1)
        ys = range(min(c[1] for c in coords), max(c[1] for c in coords) + 1)
    else:
        xs, ys = range(0), range(0)
    table = Table(box=box.SQUARE, show_header=True, show_lines=True, pad_edge=True)
    table.add_column("", style="dim", justify="right")
    for x in xs:
        table.add_column(str(x), justify="center")
    return table, xs, ys


def render_zone(value, shows: dict, size=None, faces: Optional[dict] = None, moved=()):
    """A renderable for one zone's view value: a list of components, a hidden count or a grid
    (a piece with faces shows its face on each cell; what the last move moved stands out)."""
    if isinstance(value, dict) and set(value) == {"count"}:
        n = value["count"]
        return Text(f"({n} hidden)" if n else "(empty)", style="dim")
    if isinstance(value, dict):
        table, xs, ys = _cells(value, size)
        if not xs:
            return Text("(empty grid)", style="dim")
        for y in ys:
            row = [str(y)]
            for x in xs:
                key = f"{x},{y}"
                cid = value.get(key)
                if cid is None:
                    row.append("·")
                    continue
                shown = str((faces or {}).get(key, shows.get(str(cid), str(cid))))
                row.append(Text(shown, style="bold reverse") if cid in moved else shown)
            table.add_row(*row)
        return table
    if isinstance(value, list):
        if not value:
            return Text("(empty)", style="dim")
        return Text("  ".join(shows.get(str(c), str(c)) for c in value))
    return Text(_fmt(value))


def _write(v, kind: str, shows: dict) -> str:
    """A value as a person reads it: players as P2, components by their `show`, lists spaced."""
    if isinstance(v, list):
        return " ".join(_write(x, kind, shows) for x in v) if v else "-"
    if kind == "player" and isinstance(v, int) and not isinstance(v, bool):
        return f"P{v + 1}"
    if kind == "component" and isinstance(v, int) and not isinstance(v, bool):
        return shows.get(str(v), "?")
    return _fmt(v)


def _states_of(view: dict, cid) -> List[tuple]:
    """(state name, value) of one component, as the view shows them."""
    return [(name, values[str(cid)]) for name, values in view.get("cstate", {}).items()
            if str(cid) in values]


def render_view(console: Console, game, view: dict) -> None:
    """What one seat may see: the round and phase, variables, players' values and public
    facts, and every zone (components with states as a table: a row each, a column per state)."""
    head = f"{game.title} — round {view['round']}"
    if view.get("phase"):
        head += f", phase {view['phase']}"
    head += f" — you are P{view['seat'] + 1}"
    console.print(Text(head, style="bold"))
    shows = view.get("shows", {})
    program = game.program
    var_kinds = {v.name: v.kind for v in program.global_vars + program.player_vars}
    if view.get("vars"):
        console.print(Text("  ".join(f"{k} = {_write(v, var_kinds.get(k, 'value'), shows)}"
                                     for k, v in view["vars"].items())))
    columns = dict(view.get("pvars", {}))
    columns.update(view.get("public") or {})
    if columns:
        table = Table(box=box.SIMPLE, show_header=True, pad_edge=False)
        table.add_column("player")
        for name in columns:
            table.add_column(name, justify="right")
        for seat in range(view["players"]):
            mark = " (you)" if seat == view["seat"] else ""
            table.add_row(f"P{seat + 1}{mark}", *(_write(vals[seat], var_kinds.get(name, "value"), shows)
                                                   for name, vals in columns.items()))
        console.print(table)
    zones = program.zones
    state_kinds = program.decls.state_kinds
    for name, value in view["zones"].items():
        info = zones.get(name)
        size = info.size if info is not None and info.grid else None
        if info is not None and info.per_player:
            for seat, v in enumerate(value):
                mark = " (you)" if seat == view["seat"] else ""
                console.print(Text(f"{name} of P{seat + 1}{mark}: ", style="cyan"), end="")
                _print_zone(console, v, shows, size, view, state_kinds)
        else:
            console.print(Text(f"{name}: ", style="cyan"), end="")
            _print_zone(console, value, shows, size, view, state_kinds, view.get("faces", {}).get(name))


def _print_zone(console: Console, value, shows, size, view: Optional[dict] = None, kinds=None,
                faces: Optional[dict] = None) -> None:
    if view is not None and isinstance(value, list) and any(_states_of(view, c) for c in value):
        # components with states: a table, one component a row, one state a column
        names: List[str] = []
        for c in value:
            names += [n for n, _ in _states_of(view, c) if n not in names]
        table = Table(box=box.SIMPLE_HEAD, show_header=True, show_edge=False, pad_edge=False,
                      padding=(0, 2, 0, 0))
        table.add_column("", no_wrap=True)
        for n in names:
            table.add_column(n, no_wrap=True)
        for c in value:
            states = dict(_states_of(view, c))
            table.add_row(shows.get(str(c), str(c)),
                          *(_write(states[n], kinds.get(n, "value"), shows) if n in states else ""
                            for n in names))
        console.print()
        console.print(table)
        return
    r = render_zone(value, shows, size, faces, set((view or {}).get("moved", ())))
    if isinstance(r, Table):
        console.print()
    console.print(r)


def render_result(game, result: dict, seed: Optional[int] = None) -> str:
    """The end of a game as plain text: ranks, scores, winners, turns, result fields."""
    n = len(result["ranks"])
    if result["finished"]:
        status = f"finished after {result['turns']} turns"
    elif result["unfinished"]:
        status = f"stopped unfinished at the turn bound, after {result['turns']} turns"
    else:
        status = f"not over after {result['turns']} turns"
    seeded = f" (seed {seed})" if seed is not None else ""
    lines = [f"{game.title}: {status}{seeded}"]
    scored = getattr(getattr(game, "program", None), "score", True) is not None
    for seat in sorted(range(n), key=lambda s: (result["ranks"][s], s)):
        extra = "".join(f"  {name} {_fmt(vals[seat])}" for name, vals in result.get("fields", {}).items())
        win = "  winner" if seat in result["winners"] else ""
        score = f"  score {_fmt(result['scores'][seat])}" if scored else ""
        lines.append(f"  {result['ranks'][seat]}. P{seat + 1}{score}{extra}{win}")
    if result["finished"]:
        lines.append("winners: " + (", ".join(f"P{s + 1}" for s in result["winners"]) or "none"))
    return "\n".join(lines)


# ---------------------------------------------------------------- playing


@attrs.define
class Outcome:
    state: dict
    abandoned: bool = False
    moves: int = 0


class _Quit(Exception):
    def __init__(self, why: str):
        self.why = why


class LineReader:
    """Lines typed by the humans, read with a deadline when a choice is timed.

    A terminal or a pipe is read from its file descriptor (select, then os.read), never
    through Python's buffered reader: lines sitting in that buffer would be invisible to
    select, and a person's next move would wait for the clock. Input without a descriptor
    (a StringIO) is all there already, so it never waits."""

    def __init__(self, inp: IO[str]):
        self.inp = inp
        try:
            self.fd: Optional[int] = inp.fileno()
        except (AttributeError, OSError, ValueError):
            self.fd = None
        self.pending = ""
        self.ended = False
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def readline(self, timeout: Optional[float] = None) -> Optional[str]:
        """The next line ('' when the input has ended), or None if `timeout` seconds pass first."""
        if self.fd is None:
            return self.inp.readline()
        deadline = None if timeout is None else time.monotonic() + timeout
        while "\n" not in self.pending and not self.ended:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self.fd], [], [], wait)
            if not ready:
                return None
            chunk = os.read(self.fd, 4096)
            self.pending += self.decoder.decode(chunk, final=not chunk)
            self.ended = not chunk
        line, nl, self.pending = self.pending.partition("\n")
        return line + nl


def _ask_human(console: Console, inp: LineReader, game, state: dict, seat: int, banner: bool,
               seconds: Optional[float] = None, hinting: bool = False) -> dict:
    """The move a person at this terminal makes; with `seconds`, the choice is timed: the
    prompt shows the time left, a warning comes near the end, and when the clock runs out
    the result is the timeout move. With `hinting`, 'hint' lists the typed moves the rules
    suggest (for bots); without it (the default) a person finds their own."""
    # Moves a person types (a word) are not listed: their suggestions are for bots.
    moves = game.legal_moves(state, seat, suggestions=False)
    hints = game.typed_hints(state, seat)
    texts = [game.move_text(state, m) for m in moves]
    if banner:
        console.rule(Text(f"P{seat + 1}'s turn", style="bold"))
    else:
        console.rule()
    render_view(console, game, game.view(state, seat))

    def list_moves():
        console.print(Text(f"Your moves, P{seat + 1}:", style="bold"))
        for i, t in enumerate(texts[:MAX_LISTED_MOVES], 1):
            console.print(Text(f"  {i:>3}. {t}"))
        if len(texts) > MAX_LISTED_MOVES:
            console.print(Text(f"  ... and {len(texts) - MAX_LISTED_MOVES} more: type a move", style="dim"))
        for hint in hints:
            console.print(Text(f"  or type: {hint}", style="bold"))
        for lines in game.typed_help(state, seat):
            for line in lines.splitlines():
                console.print(Text(f"    {line}", style="dim"))
        asks = "'view' to look again, " + ("'hint' for the moves the rules suggest, " if hints and hinting else "")
        console.print(Text(f"Type a number or a move ({asks}'quit' to stop).", style="dim"))

    def list_offered():
        # a typed move's suggestions (the words of a word game) only when the person asks
        offered = [m for m in game.legal_moves(state, seat) if game.is_suggestion(state, m)]
        if not offered:
            console.print(Text("  the rules suggest nothing more", style="dim"))
            return
        first = len(moves) + 1
        moves.extend(offered)
        for i, m in enumerate(offered[:MAX_LISTED_MOVES], first):
            console.print(Text(f"  {i:>3}. {game.move_text(state, m)}"))
        if len(offered) > MAX_LISTED_MOVES:
            console.print(Text(f"  ... and {len(offered) - MAX_LISTED_MOVES} more", style="dim"))

    list_moves()
    deadline = time.monotonic() + seconds if seconds is not None else None
    warned = seconds is not None and seconds <= WARN_AT
    if seconds is not None:
        console.print(Text(f"You have {_seconds(seconds)} to choose.", style="bold"))
    while True:
        left = deadline - time.monotonic() if deadline is not None else None
        if left is not None and left <= 0:
            console.print()
            console.print(Text(f"  P{seat + 1}: time is up!", style="bold red"))
            return game.timeout_move(state, seat)
        clock = f" ({_seconds(left)} left)" if left is not None else ""
        console.print(Text(f"P{seat + 1}{clock}> "), end="")
        console.file.flush()
        wait = None if left is None else (left if warned else left - WARN_AT)
        line = inp.readline(wait)
        if line is None:
            if not warned:  # the warning, then the prompt again with the time left
                warned = True
                console.print()
                console.print(Text(f"  {WARN_AT} seconds left!", style="bold yellow"))
            continue
        if line == "":
            console.print()
            raise _Quit("the input ended")
        said = line.strip()
        if not said:
            continue
        word = said.lower()
        if word in QUIT_WORDS:
            raise _Quit(f"P{seat + 1} quit")
        if word in HELP_WORDS:
            list_moves()
            continue
        if word in VIEW_WORDS:
            render_view(console, game, game.view(state, seat))
            continue
        if word in HINT_WORDS and hints:
            if not hinting:
                console.print(Text("  hints are off: find your own move (play --hints turns them on)", style="dim"))
            elif not any(game.is_suggestion(state, m) for m in moves):
                list_offered()
            continue
        if said.isdigit():
            # (a number of 5,000 digits, or a digit Python cannot read as one: no move either)
            try:
                k = int(said) if len(said) <= 9 else 0
            except ValueError:
                k = 0
            if 1 <= k <= len(moves):
                return moves[k - 1]
            shown = said if len(said) <= 12 else said[:12] + "…"
            console.print(Text(f"  there is no move {shown}: choose 1 to {len(moves)}, or type a move", style="red"))
            continue
        try:
            return game.parse_move(state, said, seat)
        except MoveError as err:
            console.print(Text(f"  {err.message}", style="red"))


def _seconds(n: float) -> str:
    n = max(0, int(n + 0.999))  # round up: "1 second left" until the clock reads zero
    return f"{n} second" + ("" if n == 1 else "s")


def play_game(game, seats: List[str], seed: int, options: Optional[dict] = None, max_turns: int = 5000,
              out: Optional[IO[str]] = None, inp: Optional[IO[str]] = None, log_path=None,
              verbose: bool = False, timers: bool = True, hints: bool = False) -> Outcome:
    """Play a game to its end (or until a human quits) with the given seat kinds.

    A human's timed choice (`choose by P within N seconds`) runs against the clock: when it
    runs out, the timeout move is applied. With `timers` False a human has all the time they
    want. With `hints`, a human may ask ('hint') for the typed moves the rules suggest to
    bots (a word game's words); off by default, so a person finds their own. Bots ignore timers (they choose among the legal moves, never the timeout move).

    Raises OptionError (bad player count or options), RuleError (a rule failed) and
    UsageError (a bot or the rules got stuck). With only bots, nothing is printed but
    the moves when `verbose`.
    """
    import sys

    out = out if out is not None else sys.stdout
    reader = LineReader(inp if inp is not None else sys.stdin)
    console = Console(file=out, highlight=False, markup=False, emoji=False, soft_wrap=False)
    state = game.new_game(len(seats), seed, options, max_turns)
    players = [make_seat(k, game, i, seed) for i, k in enumerate(seats)]
    humans = [i for i, k in enumerate(seats) if k == "human"]
    log = LogWriter(log_path, game, len(seats), seed, state["options"], max_turns) if log_path else None
    count = 0
    try:
        while not game.is_over(state):
            waiting = game.waiting_for(state)
            if not waiting:
                raise UsageError("the rules wait for no player but the game is not over", 1)
            seat = waiting[0]
            if not game.legal_moves(state, seat) and not game.typed_hints(state, seat):
                raise UsageError(f"P{seat + 1} must move but has no legal move", 1)
            secret = bool(state.get("pending")) and "got" in state["pending"]
            bot = players[seat]
            if bot is None:
                try:
                    seconds = game.timer(state, seat) if timers else None
                    move = _ask_human(console, reader, game, state, seat, banner=len(humans) > 1,
                                      seconds=seconds, hinting=hints)
                except _Quit as q:
                    console.print(Text(f"{q.why}; the game was abandoned after {count} moves."))
                    return Outcome(state, abandoned=True, moves=count)
            else:
                move = bot.choose(state)
            text = game.move_text(state, move)
            state = game.apply(state, move)
            count += 1
            if log is not None:
                log.move(move, text)
            if humans or verbose:
                who = f"P{seat + 1}" + (f" ({seats[seat]})" if seats[seat] != "human" else "")
                if secret and humans:
                    console.print(Text(f"{who} has chosen.", style="dim"))
                else:
                    console.print(Text(f"{who}: {text}"))
                for message in state.get("said", []):
                    console.print(Text(f"  » {message}", style="yellow"))
        if log is not None:
            log.finish(game.results(state))
        if humans:
            console.rule(Text("game over", style="bold"))
            render_view(console, game, game.view(state, humans[0]))
        return Outcome(state, moves=count)
    finally:
        if log is not None:
            log.close()
        for bot in players:
            if hasattr(bot, "close"):
                bot.close()
