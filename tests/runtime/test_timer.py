"""Timed choices: `choose by P within E seconds:` with `on timeout:` — the checker, the engine's
timeout move, logs and replay, scenarios, and the terminal client's clock (`--no-timer`)."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from gamedsl.cli import terminal as play
from gamedsl.cli.main import main
from gamedsl.errors import MoveError, RuleError
from gamedsl.pipeline import load
from gamedsl.logs import read_log, replay, write_log
from gamedsl.runtime.machine import TIMEOUT
from gamedsl.cli.terminal import play_game
from gamedsl.sim.report import build
from gamedsl.rulebook import rulebook_of
from gamedsl.scenario import run_file
from gamedsl.sim.simulate import SimSpec, run

from tests.support.fixtures import codes

ROOT = Path(__file__).resolve().parents[2]
QUICK_COUNT = str(ROOT / "examples" / "quick_count.game")
TICTACTOE = str(ROOT / "examples" / "tictactoe.game")

# The clock is `tenths` tenths of a second, so a test can run one out quickly.
TIMED = '''
game "Timed"
players 2
option tenths: 1..6000 = 600
player var points: number = 0
player var late: number = 0

turn:
  let before = current.points
  choose by current within tenths / 10 seconds:
    add(n in [1, 2]) "add {n}":
      current.points += n
    on timeout:
      current.late += 1
      say "too slow, " + text(before)
  if current.points >= 3:
    end game winner current

score of p: p.points
'''


@pytest.fixture
def timed(tmp_path):
    path = tmp_path / "timed.game"
    path.write_text(TIMED, encoding="utf-8")
    return load(str(path))


def dump(state) -> str:
    return json.dumps(state, sort_keys=True)


# ---------------------------------------------------------------- the language


def test_a_timed_choice_checks_and_its_timeout_block_is_checked_like_any_block():
    assert codes(TIMED) == []
    broken = TIMED.replace("current.late += 1", "current.lat += 1")
    assert "E102" in codes(broken)


def test_the_words_of_timers_stay_usable_as_names():
    text = TIMED.replace("player var late: number = 0",
                         "player var late: number = 0\nvar seconds: number = 0\nvar timeout: number = 0\n"
                         "var within: number = 0\nvar on: number = 0")
    text = text.replace("current.points += n", "current.points += n\n      seconds += within + timeout + on")
    assert codes(text) == []


def test_the_rulebook_tells_the_clock_and_what_happens_when_it_runs_out(timed):
    book = rulebook_of(timed.path)
    assert "chooses one within `tenths / 10` seconds" in book
    assert "*If time runs out:*" in book


# ---------------------------------------------------------------- the engine


def test_the_timer_is_set_when_the_choice_is_reached(timed):
    state = timed.new_game(2, 1)
    assert timed.timer(state) == 60 and timed.timer(state, 0) == 60
    assert timed.timer(state, 1) is None  # P2 has no choice to make now
    assert state["pending"]["timer"] == 60  # kept in the state: a saved game keeps its clock
    assert timed.timer(timed.new_game(2, 1, {"tenths": 5})) == 0.5


def test_the_timeout_move_is_never_legal_but_apply_takes_it(timed):
    state = timed.new_game(2, 1)
    move = timed.timeout_move(state)
    assert move == {"seat": 0, "alt": TIMEOUT, "args": []}
    assert move not in timed.legal_moves(state)
    assert timed.move_text(state, move) == "time ran out"
    after = timed.apply(state, move)
    assert after["pvars"]["late"] == [1, 0] and after["pvars"]["points"] == [0, 0]
    assert after["said"] == ["too slow, 0"]  # the block sees the turn's locals
    assert timed.waiting_for(after) == [1] and timed.timer(after) == 60
    assert json.loads(json.dumps(after)) == after
    # a state read back from JSON times out the same way
    again = timed.apply(json.loads(json.dumps(state)), move)
    assert dump(again) == dump(after)


def test_random_games_never_list_the_timeout_move(timed):
    rng = random.Random(3)
    for seed in range(5):
        state = timed.new_game(2, seed)
        while not timed.is_over(state):
            moves = timed.legal_moves(state)
            assert all(m["alt"] != TIMEOUT for m in moves)
            state = timed.apply(state, rng.choice(moves))
        assert state["pvars"]["late"] == [0, 0]


def _refused(game, state, move, kind, words):
    before = dump(state)
    with pytest.raises(MoveError) as err:
        game.apply(state, move)
    assert err.value.kind == kind and words in err.value.message
    assert dump(state) == before


def test_the_timeout_move_is_refused_without_a_clock(timed):
    game = load(TICTACTOE)
    state = game.new_game(2, 1)
    assert game.timer(state) is None
    _refused(game, state, game.timeout_move(state), "illegal", "P1's choice has no timer")
    state = timed.new_game(2, 1)
    _refused(timed, state, {"seat": 1, "alt": TIMEOUT, "args": []}, "not_your_turn", "cannot move now")
    _refused(timed, state, {"seat": 0, "alt": TIMEOUT, "args": [1]}, "malformed", "no arguments")
    for seat in (0, 1, 0):
        state = timed.apply(state, {"seat": seat, "alt": "add", "args": [2]})
    assert timed.is_over(state) and timed.timer(state) is None
    _refused(timed, state, timed.timeout_move(state), "game_over", "over")


@pytest.mark.parametrize("seconds", ["0", "-1"])
def test_a_timer_of_no_time_is_a_rule_error(seconds, tmp_path):
    text = TIMED.replace("option tenths: 1..6000 = 600", "var clock: number = " + seconds)
    text = text.replace("tenths / 10", "clock")
    path = tmp_path / "g.game"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RuleError) as err:
        load(str(path)).new_game(2, 1)
    assert err.value.code == "E504" and "a timer needs a number of seconds above 0" in str(err.value)


def test_a_log_with_timeouts_replays_to_the_identical_state(timed, tmp_path):
    state = timed.new_game(2, 4)
    moves = []
    for move in (timed.timeout_move(state), {"seat": 1, "alt": "add", "args": [2]}):
        moves.append((move, timed.move_text(state, move)))
        state = timed.apply(state, move)
    log = tmp_path / "game.jsonl"
    write_log(log, timed, 2, 4, state["options"], 5000, moves)
    assert [text for _, _, text in read_log(log).moves] == ["time ran out", "add 2"]
    assert dump(replay(log).state) == dump(state)


def test_bots_ignore_timers_and_coverage_does_not_count_the_timeout_as_dead():
    for seed in range(3):
        state = play_game(load(QUICK_COUNT), ["random", "mcts:iters=5", "greedy"], seed, {"turn_seconds": 1},
                          out=io.StringIO()).state
        assert state["pvars"]["late"] == [0, 0, 0] and state["vars"]["total"] == 21
    sim = run(SimSpec(path=QUICK_COUNT, seats=["random", "random"], games=4, seed=1), jobs=1)
    cov = build(sim, load(QUICK_COUNT))["coverage"]
    assert cov["rules"] == [] and cov["choices"] == []


# ---------------------------------------------------------------- scenarios


def test_scenarios_say_time_ran_out_and_read_the_clock(tmp_path):
    (tmp_path / "timed.game").write_text(TIMED, encoding="utf-8")
    path = tmp_path / "t.scenario"
    path.write_text('game "timed.game"\n\n'
                    'scenario "on time":\n  option tenths = 20\n  expect timer == 2\n'
                    '  move "Time ran out"\n  expect p1.late == 1 and said == ["too slow, 0"]\n\n'
                    'scenario "no clock when it is over":\n  given:\n    p1.points = 2\n  move "add 1"\n'
                    '  expect timer == none\n  refuse "time ran out" because "over"\n\n'
                    'scenario "a refusal that is not one":\n  refuse "time ran out"\n', encoding="utf-8")
    results = run_file(str(path))
    assert [r.passed for r in results] == [True, True, False]
    assert "should have been refused" in results[2].reason
    game = os.path.relpath(TICTACTOE, tmp_path)
    (tmp_path / "plain.scenario").write_text(f'game "{game}"\n\nscenario "no clock":\n'
                                              '  move "time ran out"\n', encoding="utf-8")
    result, = run_file(str(tmp_path / "plain.scenario"))
    assert not result.passed and "P1's choice has no timer" in result.reason


# ---------------------------------------------------------------- the terminal client


class _Feeder(io.StringIO):
    """The terminal's output; once the clock has run out, the person types `typed` (into a pipe)."""

    def __init__(self, fd: int, typed: bytes):
        super().__init__()
        self.fd, self.typed = fd, typed

    def write(self, text):
        if "time is up" in text and self.typed:
            os.write(self.fd, self.typed)
            self.typed = b""
        return super().write(text)


def test_a_person_who_lets_the_clock_run_out_times_out(timed, tmp_path, monkeypatch):
    monkeypatch.setattr(play, "WARN_AT", 0.5)
    read, write = os.pipe()
    out = _Feeder(write, b"add 2\nadd 2\n")
    log = tmp_path / "game.jsonl"
    with os.fdopen(read, encoding="utf-8") as inp:
        outcome = play_game(timed, ["human", "first"], 1, {"tenths": 10}, out=out, inp=inp, log_path=log)
    os.close(write)
    text = out.getvalue()
    assert "You have 1 second to choose." in text and "P1 (1 second left)> " in text
    assert "0.5 seconds left!" in text          # the warning near the end
    assert "P1: time ran out" in text and "» too slow, 0" in text
    assert "P1: add 2" in text                   # the next prompt reads what was typed
    assert not outcome.abandoned and outcome.state["pvars"]["late"] == [1, 0]
    assert timed.results(outcome.state)["winners"] == [0]
    assert dump(replay(log).state) == dump(outcome.state)


def test_without_timers_a_person_has_all_the_time_they_want(timed):
    read, write = os.pipe()
    out = io.StringIO()
    # typed only well after the 0.1 second clock would have run out
    typist = threading.Timer(0.5, os.write, (write, b"add 2\nadd 2\n"))
    typist.start()
    with os.fdopen(read, encoding="utf-8") as inp:
        outcome = play_game(timed, ["human", "first"], 1, {"tenths": 1}, out=out, inp=inp, timers=False)
    typist.join()
    os.close(write)
    text = out.getvalue()
    assert "time ran out" not in text and "left)>" not in text and "You have" not in text
    assert outcome.state["pvars"]["late"] == [0, 0] and timed.results(outcome.state)["winners"] == [0]


def test_the_no_timer_flag(timed, tmp_path, capsys, monkeypatch):
    path = tmp_path / "timed.game"
    path.write_text(TIMED, encoding="utf-8")
    for flags, shown in (([], True), (["--no-timer"], False)):
        monkeypatch.setattr(sys, "stdin", io.StringIO("add 2\nadd 2\n"))
        code = main(["play", str(path), "--seats", "human,first", "--seed", "1", *flags])
        out = capsys.readouterr().out
        assert code == 0 and "winners: P1" in out
        assert ("P1 (60 seconds left)> " in out) == shown and ("You have 60 seconds" in out) == shown


def test_gamedsl_play_times_out_on_piped_stdin():
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "gamedsl", "play", QUICK_COUNT, "--seats", "human,first",
                             "--option", "turn_seconds=1", "--seed", "1"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    seen = []
    watchdog = threading.Timer(60, proc.kill)  # a client that never times out fails, not hangs
    watchdog.start()
    try:
        for line in proc.stdout:
            seen.append(line)
            if line.startswith("P1: time ran out"):
                proc.stdin.write("quit\n")
                proc.stdin.flush()
        proc.wait(timeout=60)
    finally:
        watchdog.cancel()
        proc.kill()
    text = "".join(seen)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr.read()
    assert "» time ran out: the count stays at 0" in text
    assert "P2 (first): add 1" in text and "P1 quit" in text
