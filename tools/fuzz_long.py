"""The long fuzz run, outside CI: many generated and mutated rule files, and many random
games of every game in games/ and examples/ with the engine's invariant checks.

    python tools/fuzz_long.py --files 100000 --games 10000 --minutes 60 --jobs 1
    python tools/fuzz_long.py --files 0 --games 10000 --only letter_tycoon,wordomino --jobs 2

Rule files come from tests/support/rulegen.py (grammar walks, typed templates, mutations of the
real files); each must end in diagnostics, a game or a rule error, within --timeout
seconds and a memory limit (--memory MiB per worker). Games are played at random with
the checks of tests/support/play_checks.py (components conserved, illegal moves refused, views
hiding what they must, JSON round trips, declared values in range, identical replays).

Files and games are interleaved, so a run cut short by --minutes has done some of both;
every game gets a game in turn until it has --games of them. Each crash is written to
--out (the file, or the game's seed and players) with what happened, minimised when it is
a rule file; the run ends with a summary (also written as summary.json, which is kept up
to date every minute, so a run stopped early still counts what it finished), and exits 1
if anything crashed. The same --seed gives the same files and games.

With --lockstep, every generated file that plays is also played move for move by the
interpreter and the compiling back end (tools/lockstep.py: states, moves, views, refusals
and failures compared after every move); a difference is a crash of kind "divergence".
"""

from __future__ import annotations

import argparse
import collections
import itertools
import json
import multiprocessing
import random
import resource
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# A round is FILE_TASKS_PER_ROUND batches of files, then one task per game: about as much
# time for files as for games (a batch takes ~2-3 s; a game task about GAME_SECONDS).
FILE_BATCH = 100
FILE_TASKS_PER_ROUND = 16
GAME_SECONDS = 2

_worker = {}


def _init(memory_mib: int, timeout: int, check_every: int, sample_apply: int, lockstep: bool = False):
    if memory_mib:
        limit = memory_mib * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from tests.support import rulegen

    donors = {str(p): p.read_text("utf-8") for p in rulegen.real_files()}
    _worker.update(sources=rulegen.sources(donors), timeout=timeout, games={},
                   check_every=check_every, sample_apply=sample_apply, lockstep=lockstep)


def _files(task):
    """A batch of rule files: counts of outcomes, and the crashes."""
    from tests.support import rulegen

    _, seed, start, count, names = task
    counts, crashes = {}, []
    for i in range(start, start + count):
        name = names[i % len(names)]
        rng = random.Random(f"{seed}-{name}-{i}")
        path, text = _worker["sources"][name](rng)
        try:
            outcome = rulegen.run_one(path, text, i, moves=20, timeout=_worker["timeout"]).split()[0]
        except rulegen.Crash as crash:
            outcome = "crash"
            try:
                # a timeout is not minimised: each try would take the whole timeout
                small = text if crash.kind == "timeout" else rulegen.minimise(path, text, crash.kind, i, 20)
            except BaseException:  # minimising is a courtesy: never lose the crash over it
                small = text
            crashes.append({"what": "file", "source": name, "index": i, "path": path, "kind": crash.kind,
                            "detail": crash.detail, "text": text, "minimised": small})
        except MemoryError:
            outcome = "crash"
            crashes.append({"what": "file", "source": name, "index": i, "path": path, "kind": "MemoryError",
                            "detail": "", "text": text, "minimised": text})
        if _worker.get("lockstep") and outcome in ("played", "rule"):
            differs = _in_lockstep(path, text, i)
            outcome = "in lockstep" if differs is None else "crash"
            if differs is not None:
                crashes.append({"what": "file", "source": name, "index": i, "path": path, "kind": differs[0],
                                "detail": differs[1], "text": text, "minimised": text})
        counts[outcome] = counts.get(outcome, 0) + 1
    return {"files": count, "counts": counts, "crashes": crashes}


def _in_lockstep(path: str, text: str, seed: int):
    """A file that plays, played by the interpreter and the compiling back end together for
    20 moves: None if they agree, else what differed (kind, detail). More than the timeout
    counts as agreeing: the file already played once within it, and a lockstep does more."""
    import signal

    from tests.support import rulegen
    from gamedsl.errors import GameError, RuleError
    from gamedsl.pipeline import load
    from tools.lockstep import Divergence, lockstep

    def on_alarm(signum, frame):
        raise rulegen.Timeout()

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(_worker["timeout"])
    try:
        try:
            a = load(path, text=text, backend="interpreter")
        except GameError as err:
            return "divergence", f"only the compiling back end loads the file: {err}"
        b = load(path, text=text, backend="compiled")
        players = random.Random(seed).randint(a.min_players, a.max_players)
        try:
            lockstep(a, b, players, seed, refusals=seed % 4 == 0, stop_after=20)
        except RuleError:
            pass  # (the same failure in both: the game ended in it)
    except Divergence as d:
        return "divergence", str(d)[-3000:]
    except rulegen.Timeout:
        return None
    except Exception as err:  # noqa: BLE001 - anything else is a crash of the lockstep itself
        return type(err).__name__, "".join(traceback.format_exception(err))[-3000:]
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    return None


def _game(task):
    """Random games of a real game, with every check, from seed `first` on, up to `count`
    games or `seconds` (so a round gives a quick game many and a slow one a single game)."""
    _, path, first, count, seconds = task
    result = {"games": {path: 0}, "crashes": [], "moves": 0}
    began = time.time()
    for seed in range(first, first + count):
        one = _one_game(path, seed)
        result["games"][path] += 1
        result["crashes"] += one["crashes"]
        result["moves"] += one.get("moves", 0)
        if time.time() - began > seconds:
            break
    return result


def _one_game(path, seed):
    """One random game; a crash names its seed and players."""
    import signal

    from tests.support import play_checks
    from gamedsl.pipeline import load

    games = _worker["games"]
    if path not in games:
        games[path] = load(path)
    game = games[path]
    span = game.max_players - game.min_players + 1
    players = game.min_players + seed % span
    under_games = Path(path).resolve().is_relative_to(ROOT / "games")

    def on_alarm(signum, frame):
        raise TimeoutError(f"a game took more than {_worker['timeout'] * 30} s")

    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(_worker["timeout"] * 30)
    try:
        start, played, final = play_checks.play(game, players, seed, check_every=_worker["check_every"],
                                                sample_apply=_worker["sample_apply"], typed=True,
                                                all_placed=under_games)
        if not game.results(final)["finished"]:
            raise AssertionError("the game hit the turn limit")
        play_checks.check_replay(game, players, seed, start, played, final)
    except BaseException as err:  # noqa: B902 - pytest's fail() is a BaseException
        if isinstance(err, KeyboardInterrupt):
            raise
        return {"games": {path: 1}, "crashes": [{"what": "game", "path": path, "seed": seed, "players": players,
                                                  "kind": type(err).__name__,
                                                  "detail": "".join(traceback.format_exception(err))[-3000:]}]}
    finally:
        signal.alarm(0)
    return {"games": {path: 1}, "crashes": [], "moves": len(played)}


def _run(task):
    return _files(task) if task[0] == "files" else _game(task)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=int, default=100_000, help="rule files to generate and run (default 100000)")
    ap.add_argument("--games", type=int, default=10_000, help="random games of each game (default 10000)")
    ap.add_argument("--minutes", type=float, default=None, help="stop after this long, whatever is left")
    ap.add_argument("--seed", type=int, default=1, help="names every file and game of the run (default 1)")
    ap.add_argument("--jobs", "-j", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--sources", default="walk,typed,mutant", help="rule file sources, comma-separated")
    ap.add_argument("--timeout", type=int, default=10, help="seconds one rule file may take (default 10)")
    ap.add_argument("--memory", type=int, default=2048, help="MiB of memory per worker (default 2048; 0: no limit)")
    ap.add_argument("--check-every", type=int, default=4, help="steps between full checks in games (default 4)")
    ap.add_argument("--sample-apply", type=int, default=8, help="legal moves tried at each checked step (default 8)")
    ap.add_argument("--only", default="",
                    help="play only the games whose path contains one of these, comma-separated (default: all)")
    ap.add_argument("--lockstep", action="store_true",
                    help="also play each file that plays through both back ends, move for move")
    ap.add_argument("--out", default="fuzz-crashes", help="where crashes and summary.json go (default ./fuzz-crashes)")
    args = ap.parse_args(argv)
    for name in ("files", "games", "jobs", "timeout", "check_every", "sample_apply"):
        if getattr(args, name) < (1 if name in ("jobs", "timeout", "check_every", "sample_apply") else 0):
            ap.error(f"--{name.replace('_', '-')} is too small")
    names = [s.strip() for s in args.sources.split(",") if s.strip()]
    if not names or set(names) - {"walk", "typed", "mutant"}:
        ap.error("--sources takes walk, typed and mutant")

    from tests.support import rulegen

    games = [str(p) for p in rulegen.real_games()]
    if args.only:
        wanted = [w.strip() for w in args.only.split(",") if w.strip()]
        games = [g for g in games if any(w in g for w in wanted)]
        if not games:
            ap.error(f"--only {args.only}: no game in games/ or examples/ matches")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    began = time.time()
    deadline = began + args.minutes * 60 if args.minutes else None
    done = {"files": 0, "outcomes": {}, "games": {g: 0 for g in games}, "crashes": 0, "moves": 0}
    seen_kinds = set()

    next_seed = {g: args.seed * 1_000_000_000 for g in games}

    def tasks():
        file_start = 0
        for round_ in itertools.count():
            if deadline and time.time() > deadline:
                return
            more = False
            for _ in range(FILE_TASKS_PER_ROUND):
                if file_start < args.files:
                    n = min(FILE_BATCH, args.files - file_start)
                    yield ("files", args.seed, file_start, n, names)
                    file_start += n
                    more = True
            for g in games:
                if done["games"][g] < args.games:
                    yield ("game", g, next_seed[g], args.games - done["games"][g], GAME_SECONDS)
                    next_seed[g] += args.games
                    more = True
            if not more:
                return

    def record(result):
        done["files"] += result.get("files", 0)
        for k, v in result.get("counts", {}).items():
            done["outcomes"][k] = done["outcomes"].get(k, 0) + v
        for g, v in result.get("games", {}).items():
            done["games"][g] += v
        done["moves"] += result.get("moves", 0)
        for crash in result["crashes"]:
            done["crashes"] += 1
            tag = f"{crash['what']}-{crash.get('source', Path(crash['path']).stem)}-" \
                  f"{crash.get('index', crash.get('seed'))}"
            (out / f"{tag}.json").write_text(json.dumps(crash, indent=1, ensure_ascii=False) + "\n", "utf-8")
            if "minimised" in crash:
                (out / f"{tag}.game").write_text(crash["minimised"], "utf-8", errors="surrogatepass")
            last = crash["detail"].strip().splitlines()[-1:] or [""]
            key = (crash["kind"], last[0][:120])
            if key not in seen_kinds:
                seen_kinds.add(key)
                print(f"CRASH {tag}: {crash['kind']}: {last[0][:200]}", flush=True)

    def write_summary(finished: bool) -> dict:
        # written at every report too: a run stopped early (or killed) still says, truly,
        # how many files and games it finished and what crashed
        summary = {
            "seed": args.seed, "finished": finished, "minutes": round((time.time() - began) / 60, 1),
            "jobs": args.jobs, "files": done["files"], "files_asked": args.files,
            "file_outcomes": done["outcomes"], "games_asked": args.games, "moves": done["moves"],
            "games": {str(Path(g).relative_to(ROOT)): n for g, n in done["games"].items()},
            "crashes": done["crashes"], "distinct_crashes": len(seen_kinds),
        }
        (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", "utf-8")
        return summary

    last_report = time.time()
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(args.jobs, initializer=_init,
                  initargs=(args.memory, args.timeout, args.check_every, args.sample_apply, args.lockstep),
                  maxtasksperchild=200) as pool:
        # Tasks are handed out a few at a time (Pool.imap would take the whole generator at
        # once), so the deadline and the games' counts are read when each task is made.
        todo, pending = tasks(), collections.deque()
        while True:
            while len(pending) < 2 * args.jobs:
                task = next(todo, None)
                if task is None:
                    break
                pending.append(pool.apply_async(_run, (task,)))
            if not pending:
                break
            record(pending.popleft().get())
            if time.time() - last_report > 60:
                last_report = time.time()
                least = min(done["games"].values(), default=0)
                print(f"[{(time.time() - began) / 60:.1f} min] files {done['files']} {done['outcomes']}; "
                      f"games per game >= {least}; crashes {done['crashes']}", flush=True)
                write_summary(False)
    summary = write_summary(True)
    print(json.dumps(summary, indent=1))
    return 1 if done["crashes"] else 0


if __name__ == "__main__":
    sys.exit(main())
