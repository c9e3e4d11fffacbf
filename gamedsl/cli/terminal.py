"""The terminal client: seats played by humans (at this terminal) or bots, through the engine API only.

A human seat sees only `game.view(state, seat)`, drawn as the game's `display:` declares
it (gamedsl.cli.screen): the header, whose turn it is, the table, each player's mat, and
what happened since that seat last looked — every `say`, and only its own `say ... to`.
It picks a move (few are listed whole; many step by step: the kind of move, then each
parameter) or types one; a single possible move is shown and made; bad input is refused
with the engine's message and asked again. A timed choice (`within N seconds`) runs against a
clock, shown in the prompt; when it runs out the timeout move is applied (unless timers
are off). The other seats are bots, made from the registry of seat kinds (gamedsl.bots.registry).
"""

from __future__ import annotations

import codecs
import os
import select
import time
from typing import IO, Dict, List, Optional, Sequence

import attrs
from gamedsl.cli.output import Console
from rich.text import Text

from gamedsl.cli.screen import Screen, grid_table, make_console, tie_note
from gamedsl.runtime.values import plain
from gamedsl.errors import MoveError
from gamedsl.bots.registry import make_seat
from gamedsl.errors import UsageError
from gamedsl.logs import LogWriter

MAX_LOG = 14  # lines of what happened shown on a screen
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


def render_zone(value, shows: dict, size=None, faces: Optional[dict] = None, moved=()):
    """A renderable for one zone's view value: a list of components, a hidden count or a grid
    (a piece with faces shows its face on each cell; what the last move moved stands out)."""
    if isinstance(value, dict) and set(value) == {"count"}:
        n = value["count"]
        return Text(f"({n} hidden)" if n else "(empty)", style="dim")
    if isinstance(value, dict):
        return grid_table(value, size, shows, faces, moved, empty="(empty grid)")
    if isinstance(value, list):
        if not value:
            return Text("(empty)", style="dim")
        return Text("  ".join(shows.get(str(c), str(c)) for c in value))
    return Text(_fmt(value))


def show_revealed(console: Console, game, state: dict) -> None:
    """The zones the game lays open at its end (`reveal ... at end`), one line each: a
    player's zone once for every player."""
    names = game.revealed(state)
    if not names:
        return
    view = game.view(state, 0)  # (a revealed zone looks the same to every seat)
    per_player = {z.name: z.per_player for z in game.info.zones}
    for name in names:
        value = view["zones"][name]
        for owner, items in (enumerate(value) if per_player[name] else [(None, value)]):
            who = f"P{owner + 1} " if owner is not None else ""
            line = Text(f"  {who}{game.info.display.label(name)}: ")
            line.append_text(render_zone(items, view["shows"]))
            console.print(line)


def render_view(console: Console, game, view: dict) -> None:
    """What one seat may see, as the game's `display:` lays it out (see gamedsl.cli.screen)."""
    Screen(game, console).draw(view)


def render_result(game, result: dict, seed: Optional[int] = None, tiebreaks: Optional[list] = None,
                  key: Optional[str] = None) -> str:
    """The end of a game as plain text: ranks, scores, winners, turns, result fields, and
    (given each seat's `tiebreaks`) how the tie-break decided equal top scores."""
    n = len(result["ranks"])
    if result["finished"]:
        status = f"finished after {result['turns']} turns"
    elif result["unfinished"]:
        status = f"stopped unfinished at the turn bound, after {result['turns']} turns"
    else:
        status = f"not over after {result['turns']} turns"
    seeded = f" (seed {seed})" if seed is not None else ""
    if seed is not None and key is not None:
        seeded = f" (seed {seed}, key {key})"   # (the game is over: the key may be shown now)
    lowest = getattr(game, "lowest_wins", False)
    lines = [f"{game.title}: {status}{seeded}" + ("; the lowest score wins" if lowest else "")]
    scored = getattr(getattr(game, "program", None), "score", True) is not None
    label = game.info.display.label if hasattr(game, "info") else str
    if result.get("cooperative") or result.get("teams"):
        return "\n".join(lines + side_lines(result, label, scored))
    note = tie_note(result, tiebreaks, lowest) if tiebreaks is not None else None
    for seat in sorted(range(n), key=lambda s: (result["ranks"][s], s)):
        extra = "".join(f"  {label(name)} {_fmt(vals[seat])}" for name, vals in result.get("fields", {}).items())
        if note:  # equal top scores: what the tie-break compared
            extra = f"  tie-break {' '.join(_fmt(v) for v in tiebreaks[seat])}" + extra
        win = "  winner" if seat in result["winners"] else ""
        score = f"  score {_fmt(result['scores'][seat])}" if scored else ""
        lines.append(f"  {result['ranks'][seat]}. P{seat + 1}{score}{extra}{win}")
    if result["finished"]:
        lines.append("winners: " + (", ".join(f"P{s + 1}" for s in result["winners"]) or "none"))
    if note:
        lines.append(note)
    return "\n".join(lines)


def side_text(result: dict) -> str:
    """A cooperative game's shared result in words: everyone won or lost together, and the
    shared score."""
    verdict = {"won": "everyone won together", "lost": "everyone lost together"}.get(result["outcome"])
    if verdict is None:
        verdict = "cooperative game" if result["finished"] else "cooperative game, not over"
    return f"{verdict} · shared score {_fmt(result['shared_score'])}"


def team_name(side: list) -> str:
    """A team as its seats: `team P1+P3`."""
    return "team " + "+".join(f"P{s + 1}" for s in side)


def side_lines(result: dict, label, scored: bool = True) -> List[str]:
    """The end of a cooperative or team game: the shared result, or each team ranked with its
    score (and its players' own scores and result fields under it)."""
    fields = result.get("fields", {})

    def seat_line(seat: int, indent: str) -> str:
        extra = "".join(f"  {label(name)} {_fmt(vals[seat])}" for name, vals in fields.items())
        own = f"  score {_fmt(result['scores'][seat])}" if scored and not result.get("cooperative") else ""
        return f"{indent}P{seat + 1}{own}{extra}"

    if result.get("cooperative"):
        lines = [side_text(result)]
        if fields:
            lines += [seat_line(s, "  ") for s in range(len(result["ranks"]))]
        return lines
    lines = []
    order = sorted(range(len(result["teams"])), key=lambda i: (result["team_ranks"][i], i))
    for i in order:
        side = result["teams"][i]
        win = "  winners" if result["finished"] and side[0] in result["winners"] else ""
        score = f"  score {_fmt(result['team_scores'][i])}" if scored else ""
        lines.append(f"  {result['team_ranks'][i]}. {team_name(side)}{score}{win}")
        lines += [seat_line(s, "       ") for s in side]
    if result["finished"]:
        won = [result["teams"][i] for i in order if result["teams"][i][0] in result["winners"]]
        lines.append("winners: " + (", ".join(team_name(side) for side in won) or "none"))
    return lines


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


LIST_AT = 16   # more moves than this are chosen step by step: the form, then each parameter
BACK_WORDS = {"back", "up", ".."}


def _options(keyed: List[tuple], prefix: tuple) -> List[tuple]:
    """The choices one step below `prefix`: (written value, the moves under it), in order."""
    out: Dict[str, list] = {}
    for key, move in keyed:
        if key[:len(prefix)] == prefix and len(key) > len(prefix):
            out.setdefault(key[len(prefix)], []).append(move)
    return list(out.items())


def _ask_human(console: Console, inp: LineReader, game, state: dict, seat: int, banner: bool,
               seconds: Optional[float] = None, hinting: bool = False, screen: Optional[Screen] = None,
               log: Sequence[tuple] = ()) -> dict:
    """The move a person at this terminal makes; with `seconds`, the choice is timed: the
    prompt shows the time left, a warning comes near the end, and when the clock runs out
    the result is the timeout move. With `hinting`, 'hint' lists the typed moves the rules
    suggest (for bots); without it (the default) a person finds their own.

    Few moves are listed whole; many are chosen step by step (the kind of move, then each of
    its parameters, e.g. the card, then the partner, then the order), every step listing all
    its choices; 'back' goes up a step; a move can always be typed whole. A single possible
    move (and nothing to type) is shown and made."""
    # Moves a person types (a word) are not listed: their suggestions are for bots.
    moves = game.legal_moves(state, seat, suggestions=False)
    hints = game.typed_hints(state, seat)
    # (a face-down card the person may pick shows as "?": `moves_seen`)
    texts = [m["text"] for m in game.moves_seen(state, seat, moves)]
    screen = screen or Screen(game, console)
    if console.is_terminal:  # a terminal: the table stays in place, drawn afresh each move
        console.clear()
    if banner:
        console.rule(Text(f"P{seat + 1}'s turn", style="bold"))
    else:
        console.rule()
    screen.draw(game.view(state, seat), log)
    if len(moves) == 1 and not hints:
        console.print(Text(f"Your only move, P{seat + 1}: {texts[0]}", style="bold"))
        return moves[0]

    if len(moves) > LIST_AT:
        keyed = []
        for m in moves:
            form, parts = game.move_parts(state, m)
            keyed.append(((form,) + tuple(v for _, v in parts), m))
    else:  # few: each move whole, as it is written
        keyed = [((t,), m) for t, m in zip(texts, moves)]
    prefix: tuple = ()
    extra: List[dict] = []  # moves the rules suggest, listed on 'hint'
    opts: List[tuple] = []

    def step():
        """Go down while a step has one choice; the choices at this step."""
        nonlocal prefix
        while True:
            found = _options(keyed, prefix)
            if len(found) == 1 and len(found[0][1]) > 1 and _options(keyed, prefix + (found[0][0],)):
                prefix = prefix + (found[0][0],)
                continue
            return found

    def list_moves():
        nonlocal opts
        opts = step()
        if prefix:
            form, parts = keyed_form(prefix)
            console.print(Text(f"Your move, P{seat + 1}: {form}", style="bold"))
            if parts:
                console.print(Text(f"  choose {parts}:", style="bold"))
        else:
            console.print(Text(f"Your moves, P{seat + 1}:", style="bold"))
        rows = []
        for i, (label, under) in enumerate(opts, 1):
            more = f"  ({len(under)} moves)" if len(under) > 1 else ""
            rows.append(f"{i:>3}. {label}{more}")
        for i, m in enumerate(extra, len(opts) + 1):
            rows.append(f"{i:>3}. {game.move_text(state, m)}")
        _columns(console, rows)
        if not prefix:
            for hint in hints:
                console.print(Text(f"  or type: {hint}", style="bold"))
            for lines in game.typed_help(state, seat):
                for line in lines.splitlines():
                    console.print(Text(f"    {line}", style="dim"))
        asks = "'view' to look again, " + ("'hint' for the moves the rules suggest, " if hints and hinting else "")
        back = "'back' to choose again, " if prefix else ""
        console.print(Text(f"Type a number or a move ({back}{asks}'quit' to stop).", style="dim"))

    def keyed_form(pre: tuple):
        """The form chosen so far, with the parameters still open as <name>, and the next one."""
        sample = next(m for k, m in keyed if k[:len(pre)] == pre)
        form, parts = game.move_parts(state, sample)
        if len(keyed[0][0]) == 1:  # listed whole
            return pre[0], ""
        written = form
        for (name, value), picked in zip(parts, pre[1:]):
            written = written.replace(f"<{name}>", picked, 1)
        left = [name for name, _ in parts[len(pre) - 1:]]
        return written, (left[0] if left else "")

    def list_offered():
        # a typed move's suggestions (the words of a word game) only when the person asks
        offered = [m for m in game.legal_moves(state, seat) if game.is_suggestion(state, m)]
        if not offered:
            console.print(Text("  the rules suggest nothing more", style="dim"))
            return
        first = len(opts) + len(extra) + 1
        extra.extend(offered)
        _columns(console, [f"{i:>3}. {game.move_text(state, m)}" for i, m in enumerate(offered, first)])

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
        if word in BACK_WORDS:
            prefix = prefix[:-1]
            while prefix and len(_options(keyed, prefix[:-1])) == 1:
                prefix = prefix[:-1]  # (a step with one choice was never asked)
            list_moves()
            continue
        if word in VIEW_WORDS:
            screen.draw(game.view(state, seat))
            continue
        if word in HINT_WORDS and hints:
            if not hinting:
                console.print(Text("  hints are off: find your own move (play --hints turns them on)", style="dim"))
            elif not extra:
                list_offered()
            continue
        if said.isdigit():
            # (a number of 5,000 digits, or a digit Python cannot read as one: no move either)
            try:
                k = int(said) if len(said) <= 9 else 0
            except ValueError:
                k = 0
            if 1 <= k <= len(opts):
                label, under = opts[k - 1]
                if len(under) == 1 or not _options(keyed, prefix + (label,)):
                    return under[0]
                prefix = prefix + (label,)
                list_moves()
                continue
            if len(opts) < k <= len(opts) + len(extra):
                return extra[k - len(opts) - 1]
            shown = said if len(said) <= 12 else said[:12] + "…"
            console.print(Text(f"  there is no move {shown}: choose 1 to {len(opts) + len(extra)}, "
                               "or type a move", style="red"))
            continue
        try:
            move = game.parse_move(state, said, seat)
            if game.moves_seen(state, seat, [move])[0]["args"] != move["args"]:
                # typed by the face of a card this seat cannot see: it must not find out where it is
                raise MoveError("that names a component you cannot see: choose it by its number")
            return move
        except MoveError as err:
            console.print(Text(f"  {err.message}", style="red"))


def _columns(console: Console, rows: List[str]) -> None:
    """Numbered choices, in columns when there are many (every one shown: none cut)."""
    if len(rows) <= LIST_AT:
        for r in rows:
            console.print(Text(r))
        return
    width = max(len(r) for r in rows) + 2
    across = max(1, min(4, (console.width or 80) // width))
    down = (len(rows) + across - 1) // across
    for i in range(down):
        console.print(Text("".join(rows[i + k * down].ljust(width) for k in range(across)
                                   if i + k * down < len(rows)).rstrip()))


def _seconds(n: float) -> str:
    n = max(0, int(n + 0.999))  # round up: "1 second left" until the clock reads zero
    return f"{n} second" + ("" if n == 1 else "s")


def _shown_spec(spec: str, most: int = 60) -> str:
    return spec if len(spec) <= most else spec[:most] + "..."


def play_game(game, seats: List[str], seed: int, options: Optional[dict] = None, max_turns: int = 5000,
              out: Optional[IO[str]] = None, inp: Optional[IO[str]] = None, log_path=None,
              verbose: bool = False, timers: bool = True, hints: bool = False,
              key: Optional[str] = None) -> Outcome:
    """Play a game to its end (or until a human quits) with the given seat kinds.

    A human's timed choice (`choose by P within N seconds`) runs against the clock: when it
    runs out, the timeout move is applied. With `timers` False a human has all the time they
    want. With `hints`, a human may ask ('hint') for the typed moves the rules suggest to
    bots (a word game's words); off by default, so a person finds their own. Bots ignore timers (they choose among the legal moves, never the timeout move).

    With the host's secret `key` (32 hex digits), the deal and the bots' draws follow from the
    seed and the key (`Game.new_game`); the log keeps both, so `replay` reproduces the game.

    Raises OptionError (bad player count or options), RuleError (a rule failed) and
    UsageError (a bot or the rules got stuck). With only bots, nothing is printed but
    the moves when `verbose`.
    """
    import sys

    out = out if out is not None else sys.stdout
    reader = LineReader(inp if inp is not None else sys.stdin)
    console = make_console(out)
    screen = Screen(game, console)
    state = game.new_game(len(seats), seed, options, max_turns, key=key)
    players = [make_seat(k, game, i, seed, key) for i, k in enumerate(seats)]
    humans = [i for i, k in enumerate(seats) if k == "human"]
    log = LogWriter(log_path, game, len(seats), seed, state["options"], max_turns, key=key) if log_path else None
    # What happened, as each human seat was told it: (line, style) entries, and how many
    # of them each seat has been shown.
    told: Dict[int, List[tuple]] = {h: [] for h in humans}
    shown: Dict[int, int] = {h: 0 for h in humans}

    def tell(seat_moved: Optional[int], move: Optional[dict], before: Optional[dict], secret: bool) -> None:
        for h in humans:
            if move is not None:
                who = f"P{seat_moved + 1}" + (f" ({seats[seat_moved]})" if seats[seat_moved] != "human" else "")
                # (what h may read of another seat's move: its hidden cards unnamed)
                text = game.move_told(before, state, move, h)
                told[h].append((f"{who} has chosen." if secret else f"{who}: {text}", ""))
            for message in game.heard(state, h):
                told[h].append((f"  » {message}", "yellow"))

    def since(h: int) -> List[tuple]:
        got = told[h][shown[h]:][-MAX_LOG:]
        shown[h] = len(told[h])
        return got

    tell(None, None, None, False)  # what the setup said
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
                                      seconds=seconds, hinting=hints, screen=screen, log=since(seat))
                except _Quit as q:
                    console.print(Text(f"{q.why}; the game was abandoned after {count} moves."))
                    return Outcome(state, abandoned=True, moves=count)
            else:
                known_problems = len(getattr(bot, "problems", []))
                move = bot.choose(state)
                for problem in getattr(bot, "problems", [])[known_problems:]:
                    # an external bot's fault: said always (not only with -v), and what was played for it
                    console.print(Text(f"P{seat + 1} ({_shown_spec(seats[seat])}): bad bot: {problem}; "
                                       "it plays a random legal move this time", style="red"))
            text = game.move_text(state, move)
            before, state = state, game.apply(state, move)
            count += 1
            if log is not None:
                log.move(move, text)
            if humans:
                tell(seat, move, before, secret)
            elif verbose:
                console.print(Text(f"P{seat + 1} ({seats[seat]}): {text}"))
                for message in state.get("said", []):
                    console.print(Text(f"  » {message}", style="yellow"))
        if log is not None:
            log.finish(game.results(state))
        if humans:
            console.rule(Text("game over", style="bold"))
            screen.draw(game.view(state, humans[0]), since(humans[0]))
        elif verbose:
            show_revealed(console, game, state)
        return Outcome(state, moves=count)
    finally:
        if log is not None:
            log.close()
        for bot in players:
            if hasattr(bot, "close"):
                bot.close()
