"""The `simulate` and `compare` commands: many bot games, a balance report, two drafts side by side."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import List, Optional

from gamedsl.cli.common import MAX_GAMES_ASKED, MAX_JOBS_ASKED, MAX_SEED, MAX_TURNS_ASKED, whole_number, add_max_steps, load_game, max_steps, parse_options
from gamedsl.errors import UsageError
from gamedsl.language import DEFAULT_MAX_TURNS


def _spec(args, path: str, options: dict):
    from gamedsl.bots.spec import split_spec
    from gamedsl.bots.registry import parse_seats, seat_kinds
    from gamedsl.sim.simulate import SimSpec

    seats = parse_seats(args.seats)
    kinds = seat_kinds()
    if any(kinds[split_spec(s)[0]] is None for s in seats):
        raise UsageError("simulate plays bots only: 'human' cannot sit at a simulated table")
    if args.n < 1:
        raise UsageError("-n must be at least 1")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if args.max_turns is not None and args.max_turns < 1:
        raise UsageError("--max-turns must be at least 1")
    return SimSpec(path=path, seats=seats, games=args.n, seed=args.seed, options=options,
                   max_turns=args.max_turns or DEFAULT_MAX_TURNS, rotate=args.rotate, max_steps=max_steps(args))


def _check_players(game, spec) -> None:
    n = len(spec.seats)
    if not game.min_players <= n <= game.max_players:
        span = (f"{game.min_players}" if game.min_players == game.max_players
                else f"{game.min_players} to {game.max_players}")
        raise UsageError(f"{game.title} is for {span} players, but --seats names {n}")
    game.resolve_options(spec.options)  # OptionError before any game is played


def _run(spec, jobs: Optional[int], quiet: bool, label: str = ""):
    from gamedsl.cli.output import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeElapsedColumn
    from rich.text import Text

    from gamedsl.sim.simulate import run

    class Speed(ProgressColumn):
        def render(self, task):
            speed = task.finished_speed or task.speed
            return Text(f"{speed:.1f} games/s" if speed else "- games/s")

    if quiet:
        return run(spec, jobs)
    console = Console(file=sys.stderr)
    with Progress(TextColumn(label or "simulating"), BarColumn(), MofNCompleteColumn(), Speed(),
                  TimeElapsedColumn(), console=console, transient=False) as progress:
        task = progress.add_task("games", total=spec.games)
        return run(spec, jobs, on_game=lambda done: progress.update(task, completed=done))


def _write_run(out: Path, run, report: dict, plots: bool) -> List[Path]:
    from gamedsl.sim.report import render

    out.mkdir(parents=True, exist_ok=True)
    with open(out / "results.jsonl", "w", encoding="utf-8") as f:
        for r in run.records:
            f.write(json.dumps(r, sort_keys=True) + "\n")
    (out / "report.json").write_text(json.dumps(report, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    (out / "report.txt").write_text(render(report) + "\n", encoding="utf-8")
    written = [out / "results.jsonl", out / "report.json", out / "report.txt"]
    if plots:
        from gamedsl.sim.plots import write_plots

        written.extend(write_plots(report, run.records, out))
    return written


def cmd_simulate(args) -> int:
    from gamedsl.sim.report import build, render

    spec = _spec(args, args.file, parse_options(args.option))
    game = load_game(args.file, spec.max_steps)
    _check_players(game, spec)
    sim = _run(spec, args.jobs, args.quiet)
    report = build(sim, game)
    print(render(report))
    out = Path(args.out)
    files = _write_run(out, sim, report, plots=not args.no_plots)
    print(f"\nwritten: {', '.join(str(f) for f in files)}")
    return 1 if report["errors"] else 0


def cmd_compare(args) -> int:
    from gamedsl.sim.compare import compare, render
    from gamedsl.sim.report import build

    file_b = args.file_b or args.file_a
    common = parse_options(args.option)
    opts_a = dict(common, **parse_options(args.a_option))
    opts_b = dict(common, **parse_options(args.b_option))
    if file_b == args.file_a and opts_a == opts_b:
        raise UsageError("compare needs two drafts, or one file with different --a-option/--b-option")
    runs = []
    for side, path, opts in (("A", args.file_a, opts_a), ("B", file_b, opts_b)):
        spec = _spec(args, path, opts)
        game = load_game(path, spec.max_steps)
        _check_players(game, spec)
        sim = _run(spec, args.jobs, args.quiet, label=f"draft {side}")
        runs.append((sim, build(sim, game)))
    (sim_a, rep_a), (sim_b, rep_b) = runs
    if opts_a != opts_b:
        rep_a["file"] += " " + " ".join(f"{k}={v}" for k, v in opts_a.items())
        rep_b["file"] += " " + " ".join(f"{k}={v}" for k, v in opts_b.items())
    result = compare(rep_a, sim_a.records, rep_b, sim_b.records)
    print(render(result))
    if args.out:
        out = Path(args.out)
        _write_run(out / "a", sim_a, rep_a, plots=not args.no_plots)
        _write_run(out / "b", sim_b, rep_b, plots=not args.no_plots)
        (out / "compare.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        print(f"\nwritten: {out / 'compare.json'}, and each draft's report in {out / 'a'} and {out / 'b'}")
    return 1 if rep_a["errors"] or rep_b["errors"] else 0


def _common(p) -> None:
    p.add_argument("-n", type=whole_number("-n", 1, MAX_GAMES_ASKED), default=100, help="games to play (default 100)")
    p.add_argument("--seats", required=True,
                   help="one bot per player, comma-separated, with parameters after ':' "
                        "(random, greedy, mcts:iters=500, mcts:ms=200, cmd:./bot.py)")
    p.add_argument("--seed", type=whole_number("--seed", 0, MAX_SEED), default=1, help="the first game's seed (game i: seed + i; default 1)")
    p.add_argument("--jobs", "-j", type=whole_number("--jobs", 1, MAX_JOBS_ASKED), default=None, help="worker processes (default: every core)")
    p.add_argument("--rotate", action="store_true",
                   help="turn the seats by one place each game, so every bot sits in every seat")
    p.add_argument("--max-turns", type=whole_number("--max-turns", 1, MAX_TURNS_ASKED), default=None, metavar="N",
                   help="stop a game as unfinished after N turns")
    p.add_argument("--no-plots", action="store_true", help="write no PNG plots")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")

    add_max_steps(p)


def add_commands(sub) -> None:
    p = sub.add_parser("simulate", help="play many bot games and report win rates, balance and rule coverage")
    p.add_argument("file", metavar="FILE")
    _common(p)
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="set a game option (repeatable)")
    p.add_argument("--out", default="simulation", metavar="DIR",
                   help="where results.jsonl, report.json, report.txt and the plots go (default ./simulation)")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("compare", help="simulate two drafts (or option sets) on the same seeds and compare them")
    p.add_argument("file_a", metavar="A")
    p.add_argument("file_b", metavar="B", nargs="?", help="the second draft (default: A again, with --b-option)")
    _common(p)
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="an option for both drafts")
    p.add_argument("--a-option", action="append", default=[], metavar="NAME=VALUE", help="an option for A only")
    p.add_argument("--b-option", action="append", default=[], metavar="NAME=VALUE", help="an option for B only")
    p.add_argument("--out", default=None, metavar="DIR", help="also write both reports and compare.json here")
    p.set_defaults(func=cmd_compare)
