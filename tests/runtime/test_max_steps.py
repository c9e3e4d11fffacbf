"""Runaway rules stop within the step budget with a diagnostic naming the rule's line, under
the default budget and a tiny one given with --max-steps (play, simulate and test), and a
bad --max-steps is one line and exit 2."""

from __future__ import annotations

import re

import pytest

from gamedsl.pipeline import load
from gamedsl.errors import RuleError
from gamedsl.language import DEFAULT_MAX_STEPS
from tests.support.fixtures import assert_one_error_line, run

# Each runaway is the move "go"; WHERE is what the line the diagnostic names must hold.
RUNAWAYS = {
    "while": ("E501", """
      while true:
        n += 1"""),
    "repeat": ("E501", """
      repeat:
        n = n + 1 - 1"""),
    "procedure": ("E502", """
      again(1)"""),
    "def": ("E502", """
      n = forever(1)"""),
}
WHERE = {"while": "while true", "repeat": "repeat:", "procedure": "  again(k + 1)", "def": "def forever"}
PROCEDURE = """
procedure again(k: number):
  again(k + 1)
def forever(k: number) = forever(k + 1)
"""


def game_text(body: str) -> str:
    return ('game "Runaway"\nplayers 2\nvar n: number = 0\n' + PROCEDURE +
            'turn:\n  choose by current:\n    go "go":' + body + '\n    stop "stop":\n      end game\n'
            "score of p: 0\n")


def marked_lines(text: str, kind: str) -> set:
    return {n for n, line in enumerate(text.splitlines(), 1) if WHERE[kind] in line}


@pytest.fixture(params=sorted(RUNAWAYS))
def runaway(request, tmp_path):
    code, body = RUNAWAYS[request.param]
    text = game_text(body)
    path = tmp_path / "runaway.game"
    path.write_text(text, "utf-8")
    (tmp_path / "runaway.scenario").write_text('game "runaway.game"\n\nscenario "go":\n  players 2\n'
                                               '  move "go"\n', "utf-8")
    return path, code, marked_lines(text, request.param), request.param


def expected(code: str, kind: str, budget) -> str:
    """A procedure calling itself spends the tiny budget before it is 100 deep."""
    return "E501" if kind == "procedure" and budget else code


@pytest.mark.parametrize("budget", [None, 7])
def test_the_engine_stops_a_runaway_at_its_line(runaway, budget):
    path, code, lines, kind = runaway
    code = expected(code, kind, budget)
    game = load(str(path), max_steps=budget)
    state = game.new_game(2, 0)
    go = next(m for m in game.legal_moves(state) if m["alt"] == "go")
    with pytest.raises(RuleError) as err:
        game.apply(state, go)
    assert err.value.code == code and err.value.span.line in lines
    if code == "E501":
        assert f"{budget or DEFAULT_MAX_STEPS} steps" in err.value.message


@pytest.mark.parametrize("budget", [None, 7])
def test_play_stops_a_runaway_at_its_line(runaway, budget, capsys, monkeypatch):
    path, code, lines, kind = runaway
    code = expected(code, kind, budget)
    extra = ["--max-steps", str(budget)] if budget else []
    status, out, err = run(capsys, monkeypatch, ["play", str(path), "--seats", "human,random", "--seed", "1",
                                                 *extra], stdin="go\n")
    assert status == 1
    found = re.search(rf"runaway\.game:(\d+):\d+: error\[{code}\]", err)
    assert found and int(found.group(1)) in lines, err
    if code == "E501":
        assert f"ran {budget or DEFAULT_MAX_STEPS} steps" in err


@pytest.mark.parametrize("budget", [None, 7])
def test_test_and_simulate_name_the_runaway(runaway, budget, capsys, monkeypatch, tmp_path):
    path, code, lines, kind = runaway
    code = expected(code, kind, budget)
    extra = ["--max-steps", str(budget)] if budget else []
    status, out, err = run(capsys, monkeypatch, ["test", str(path.with_suffix(".scenario")), *extra])
    assert status == 1 and "0 passed, 1 failed" in out
    found = re.search(rf"runaway\.game:(\d+):\d+: error\[{code}\]", out)
    assert found and int(found.group(1)) in lines, out
    status, out, err = run(capsys, monkeypatch, ["simulate", str(path), "--seats", "first,first", "-n", "2",
                                                 "-j", "1", "-q", "--no-plots", "--out", str(tmp_path / "sim"),
                                                 *extra])
    assert status == 1  # the games that hit the runaway are counted as errors
    found = re.search(rf"runaway\.game:(\d+):\d+: error\[{code}\]", out)
    assert found and int(found.group(1)) in lines, out


def test_a_budget_large_enough_lets_a_long_loop_finish(tmp_path):
    path = tmp_path / "long.game"
    path.write_text(game_text("""
      repeat 500 times:
        n += 1"""), "utf-8")
    for budget in (2000, 100):
        game = load(str(path), max_steps=budget)
        state = game.new_game(2, 0)
        go = next(m for m in game.legal_moves(state) if m["alt"] == "go")
        if budget > 500:
            assert game.apply(state, go)["vars"]["n"] == 500
        else:
            with pytest.raises(RuleError, match="ran 100 steps"):
                game.apply(state, go)


@pytest.mark.parametrize("command", ["play", "test", "simulate"])
@pytest.mark.parametrize("value", ["0", "-5", "many", "1.5"])
def test_a_bad_budget_is_one_line_and_exit_2(command, value, capsys, monkeypatch, tmp_path):
    game = str(tmp_path / "g.game")
    (tmp_path / "g.game").write_text(game_text("\n      pass"), "utf-8")
    argv = {"play": ["play", game, "--seats", "random,random"],
            "test": ["test", str(tmp_path)],
            "simulate": ["simulate", game, "--seats", "random,random", "-q", "--out", str(tmp_path / "s")]}[command]
    status, out, err = run(capsys, monkeypatch, argv + ["--max-steps", value])
    assert status == 2
    assert_one_error_line(err)
    assert "--max-steps" in err
