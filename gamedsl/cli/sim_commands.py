"""The `simulate` and `compare` commands: many bot games, a balance report, two drafts side by side.

Games run in local worker processes (`--jobs`) or on a Dask cluster (`--cluster`); either way
each finished game goes to `--out` at once, the folder is checked before the first game, and
Ctrl-C keeps the games finished (a partial run, marked so in run.json and the report; exit 130).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import List, Optional

from gamedsl.cli.common import (MAX_GAMES_ASKED, MAX_JOBS_ASKED, MAX_SEED, MAX_TURNS_ASKED, add_max_steps,
                                check_seat_count, load_game, max_steps, parse_key, parse_options, whole_number)
from gamedsl.errors import UsageError
from gamedsl.language import DEFAULT_MAX_TURNS
from gamedsl.runtime.rng import new_key


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
    if args.cluster is not None and args.jobs is not None:
        raise UsageError("--jobs and --cluster: the games run either in local processes or on the cluster, "
                         "not both")
    key = parse_key(args.key)
    if key is None and any(split_spec(s)[0] == "cmd" for s in seats):
        # Seeds 1..N are no secret: a `cmd:` bot could rebuild each deal from its own cards.
        # A fresh key for the run (both drafts of a compare share it), told to the host only.
        key = args.key = new_key()
        print(f"gamedsl: the deals are drawn with a secret key for the cmd: bots' sake; "
              f"rerun with --key {key} for the same games", file=sys.stderr)
    return SimSpec(path=path, seats=seats, games=args.n, seed=args.seed, options=options,
                   max_turns=args.max_turns or DEFAULT_MAX_TURNS, rotate=args.rotate, max_steps=max_steps(args),
                   key=key)


def _check_players(game, spec) -> None:
    check_seat_count(game, spec.seats)
    game.resolve_options(spec.options)  # OptionError before any game is played
    from gamedsl.bots.registry import make_bot
    from gamedsl.bots.spec import split_spec

    for seat, s in enumerate(spec.seats):  # a bad bot parameter, before --out is touched
        if split_spec(s)[0] != "cmd":  # (an external bot is a program: it is started per game)
            make_bot(s, game, seat, spec.seed)


INTERRUPTED = 130  # the shell's code for a command stopped by Ctrl-C


def _cluster(args) -> Optional[str]:
    """The --cluster target, checked (and Dask found) before anything is loaded or played."""
    if args.cluster is None:
        return None
    from gamedsl.sim.cluster import dask, parse_target

    parse_target(args.cluster)
    dask()
    return args.cluster


def _session(cluster: Optional[str]):
    if cluster is None:
        from contextlib import nullcontext

        return nullcontext(None)
    from gamedsl.sim.cluster import session

    return session(cluster)


def _prepare(out: Path, spec, cluster: Optional[str]):
    """The --out folder, ready before the first game (exit 2 here if it cannot be written)."""
    from gamedsl.sim.output import RunFolder, about_run

    folder = RunFolder.prepare(out, about_run(spec, cluster))
    if folder.cleared:
        print(f"gamedsl: {out} held an earlier run's files; removed: {', '.join(folder.cleared)}", file=sys.stderr)
    return folder


def _run(spec, jobs: Optional[int], quiet: bool, label: str = "", cluster: Optional[str] = None, on_record=None):
    from gamedsl.cli.output import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeElapsedColumn
    from rich.text import Text

    from gamedsl.sim.simulate import run

    class Speed(ProgressColumn):
        def render(self, task):
            speed = task.finished_speed or task.speed
            return Text(f"{speed:.1f} games/s" if speed else "- games/s")

    if quiet:
        return run(spec, jobs, on_record=on_record, cluster=cluster)
    console = Console(file=sys.stderr)
    with Progress(TextColumn(label or "simulating"), BarColumn(), MofNCompleteColumn(), Speed(),
                  TimeElapsedColumn(), console=console, transient=False) as progress:
        task = progress.add_task("games", total=spec.games)
        return run(spec, jobs, on_game=lambda done: progress.update(task, completed=done),
                   on_record=on_record, cluster=cluster)


def _write_run(folder, run, report: Optional[dict], plots: bool) -> List[Path]:
    """Results sorted by game, the report (of the games that finished) and plots, then run.json."""
    from gamedsl.sim.report import render

    out = folder.out
    written = [folder.finish(run.records)]
    if report is not None:
        (out / "report.json").write_text(json.dumps(report, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        (out / "report.txt").write_text(render(report) + "\n", encoding="utf-8")
        written += [out / "report.json", out / "report.txt"]
        if plots:
            from gamedsl.sim.plots import write_plots

            written.extend(write_plots(report, run.records, out))
    ended = "finished" if run.complete else "interrupted"
    written.append(folder.end(run.complete, len(run.records), ended))
    return written


def _interrupted(sims, out: Optional[Path]) -> int:
    done = sum(len(s.records) for s in sims)
    planned = sum(s.spec.games for s in sims)
    where = f"; they are in {out} (run.json: complete false)" if out is not None else ""
    print(f"gamedsl: interrupted: {done} of {planned} games finished{where}", file=sys.stderr)
    return INTERRUPTED


def cmd_simulate(args) -> int:
    from gamedsl.sim.report import build, render

    spec = _spec(args, args.file, parse_options(args.option))
    cluster = _cluster(args)
    game = load_game(args.file, spec.max_steps)
    _check_players(game, spec)
    out = Path(args.out)
    folder = _prepare(out, spec, cluster)
    try:
        sim = _run(spec, args.jobs, args.quiet, cluster=cluster, on_record=folder.add)
        report = build(sim, game) if sim.records else None
        if report is not None:
            print(render(report))
        files = _write_run(folder, sim, report, plots=not args.no_plots)
    finally:
        folder.close()
    print(f"\nwritten: {', '.join(str(f) for f in files)}")
    if not sim.complete:
        return _interrupted([sim], out)
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
    cluster = _cluster(args)
    sides = []
    for side, path, opts in (("A", args.file_a, opts_a), ("B", file_b, opts_b)):
        spec = _spec(args, path, opts)
        game = load_game(path, spec.max_steps)
        _check_players(game, spec)
        sides.append((side, spec, game))
    out = Path(args.out) if args.out else None
    folders = {}
    if out is not None:  # both folders checked before the first game of A
        _prepare_compare(out)
        folders = {side: _prepare(out / side.lower(), spec, cluster) for side, spec, _ in sides}
    runs = []
    try:
        with _session(cluster) as where:  # a local cluster serves both drafts
            for side, spec, game in sides:
                folder = folders.get(side)
                sim = _run(spec, args.jobs, args.quiet, label=f"draft {side}", cluster=where,
                           on_record=folder.add if folder else None)
                runs.append((sim, build(sim, game) if sim.records else None))
                if not sim.complete:
                    break
        if out is not None:
            for (side, _, _), (sim, report) in zip(sides, runs):
                _write_run(folders[side], sim, report, plots=not args.no_plots)
    finally:
        for folder in folders.values():
            folder.close()
    if len(runs) < 2 or not runs[-1][0].complete:
        return _interrupted([sim for sim, _ in runs], out)
    (sim_a, rep_a), (sim_b, rep_b) = runs
    if opts_a != opts_b:
        rep_a["file"] += " " + " ".join(f"{k}={v}" for k, v in opts_a.items())
        rep_b["file"] += " " + " ".join(f"{k}={v}" for k, v in opts_b.items())
    result = compare(rep_a, sim_a.records, rep_b, sim_b.records)
    print(render(result))
    if out is not None:
        (out / "compare.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        print(f"\nwritten: {out / 'compare.json'}, and each draft's report in {out / 'a'} and {out / 'b'}")
    return 1 if rep_a["errors"] or rep_b["errors"] else 0


def _prepare_compare(out: Path) -> None:
    """compare's --out: a folder, without an earlier comparison's compare.json (each draft's
    folder is then prepared like simulate's)."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} is a file, not a folder: name a folder for the results")
    earlier = out / "compare.json"
    if earlier.is_file():
        try:
            earlier.unlink()
        except OSError as err:
            raise UsageError(f"--out {out} holds an earlier comparison's compare.json, which cannot be removed: "
                             f"{err.strerror or err}") from None
        print(f"gamedsl: {out} held an earlier comparison; removed: compare.json", file=sys.stderr)


def _common(p) -> None:
    p.add_argument("-n", type=whole_number("-n", 1, MAX_GAMES_ASKED), default=100, help="games to play (default 100)")
    p.add_argument("--seats", required=True,
                   help="one bot per player, comma-separated, with parameters after ':' "
                        "(random, greedy, mcts:iters=500, mcts:ms=200, cmd:./bot.py)")
    p.add_argument("--seed", type=whole_number("--seed", 0, MAX_SEED), default=1, help="the first game's seed (game i: seed + i; default 1)")
    p.add_argument("--key", default=None, metavar="HEX",
                   help="a secret key (32 hex digits) the deals are drawn with besides the seeds (default: "
                        "none, or a fresh one printed on stderr when a seat is a cmd: bot)")
    p.add_argument("--jobs", "-j", type=whole_number("--jobs", 1, MAX_JOBS_ASKED), default=None, help="worker processes (default: every core)")
    p.add_argument("--rotate", action="store_true",
                   help="turn the seats by one place each game, so every bot sits in every seat")
    p.add_argument("--max-turns", type=whole_number("--max-turns", 1, MAX_TURNS_ASKED), default=None, metavar="N",
                   help="stop a game as unfinished after N turns")
    p.add_argument("--no-plots", action="store_true", help="write no PNG plots")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.add_argument("--cluster", default=None, metavar="ADDRESS",
                   help="play the games on a Dask cluster: a scheduler's address (tcp://HOST:8786) or "
                        "local[:N] for N worker processes here; needs pip install 'gamedsl[cluster]' "
                        "(see docs/cluster.md)")

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
