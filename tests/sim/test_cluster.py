"""simulate and compare on a Dask cluster: the same results as local processes, whatever the
workers do; a worker killed mid-run costs no game and counts none twice; Ctrl-C cancels.

One LocalCluster of 2 worker processes on the loopback serves the module, by its address,
as a real scheduler would (`--cluster tcp://...`)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import distributed
import pytest

from gamedsl.cli.main import main
from gamedsl.sim import cluster as dask_cluster
from gamedsl.sim.simulate import SimSpec, run

ROOT = Path(__file__).resolve().parents[2]
HIGH_CARD = str(ROOT / "examples" / "high_card.game")
SPLIT = Path(__file__).resolve().parent / "games" / "split"
TIMING = ("seconds", "games_per_second")


@pytest.fixture(scope="module")
def address():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None, silence_logs=40) as cluster:
        yield cluster.scheduler_address


def _outputs(out: Path):
    report = json.loads((out / "report.json").read_text())
    for key in TIMING:
        report.pop(key)
    return (out / "results.jsonl").read_text(), report, json.loads((out / "run.json").read_text())


def test_cluster_report_is_the_same_as_one_local_process(address, tmp_path, capsys):
    args = ["simulate", HIGH_CARD, "-n", "16", "--seats", "mcts:iters=8,random,greedy", "--rotate", "--seed", "5",
            "--quiet", "--no-plots"]
    assert main(args + ["--jobs", "1", "--out", str(tmp_path / "local")]) == 0
    assert main(args + ["--cluster", address, "--out", str(tmp_path / "cluster")]) == 0
    local, cluster = _outputs(tmp_path / "local"), _outputs(tmp_path / "cluster")
    assert local[0] == cluster[0] and local[1] == cluster[1]
    assert [json.loads(line)["seed"] for line in cluster[0].splitlines()] == list(range(5, 21))
    assert cluster[2]["complete"] is True and cluster[2]["where"] == address
    capsys.readouterr()


def test_cluster_ships_extends_and_tables_and_names_the_designers_files(address, monkeypatch):
    """The workers load a copy of the game's files; a rule error still names the file as typed."""
    monkeypatch.chdir(SPLIT)
    spec = SimSpec(path="draft2.game", seats=["random", "random"], games=16, seed=1)
    local, remote = run(spec, jobs=1), run(spec, cluster=address)
    assert remote.records == local.records and remote.coverage == local.coverage
    errors = [r["error"] for r in remote.records if r["error"]]
    assert errors and all(e.startswith("base.game:") and "division by zero" in e for e in errors)
    bundle = dask_cluster.bundle_of("draft2.game")
    assert [name for name, _ in bundle.files] == ["base.game", "data/ranks.csv", "draft2.game"]


def test_compare_on_a_cluster_is_the_same_as_local(address, tmp_path, capsys):
    args = ["compare", str(ROOT / "examples" / "pearl_auction.game"), str(ROOT / "examples" / "pearl_auction_variant.game"),
            "-n", "12", "--seats", "random,random,random", "--rotate", "--quiet", "--no-plots"]
    assert main(args + ["--jobs", "1", "--out", str(tmp_path / "local")]) == 0
    assert main(args + ["--cluster", address, "--out", str(tmp_path / "cluster")]) == 0
    for side in ("a", "b"):
        assert _outputs(tmp_path / "local" / side)[:2] == _outputs(tmp_path / "cluster" / side)[:2]
    a, b = (json.loads((tmp_path / where / "compare.json").read_text()) for where in ("local", "cluster"))
    assert a == b
    capsys.readouterr()


KILLER_BOT = """\
import json, os, signal, sys
# Plays the first legal move. Each game's bot takes the next number (a file made with O_EXCL,
# so each number is taken once); the one that takes number {at}, the first time (the marker
# file is removed by exactly one process), kills the worker process that started it.
def number():
    for i in range(10_000):
        try:
            os.close(os.open(os.path.join({folder!r}, f"game-{{i}}"), os.O_CREAT | os.O_EXCL))
            return i
        except FileExistsError:
            continue
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start" and number() == {at}:
        try:
            os.remove({marker!r})
        except FileNotFoundError:
            pass
        else:
            os.kill(os.getppid(), signal.SIGKILL)
    elif msg["type"] == "choose":
        print(json.dumps({{"move": 0}}), flush=True)
    elif msg["type"] == "end":
        break
"""


def test_a_worker_killed_mid_run_loses_no_game_and_counts_none_twice(address, tmp_path):
    marker = tmp_path / "kill-once"
    bot = tmp_path / "killer.py"
    numbers = tmp_path / "numbers"
    numbers.mkdir()
    bot.write_text(KILLER_BOT.format(at=6, folder=str(numbers), marker=str(marker)))
    seats = [f"cmd:{sys.executable} {bot}", "random"]
    spec = SimSpec(path=HIGH_CARD, seats=seats, games=10, seed=1)
    local = run(spec, jobs=1)  # no marker yet: the bot plays every game
    for taken in numbers.iterdir():
        taken.unlink()
    marker.write_text("")
    remote = run(spec, cluster=address)
    assert not marker.exists()  # a worker was killed, at the seventh game started, after others had finished
    assert remote.complete
    assert [r["game"] for r in remote.records] == list(range(10))
    assert remote.records == local.records and remote.coverage == local.coverage
    assert not any(r.get("bot_problems") for r in remote.records)


def test_ctrl_c_cancels_the_cluster_tasks_and_keeps_the_games_finished(address):
    spec = SimSpec(path=HIGH_CARD, seats=["random", "greedy"], games=160, seed=3)
    seen = []

    def on_record(record):
        seen.append(record)
        if len(seen) == 3:
            raise KeyboardInterrupt

    stopped = run(spec, cluster=address, on_record=on_record)
    assert not stopped.complete and 3 <= len(stopped.records) < 160
    assert {r["game"] for r in seen} <= {r["game"] for r in stopped.records}  # whole chunks are kept
    local = run(spec, jobs=1)
    assert all(r == local.records[r["game"]] for r in stopped.records)
    with distributed.Client(address) as client:  # the scheduler lets the cancelled tasks go
        deadline = time.monotonic() + 60
        while _gamedsl_tasks(client) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _gamedsl_tasks(client) == []


def _gamedsl_tasks(client):
    return client.run_on_scheduler(lambda dask_scheduler: [str(k) for k in dask_scheduler.tasks
                                                           if str(k).startswith("gamedsl-")])


def test_cluster_usage_errors(tmp_path, capsys, monkeypatch):
    base = ["simulate", HIGH_CARD, "-n", "2", "--seats", "random,random", "--quiet", "--out", str(tmp_path)]
    assert main(base + ["--cluster", "local:0"]) == 2
    assert "at least 1 worker" in capsys.readouterr().err
    assert main(base + ["--cluster", "my laptop"]) == 2
    assert "not a scheduler's address" in capsys.readouterr().err
    assert main(base + ["--cluster", "local:2", "--jobs", "2"]) == 2
    assert "--jobs and --cluster" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if Dask were not installed
    assert main(base + ["--cluster", "local:2"]) == 2
    assert "pip install 'gamedsl[cluster]'" in capsys.readouterr().err
    assert not os.listdir(tmp_path)  # refused before anything was written


def test_chunk_sizes_follow_the_time_per_game():
    size = dask_cluster.chunk_size
    assert size(None, 1000, 2) == 1  # nothing measured yet
    assert size(0.001, 100000, 2) == int(dask_cluster.CHUNK_SECONDS / 0.001)
    assert size(5.0, 1000, 2) == 1  # a slow game is a chunk of its own
    assert size(0.001, 30, 2) == 8  # near the end, an even share for each chunk in flight (2 a thread)
    assert size(0.0, 10 ** 9, 1) == dask_cluster.MAX_CHUNK
    assert size(0.001, 10 ** 9, 1000) == 5000  # 1,000 threads: 5 s chunks, 200 tasks a second
    assert size(0.01, 10 ** 9, 1000) == 500


def test_ctrl_c_at_the_terminal_stops_a_local_cluster_run_cleanly(tmp_path):
    """Ctrl-C reaches the whole process group, the cluster's workers too: the command alone
    handles it — exit 130, a consistent partial run, no worker's traceback."""
    out = tmp_path / "sim"
    proc = subprocess.Popen([sys.executable, "-m", "gamedsl", "simulate", HIGH_CARD, "-n", "1000000", "--seats",
                             "random,random", "--cluster", "local:2", "--quiet", "--no-plots", "--out", str(out)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    results, deadline = out / "results.jsonl", time.monotonic() + 180
    while proc.poll() is None and time.monotonic() < deadline:
        if results.exists() and results.read_text().count("\n") >= 20:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=180)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted:" in err
    about = json.loads((out / "run.json").read_text())
    games = [json.loads(line)["game"] for line in results.read_text().splitlines()]
    assert about["complete"] is False and about["games_done"] == len(games) >= 20
    assert games == sorted(set(games))


def _started_python(pid: int) -> bool:
    """Whether `pid` has started a Python process (a local cluster's worker): Linux's /proc."""
    kids = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                kids += f.read().split()
        return any("python" in Path(f"/proc/{kid}/cmdline").read_text() for kid in kids)
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="sees the workers start through /proc")
def test_ctrl_c_while_the_local_workers_start_stops_the_command(tmp_path):
    """Ctrl-C pressed while a local cluster's workers are starting (they are started ignoring
    it): once they have started, the command stops as it does once games run — exit 130, a
    partial run of no games, no traceback — and leaves no process behind."""
    out = tmp_path / "sim"
    proc = subprocess.Popen([sys.executable, "-m", "gamedsl", "simulate", HIGH_CARD, "-n", "1000000", "--seats",
                             "random,random", "--cluster", "local:2", "--quiet", "--no-plots", "--out", str(out)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    deadline = time.monotonic() + 120
    while proc.poll() is None and not _started_python(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.005)
    os.killpg(proc.pid, signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail("the command went on after a Ctrl-C pressed while its workers started")
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted:" in err
    assert json.loads((out / "run.json").read_text())["complete"] is False
    with pytest.raises(ProcessLookupError):  # (the group is empty: no worker, no watcher left)
        for _ in range(100):
            os.killpg(proc.pid, 0)
            time.sleep(0.05)


def test_a_run_whose_every_worker_died_ships_the_game_again(tmp_path):
    """With one worker, its death loses the game's files the cluster held: they are shipped
    again and every game is played once."""
    marker = tmp_path / "kill-once"
    bot = tmp_path / "killer.py"
    numbers = tmp_path / "numbers"
    numbers.mkdir()
    bot.write_text(KILLER_BOT.format(at=3, folder=str(numbers), marker=str(marker)))
    spec = SimSpec(path=HIGH_CARD, seats=[f"cmd:{sys.executable} {bot}", "random"], games=8, seed=2)
    local = run(spec, jobs=1)
    for taken in numbers.iterdir():
        taken.unlink()
    marker.write_text("")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=":0", silence_logs=40) as cluster:
        remote = run(spec, cluster=cluster.scheduler_address)
    assert not marker.exists()  # the only worker was killed
    assert remote.complete
    assert remote.records == local.records and remote.coverage == local.coverage
