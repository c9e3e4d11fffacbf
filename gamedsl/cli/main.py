"""The `gamedsl` command: check, play, test, replay, simulate and compare game files.

Exit codes: 0 ok; 1 the rules have errors, a rule failed, or a scenario/replay failed;
2 the command was used wrongly (bad arguments, options, seats, moves or log files).
Bad input never shows a Python traceback: diagnostics are rendered compiler-style,
everything else is one line `gamedsl: error: ...`.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path
from typing import List, Optional

from gamedsl.errors import GamedslError, GameError, RuleError, UsageError
from gamedsl.diagnostics import render_all, to_json
from gamedsl.files import read_bytes
from gamedsl.language import MAX_SOURCE_BYTES
from gamedsl.text import visible
from gamedsl.cli.common import (MAX_SEED, MAX_TURNS_ASKED, add_max_steps, check_seat_count, error, load_game,
                                max_steps, parse_key, parse_options, whole_number)
from gamedsl.runtime.rng import new_key
from gamedsl.language import DEFAULT_MAX_TURNS


def package_version() -> str:
    """The installed version, looked up only when asked: importlib.metadata costs ~20 ms of
    every start, and `gamedsl check` should start fast."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("gamedsl")
    except PackageNotFoundError:
        return "0.1.0"


class _VersionAction(argparse.Action):
    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"gamedsl {package_version()}")
        parser.exit()


def _game_files(paths: List[str]) -> List[str]:
    """The files to check: each path, a directory standing for the .game files below it."""
    out: List[str] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(str(f) for f in sorted(path.rglob("*.game")))
        else:
            out.append(p)
    return out


# ---------------------------------------------------------------- check


def cmd_check(args) -> int:
    from gamedsl.pipeline import check_files

    files = _game_files(args.files)
    diags, sources = check_files(files)
    errors = sum(1 for d in diags if d.is_error)
    warnings = len(diags) - errors
    if args.format == "json":
        print(to_json(diags))
    else:
        if diags:
            print(render_all(diags, sources))
        n = len(files)
        plural = "file" if n == 1 else "files"
        if errors:
            print(f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''} "
                  f"in {n} {plural}")
        elif warnings:
            print(f"ok: {n} {plural} ({warnings} warning{'s' if warnings != 1 else ''})")
        else:
            print(f"ok: {n} {plural}")
    return 1 if errors else 0


# ---------------------------------------------------------------- play


def cmd_play(args) -> int:
    from gamedsl.bots.registry import parse_seats
    from gamedsl.cli.terminal import play_game, render_result

    seats = parse_seats(args.seats)
    options = parse_options(args.option)
    if args.max_turns is not None and args.max_turns < 1:
        raise UsageError("--max-turns must be at least 1")
    game = load_game(args.file, max_steps(args))
    check_seat_count(game, seats, args.seats)
    game.resolve_options(options)  # OptionError before anything is shown
    key = parse_key(args.key)
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    if args.seed is None and key is None:
        # A seat could find a seed of a million from its own cards: the deal is keyed by a
        # secret of this run's (in the log, and printed at the end, to replay it).
        key = new_key()
    outcome = play_game(game, seats, seed, options, args.max_turns or DEFAULT_MAX_TURNS,
                        out=sys.stdout, inp=sys.stdin, log_path=args.log, verbose=args.verbose,
                        timers=not args.no_timer, hints=args.hints, key=key)
    if outcome.abandoned:
        return 0
    print(render_result(game, game.results(outcome.state), seed, game.tiebreaks(outcome.state), key))
    return 0


# ---------------------------------------------------------------- serve


def cmd_serve(args) -> int:
    from gamedsl.bots.registry import parse_seats
    from gamedsl.web import Table, serve

    seats = parse_seats(args.seats)
    options = parse_options(args.option)
    if args.max_turns is not None and args.max_turns < 1:
        raise UsageError("--max-turns must be at least 1")
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be 0 to 65535, not {args.port}")
    if "human" not in seats:
        raise UsageError("serve wants at least one human seat in --seats (bots alone: gamedsl play)")
    game = load_game(args.file, max_steps(args))
    check_seat_count(game, seats, args.seats)
    game.resolve_options(options)
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    table = Table(game, seats, seed, options, args.max_turns or DEFAULT_MAX_TURNS,
                  timers=not args.no_timer, hot_seat=args.hot_seat, game_path=args.file, hints=args.hints)
    try:
        serve(table, args.host, args.port)
    except OSError as err:
        raise UsageError(f"cannot serve on {args.host}:{args.port}: {err.strerror or err}") from None
    finally:
        table.close()
    return 0


# ---------------------------------------------------------------- replay


def cmd_replay(args) -> int:
    from gamedsl.logs import replay
    from gamedsl.cli.terminal import render_result, render_view
    from gamedsl.cli.output import Console
    from rich.text import Text

    console = Console(file=sys.stdout, highlight=False, markup=False, emoji=False)

    def show(line, move, text, state):
        seat = move["seat"]
        console.print(Text(f"line {line}: P{seat + 1}: {text or move}", style="bold"))
        for message in state.get("said", []):
            console.print(Text(f"  » {message}"))

    def load(path):
        return load_game(path)

    done = replay(args.log, load=load, on_move=show if args.show else None)
    if done.changed:
        print(f"gamedsl: warning: {done.log.header['game']} has changed since the log was written "
              "(its sha256 differs); replayed anyway", file=sys.stderr)
    if args.show:
        console.rule()
        for seat in range(done.state["n"]):
            render_view(console, done.game, done.game.view(done.state, seat))
    if not done.game.is_over(done.state):
        print(f"the log ends after {len(done.log.moves)} moves, before the game does (abandoned)")
    print(render_result(done.game, done.game.results(done.state), done.log.header["seed"],
                        done.game.tiebreaks(done.state), done.log.header.get("key")))
    return 0


# ---------------------------------------------------------------- test


def cmd_test(args) -> int:
    try:
        from gamedsl.scenario import run_paths
    except ImportError as err:
        raise UsageError(f"scenario tests are not available: {err}", 1) from None
    steps = max_steps(args)
    out = _Tail(sys.stdout)
    passed, failed = run_paths(args.paths, out, max_steps=steps)
    summary = f"{passed} passed, {failed} failed"
    if out.last_line().strip() != summary:  # the runner may already have said it
        print(summary)
    return 1 if failed else 0


class _Tail:
    """A text stream that passes everything on and remembers the last line written."""

    def __init__(self, stream):
        self.stream, self.tail = stream, ""

    def write(self, text: str) -> int:
        self.tail = (self.tail + text)[-500:]
        return self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()

    def last_line(self) -> str:
        lines = self.tail.rstrip("\n").split("\n")
        return lines[-1] if lines else ""

    def __getattr__(self, name):
        return getattr(self.stream, name)


# ---------------------------------------------------------------- rules


def cmd_rules(args) -> int:
    from gamedsl.rulebook import rulebook_of

    text = rulebook_of(args.file)
    if args.out:
        try:
            Path(args.out).write_text(visible(text), "utf-8")  # (read later in a terminal)
        except OSError as err:
            raise UsageError(f"cannot write {args.out}: {err.strerror}") from None
    else:
        sys.stdout.write(text)
    return 0


# ---------------------------------------------------------------- lsp


def cmd_lsp(args) -> int:
    try:
        import pygls  # noqa: F401 — an optional dependency: say how to get it
    except ImportError:
        raise UsageError("the language server needs pygls: pip install 'gamedsl[lsp]'") from None
    from gamedsl.lsp.server import serve

    serve()
    return 0


# ---------------------------------------------------------------- the parser


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line and exit 2, like argparse, but with our prefix
        self.print_usage(sys.stderr)
        error(message)
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="gamedsl", description="Check, play, test and replay board-game rules written as .game files.")
    parser.add_argument("--version", action=_VersionAction, help="show the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("check", help="report every mistake in game files (exit 1 on errors)")
    p.add_argument("files", nargs="+", metavar="FILE", help=".game files (a directory: every .game file below it)")
    p.add_argument("--format", choices=["text", "json"], default="text", help="text (default) or json for editors")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("play", help="play a game in the terminal, humans and bots")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--seats", required=True,
                   help="one seat kind per player, comma-separated: human, random, first, greedy, mcts, "
                        "cmd:COMMAND; bot parameters after ':' (e.g. human,mcts:iters=500)")
    p.add_argument("--seed", type=whole_number("--seed", 0, MAX_SEED), default=None,
                   help="random seed (default: a random one, and a fresh secret key; both printed at the end)")
    p.add_argument("--key", default=None, metavar="HEX",
                   help="the secret key (32 hex digits) the deal is drawn with besides the seed; without it, "
                        "an explicit --seed alone decides the deal, so anyone who guesses the seed knows it")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="set a game option (repeatable)")
    p.add_argument("--max-turns", type=whole_number("--max-turns", 1, MAX_TURNS_ASKED), default=None, metavar="N",
                   help=f"stop the game as unfinished after N turns (default {DEFAULT_MAX_TURNS})")
    p.add_argument("--log", metavar="FILE", help="write a JSON-lines game log (replay it with `gamedsl replay`)")
    p.add_argument("-v", "--verbose", action="store_true", help="print every move, also when only bots play")
    p.add_argument("--no-timer", action="store_true",
                   help="no clock on timed choices: humans have all the time they want (bots ignore timers anyway)")
    p.add_argument("--hints", action="store_true",
                   help="let humans type 'hint' for the typed moves the rules suggest to bots (a word game's "
                        "words); off by default")
    add_max_steps(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("serve", help="play a game in the browser: a local web table, a link per human seat")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--seats", required=True,
                   help="one seat kind per player, comma-separated, as for play (human seats get a link "
                        "each; bots move by themselves), e.g. human,human,mcts")
    p.add_argument("--seed", type=int, default=None, help="random seed (default: a random one, printed)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="set a game option (repeatable)")
    p.add_argument("--max-turns", type=int, default=None, metavar="N",
                   help=f"stop the game as unfinished after N turns (default {DEFAULT_MAX_TURNS})")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this computer only; 0.0.0.0 "
                        "lets friends on the network join)")
    p.add_argument("--port", type=int, default=8000, help="the port to listen on (default 8000; 0: any free port)")
    p.add_argument("--hot-seat", action="store_true",
                   help="one page for every human seat at one device, hiding each hand until the "
                        "next player takes the device")
    p.add_argument("--no-timer", action="store_true", help="no clock on timed choices")
    p.add_argument("--hints", action="store_true",
                   help="let humans ask for the typed moves the rules suggest to bots (a word game's "
                        "words); off by default")
    add_max_steps(p)
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("replay", help="replay a game log move by move and print the result")
    p.add_argument("log", metavar="LOG")
    p.add_argument("--show", action="store_true", help="print every move and the final views")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("test", help="run scenario tests (files or directories)")
    p.add_argument("paths", nargs="+", metavar="PATH")
    add_max_steps(p)
    p.set_defaults(func=cmd_test)

    p = sub.add_parser("rules", help="write a game's rules as a readable Markdown rulebook")
    p.add_argument("file", metavar="FILE", help="a .game file (it must check without errors)")
    p.add_argument("-o", "--out", metavar="FILE", help="write the rulebook to FILE (default: print it)")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("lsp", help="run the language server an editor starts: diagnostics as you type, "
                                   "hover, definitions, references, completion (LSP over stdin and stdout)")
    p.add_argument("--stdio", action="store_true",
                   help="talk over stdin and stdout (the default and only way; accepted because editors pass it)")
    p.set_defaults(func=cmd_lsp)
    from gamedsl.cli.sim_commands import add_commands

    add_commands(sub)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 2
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    # A rule file's texts are shown, never obeyed by the terminal (see gamedsl/cli/output.py).
    from gamedsl.cli.output import VisibleStream

    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = VisibleStream(saved[0]), VisibleStream(saved[1])
    try:
        return _run(args)
    finally:
        sys.stdout, sys.stderr = saved


def _run(args) -> int:
    try:
        return args.func(args)
    except GamedslError as err:
        if isinstance(err, GameError):
            print(render_all(err.diagnostics, _sources_of(err)), file=sys.stderr)
        elif isinstance(err, RuleError):
            print(render_all([err.diagnostic()], _sources_for_span(err)), file=sys.stderr)
        else:
            error(str(err))
        return err.exit_code
    except KeyboardInterrupt:
        print("\ngamedsl: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except RecursionError:
        error("the rules recurse too deeply")
        return 1
    except Exception as err:  # an engine bug: one line, unless a traceback is asked for
        if os.environ.get("GAMEDSL_TRACEBACK"):
            raise
        error(f"internal error: {type(err).__name__}: {err} (set GAMEDSL_TRACEBACK=1 to see where)")
        return 1


def _sources_of(err: GameError) -> dict:
    """Source texts for rendering diagnostics (the files their spans name)."""
    return _read_span_files(d.span for d in err.diagnostics)


def _sources_for_span(err: RuleError) -> dict:
    return _read_span_files([err.span])


def _read_span_files(spans) -> dict:
    sources = {}
    for span in spans:
        name = getattr(span, "file", None)
        if name and name not in sources:
            try:  # (a file the diagnostics name: regular and bounded, as when it was read)
                sources[name] = read_bytes(Path(name), MAX_SOURCE_BYTES).decode("utf-8")
            except (OSError, ValueError):
                pass
    return sources


if __name__ == "__main__":
    sys.exit(main())
