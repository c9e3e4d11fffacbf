"""A simulation's results are never lost: --out checked before the first game, each game kept
as it finishes, a partial run marked partial (Ctrl-C, kill -9), two runs' files never mixed,
and one bot's failure costs only its own game."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gamedsl.cli.main import main
from gamedsl.sim import simulate
from gamedsl.sim.simulate import SimSpec, run

ROOT = Path(__file__).resolve().parents[2]
HIGH_CARD = str(ROOT / "examples" / "high_card.game")
QUICK = ["-n", "3", "--seats", "random,random", "--jobs", "1", "--quiet", "--no-plots"]


def _no_game_played(monkeypatch):
    def refuse(*_args):
        raise AssertionError("a game was played before --out was checked")

    monkeypatch.setattr(simulate, "play_one", refuse)


def test_out_that_is_a_file_is_refused_before_any_game(tmp_path, capsys, monkeypatch):
    _no_game_played(monkeypatch)
    taken = tmp_path / "notes.txt"
    taken.write_text("mine")
    assert main(["simulate", HIGH_CARD, *QUICK, "--out", str(taken)]) == 2
    assert f"--out {taken} is a file, not a folder" in capsys.readouterr().err
    assert taken.read_text() == "mine"


def test_out_under_a_file_is_refused_before_any_game(tmp_path, capsys, monkeypatch):
    _no_game_played(monkeypatch)
    (tmp_path / "notes.txt").write_text("mine")
    assert main(["simulate", HIGH_CARD, *QUICK, "--out", str(tmp_path / "notes.txt" / "sim")]) == 2
    assert f"{tmp_path / 'notes.txt'} is a file, not a folder" in capsys.readouterr().err


def test_out_we_may_not_write_in_is_refused_before_any_game(tmp_path, capsys, monkeypatch):
    _no_game_played(monkeypatch)
    if os.geteuid() == 0:  # root writes through permission bits; a system folder refuses even root
        if not Path("/sys").is_dir():
            pytest.skip("no folder here refuses root")
        out = Path("/sys/gamedsl-simulation")
    else:
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(0o555)
        out = locked / "sim"
    assert main(["simulate", HIGH_CARD, *QUICK, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and f"cannot create the --out folder {out}" in err


def test_compare_checks_both_folders_before_any_game(tmp_path, capsys, monkeypatch):
    _no_game_played(monkeypatch)
    (tmp_path / "a").write_text("not a folder")
    code = main(["compare", HIGH_CARD, *QUICK, "--b-option", "target=15", "--out", str(tmp_path)])
    assert code == 2 and "is a file, not a folder" in capsys.readouterr().err


def test_an_earlier_runs_files_are_cleared_and_named(tmp_path, capsys):
    out = tmp_path / "sim"
    assert main(["simulate", HIGH_CARD, "-n", "4", "--seats", "random,random", "--jobs", "1", "--quiet",
                 "--out", str(out)]) == 0
    assert (out / "win_rate_by_seat.png").exists()
    (out / "my_notes.md").write_text("the designer's own file")
    capsys.readouterr()
    assert main(["simulate", HIGH_CARD, *QUICK, "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "held an earlier run's files; removed:" in err and "win_rate_by_seat.png" in err
    assert not list(out.glob("*.png"))  # no plot of the first run passes for the second's
    assert (out / "my_notes.md").read_text() == "the designer's own file"
    assert len((out / "results.jsonl").read_text().splitlines()) == 3
    assert json.loads((out / "run.json").read_text())["complete"] is True


def test_ctrl_c_keeps_the_games_finished_and_marks_the_run_partial(tmp_path, capsys, monkeypatch):
    play_one = simulate.play_one

    def interrupted_at_game_5(game, spec, index, coverage=None):
        if index == 5:
            raise KeyboardInterrupt
        return play_one(game, spec, index, coverage)

    monkeypatch.setattr(simulate, "play_one", interrupted_at_game_5)
    out = tmp_path / "sim"
    code = main(["simulate", HIGH_CARD, "-n", "40", "--seats", "random,random", "--jobs", "1", "--quiet",
                 "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 130
    assert "interrupted: 5 of 40 games finished" in captured.err
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert [r["game"] for r in records] == [0, 1, 2, 3, 4]
    about = json.loads((out / "run.json").read_text())
    assert (about["complete"], about["games_done"], about["games"], about["ended"]) == (False, 5, 40, "interrupted")
    report = json.loads((out / "report.json").read_text())
    assert report["complete"] is False and report["games"] == 5 and report["games_planned"] == 40
    assert "PARTIAL RUN: stopped after 5 of 40 games" in (out / "report.txt").read_text()
    assert "PARTIAL RUN" in captured.out


def _start(out: Path):
    return subprocess.Popen([sys.executable, "-m", "gamedsl", "simulate", HIGH_CARD, "-n", "200000",
                             "--seats", "random,random", "--jobs", "2", "--quiet", "--no-plots", "--out", str(out)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)))


def _wait_for_games(proc, out: Path, games: int) -> None:
    """Until results.jsonl holds `games` lines (the run is under way), or the process ended."""
    results = out / "results.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if results.exists() and results.read_text().count("\n") >= games:
            return
        time.sleep(0.05)
    proc.kill()
    raise AssertionError(f"the run did not get going: {proc.communicate()}")


def test_sigint_on_local_processes_keeps_a_consistent_partial_run(tmp_path):
    out = tmp_path / "sim"
    proc = _start(out)
    _wait_for_games(proc, out, 20)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted:" in err
    about = json.loads((out / "run.json").read_text())
    games = [json.loads(line)["game"] for line in (out / "results.jsonl").read_text().splitlines()]
    assert about["complete"] is False and about["games_done"] == len(games) >= 20
    assert games == sorted(set(games))
    assert json.loads((out / "report.json").read_text())["games"] == len(games)


def test_kill_9_leaves_every_finished_game_and_a_run_marked_partial(tmp_path):
    out = tmp_path / "sim"
    proc = _start(out)
    _wait_for_games(proc, out, 20)
    workers = _children(proc.pid)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=120)
    for worker in workers:  # the pool's workers lose their parent: end them too
        worker.kill()
    assert json.loads((out / "run.json").read_text())["complete"] is False
    lines = (out / "results.jsonl").read_text().splitlines()
    games = [json.loads(line)["game"] for line in lines]  # every line whole: written one by one
    assert len(games) >= 20 and len(set(games)) == len(games)
    assert not (out / "report.json").exists()


def _children(pid: int):
    try:
        import psutil
    except ImportError:  # then they end when they next find their parent gone
        return []
    return psutil.Process(pid).children(recursive=True)


DEEP_BOT = """\
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "choose":
        print("[" * 200000 + "0" + "]" * 200000, flush=True)  # valid JSON, nested past any reader
    elif msg["type"] == "end":
        break
"""


def test_a_bot_answering_deeply_nested_json_forfeits_its_game_only(tmp_path, capsys):
    # (with fallback=forfeit: by default a bad answer is replaced by a random move instead)
    bot = tmp_path / "deep.py"
    bot.write_text(DEEP_BOT)
    out = tmp_path / "sim"
    code = main(["simulate", HIGH_CARD, "-n", "3", "--seats", f"random,cmd:{sys.executable} {bot}:fallback=forfeit", "--jobs", "1",
                 "--quiet", "--no-plots", "--out", str(out)])
    assert code == 0, capsys.readouterr().err
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert [(r["seed"], r["forfeit"], r["winners"]) for r in records] == [(1, 1, [0]), (2, 1, [0]), (3, 1, [0])]
    assert all("nested too deeply" in r["error"] for r in records)
    assert json.loads((out / "report.json").read_text())["forfeits"] == 3


def test_a_bot_that_crashes_in_its_own_code_forfeits_its_game_only(monkeypatch):
    class Broken:
        def choose(self, state):
            raise ZeroDivisionError("a bug in the bot")

    make_bot = simulate.make_bot
    monkeypatch.setattr(simulate, "make_bot", lambda spec, game, seat, seed, key=None:
                        Broken() if (seat, seed) == (0, 2) else make_bot(spec, game, seat, seed, key))
    records = run(SimSpec(path=HIGH_CARD, seats=["random", "first"], games=3, seed=1), jobs=1).records
    assert [(r["forfeit"], r["winners"]) for r in records][1] == (0, [1])
    assert [r["forfeit"] for r in records] == [None, 0, None]
    assert "P1 forfeits: its bot failed: ZeroDivisionError: a bug in the bot" == records[1]["error"]


def test_a_bad_bot_parameter_is_refused_before_out_is_touched(tmp_path, capsys):
    out = tmp_path / "sim"
    assert main(["simulate", HIGH_CARD, "-n", "2", "--seats", "mcts:iters=x,random", "--quiet", "--out", str(out)]) == 2
    assert "iters must be" in capsys.readouterr().err
    assert not out.exists()
