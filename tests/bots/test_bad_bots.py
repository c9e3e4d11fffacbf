"""External bots and seat specs that misbehave: each gets a clear error or a recorded fault,
never an "internal error", a hang, all the host's memory, or a process left behind."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from gamedsl.bots.external import MAX_ANSWER
from gamedsl.bots.registry import make_bot
from gamedsl.pipeline import load
from tests.support.fixtures import run

ROOT = Path(__file__).resolve().parents[2]
BOTS = Path(__file__).resolve().parent / "programs"
HIGH_CARD = str(ROOT / "examples" / "high_card.game")
PEARLS = str(ROOT / "examples" / "pearl_auction.game")


def cmd(script: Path, *opts: str) -> str:
    return ":".join([f"cmd:{sys.executable} {script}", *opts])


def play_with(game, specs, seed=3):
    bots = [make_bot(s, game, i, seed) for i, s in enumerate(specs)]
    state = game.new_game(len(specs), seed)
    try:
        while not game.is_over(state):
            seat = game.waiting_for(state)[0]
            move = bots[seat].choose(state)
            assert move in game.legal_moves(state, seat)
            state = game.apply(state, move)
    finally:
        for b in bots:
            if hasattr(b, "close"):
                b.close()
    return state, bots


# ---------------------------------------------------------------- numbers in seat specs


@pytest.mark.parametrize("seats, said", [
    ("mcts:c=nan:iters=5,random", "bot 'mcts': c must be a number from 0 to 100, not 'nan'"),
    ("mcts:c=inf,random", "bot 'mcts': c must be a number from 0 to 100, not 'inf'"),
    ("greedy:samples=999999999999,random", "bot 'greedy': samples must be a whole number from 0 to 1,000, "
                                           "not '999999999999'"),
    ("mcts:iters=" + "9" * 5000 + ",random", "bot 'mcts': iters must be a whole number from 0 to 1,000,000, not '999"),
    ("mcts:worlds=99999999,random", "worlds must be a whole number from 0 to 10,000"),
    ("mcts:ms=-1,random", "ms must be a number from 0 to 3,600,000, not '-1'"),
    ("greedy:seed=1e9,random", "seed must be a whole number from 0 to"),
])
def test_every_number_in_a_seat_spec_is_range_checked(seats, said, capsys, monkeypatch):
    for seed in ("1", "2", "3"):   # (c=nan crashed on most seeds, not all)
        code, out, err = run(capsys, monkeypatch, ["play", PEARLS, "--seats", seats + ",random", "--seed", seed])
        assert code == 2
        assert err.startswith("gamedsl: error: bot ") and said in err
        assert "internal error" not in err and len(err.splitlines()) == 1 and len(err) < 300


@pytest.mark.parametrize("opt", ["timeout=nan", "timeout=-1", "timeout=inf", "timeout=0", "timeout=1e9",
                                 "timeout=soon"])
def test_a_bot_timeout_out_of_range_is_a_clear_error(opt, capsys, monkeypatch):
    value = opt.partition("=")[2]
    code, _, err = run(capsys, monkeypatch, ["play", HIGH_CARD, "--seats", cmd(BOTS / "stall.py", opt) + ",random"])
    assert code == 2
    assert err == (f"gamedsl: error: cmd: timeout is a number of seconds above 0 and at most 86400, "
                   f"not '{value}'\n")


# ---------------------------------------------------------------- answers a host must not swallow


def test_an_endless_answer_line_is_cut_off_and_the_bot_stopped():
    game = load(HIGH_CARD)
    started = time.perf_counter()
    state, bots = play_with(game, [cmd(BOTS / "endless_line.py"), "random"])
    assert game.results(state)["finished"]
    assert bots[0].problems == [f"an answer longer than {MAX_ANSWER} bytes"]   # then not asked again
    assert time.perf_counter() - started < 30


def test_an_answer_nested_too_deeply_is_a_bad_answer_from_that_bot():
    game = load(HIGH_CARD)
    state, bots = play_with(game, [cmd(BOTS / "deep_json.py"), "random"])
    assert game.results(state)["finished"]
    assert bots[0].problems and all(p.startswith("JSON nested too deeply: ") for p in bots[0].problems)


def test_play_reports_a_bots_fault_and_plays_on(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, ["play", HIGH_CARD, "--seats", cmd(BOTS / "deep_json.py") + ",random",
                                               "--seed", "2"])
    assert code == 0 and "internal error" not in err and "recurse" not in out + err
    assert "bad bot: JSON nested too deeply" in " ".join(out.split())
    assert "it plays a random legal move this time" in " ".join(out.split())
    assert "High card: finished" in out


def test_a_bot_that_forfeits_is_reported_by_play(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, ["play", HIGH_CARD, "--seats",
                                               cmd(BOTS / "deep_json.py", "fallback=forfeit") + ",random"])
    assert code == 1
    assert err.startswith("gamedsl: error: P1 forfeits: JSON nested too deeply: ")


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"   # a zombie is dead, awaiting its reaper
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not hasattr(os, "fork") or not os.path.isdir("/proc"), reason="needs fork and /proc")
def test_what_a_bot_forks_does_not_outlive_the_game(tmp_path):
    game = load(HIGH_CARD)
    pid_file = tmp_path / "child.pid"
    state, _ = play_with(game, [cmd(BOTS / "forker.py") + f" {pid_file}", "random"])
    assert game.results(state)["finished"]
    child = int(pid_file.read_text())
    for _ in range(50):
        if not _alive(child):
            break
        time.sleep(0.1)
    assert not _alive(child)


def test_a_bad_key_is_a_clear_error(capsys, monkeypatch):
    code, _, err = run(capsys, monkeypatch, ["play", HIGH_CARD, "--seats", "random,random", "--key", "abc"])
    assert code == 2 and err == "gamedsl: error: --key: a key is 32 hex digits (128 bits), not 'abc'\n"


def test_simulate_refuses_a_bad_seat_spec_with_the_same_clear_error(tmp_path, capsys, monkeypatch):
    for jobs in ("1", "2"):
        code, _, err = run(capsys, monkeypatch, ["simulate", PEARLS, "-n", "2", "--seats", "mcts:c=nan:iters=5,random",
                                                 "--jobs", jobs, "--quiet", "--no-plots", "--out", str(tmp_path)])
        assert code == 2
        assert err == "gamedsl: error: bot 'mcts': c must be a number from 0 to 100, not 'nan'\n"
