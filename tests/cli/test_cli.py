"""The `gamedsl` command: exit codes, output, the terminal client, game logs and replay."""

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.fixtures import run
from gamedsl.pipeline import load
from gamedsl.logs import read_log, replay, write_log
from gamedsl.cli.terminal import play_game

ROOT = Path(__file__).resolve().parents[2]
TICTACTOE = str(ROOT / "examples" / "tictactoe.game")

COUNTER = '''
game "Counter"
players 2..3
option target: 1..20 = 5
option mode: fast | slow = fast
player var total: number = 0

turn:
  choose by current:
    add(n in [1, 2]) "add {n}":
      current.total += n
    hold "hold":
      pass
  if current.total >= target:
    say "P" + text(seat(current)) + " reaches the target"
    end game winner current

score of p: p.total
'''

SECRET = '''
game "Secret"
players 2
player var pick: number = 0, secret

turn:
  choose secretly by each p in players:
    pick(n in [1, 2, 3]) "pick {n}":
      p.pick = n
  say "picks revealed"
  end game

score of p: p.pick
'''

BROKEN = '''
game "Broken"
players 2
player zone hand of card: owner

turn:
  choose by current:
    go "go":
      move first(hnad) to hand
'''

BOOM = '''
game "Boom"
players 2
kind card:
  copies 2
zone deck of card: hidden

turn:
  choose by current:
    go "go":
      let c = first(deck)
      move c to deck
'''


def write(tmp_path, text, name="g.game"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def dump(state):
    return json.dumps(state, sort_keys=True)


# ---------------------------------------------------------------- check


def test_check_clean_file_exits_0(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, ["check", TICTACTOE])
    assert code == 0
    assert "ok: 1 file" in out + err


def test_check_broken_file_exits_1_with_compiler_style_diagnostics(tmp_path, capsys, monkeypatch):
    path = write(tmp_path, BROKEN)
    code, out, err = run(capsys, monkeypatch, ["check", path])
    assert code == 1
    text = out + err
    assert re.search(re.escape(path) + r":\d+:\d+: error\[E\d+\]", text)
    assert "^" in text  # the caret under the source line


def test_check_warnings_only_exits_0_and_shows_them(tmp_path, capsys, monkeypatch):
    path = write(tmp_path, COUNTER + "var spare: number = 0\n")
    code, out, err = run(capsys, monkeypatch, ["check", path])
    assert code == 0
    assert "warning[W" in out and "spare" in out and "ok: 1 file (1 warning)" in out
    code, out, err = run(capsys, monkeypatch, ["play", path, "--seats", "first,first", "--seed", "1"])
    assert code == 0 and "1 warning" in err


def test_check_several_files_and_a_directory(tmp_path, capsys, monkeypatch):
    write(tmp_path, COUNTER, "a.game")
    write(tmp_path, SECRET, "b.game")
    code, out, err = run(capsys, monkeypatch, ["check", str(tmp_path), TICTACTOE])
    assert code == 0
    assert "ok: 3 files" in out + err


def test_check_json_is_pure_json_with_positions(tmp_path, capsys, monkeypatch):
    path = write(tmp_path, BROKEN)
    code, out, _ = run(capsys, monkeypatch, ["check", "--format", "json", path])
    assert code == 1
    diags = json.loads(out)
    assert diags and all({"code", "line", "col", "message", "severity"} <= set(d) for d in diags)
    assert any(d["severity"] == "error" for d in diags)
    code, out, _ = run(capsys, monkeypatch, ["check", "--format", "json", TICTACTOE])
    assert code == 0 and json.loads(out) == []


def test_check_missing_file_is_a_diagnostic(tmp_path, capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, ["check", str(tmp_path / "nope.game")])
    assert code == 1
    assert "nope.game" in out + err


@pytest.mark.parametrize("argv", [
    [], ["check"], ["frobnicate"], ["play", TICTACTOE], ["check", "--format", "xml", TICTACTOE],
    ["play", TICTACTOE, "--seats", "random,random", "--seed", "abc"],
    ["play", TICTACTOE, "--seats", "random,random", "--max-turns", "0"],
    ["play", TICTACTOE, "--seats", "random,random", "--log", "/nonexistent/dir/game.jsonl"],
])
def test_usage_errors_exit_2(argv, capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, argv)
    assert code == 2
    assert err.strip()


def test_version(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, ["--version"])
    assert code == 0 and "gamedsl" in out


# ---------------------------------------------------------------- play, headless


def test_play_headless_prints_the_result(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, ["play", TICTACTOE, "--seats", "random,random", "--seed", "1"])
    assert code == 0
    assert "Tic-tac-toe" in out and "turns" in out
    assert re.search(r"1\. P[12]", out)


def test_play_same_seed_same_output_different_seeds_may_differ(tmp_path, capsys, monkeypatch):
    path = write(tmp_path, COUNTER)

    def play(seed):
        code, out, _ = run(capsys, monkeypatch,
                           ["play", path, "--seats", "random,random,random", "--seed", str(seed), "-v"])
        assert code == 0
        return out

    assert play(7) == play(7)
    outputs = {play(seed) for seed in range(1, 6)}
    assert len(outputs) > 1


def test_play_options_change_the_game(tmp_path, capsys, monkeypatch):
    path = write(tmp_path, COUNTER)
    code, out, _ = run(capsys, monkeypatch, ["play", path, "--seats", "first,first", "--seed", "1",
                                            "--option", "target=3", "--option", "mode=slow"])
    assert code == 0
    assert "score 3" in out


def test_max_turns_stops_an_endless_game(tmp_path, capsys, monkeypatch):
    endless = COUNTER.replace("    hold \"hold\":\n      pass\n", "").replace(
        "  choose by current:\n", "  choose by current:\n    hold \"hold\":\n      pass\n")
    assert endless.index("hold") < endless.index("add(")
    path = write(tmp_path, endless)
    code, out, _ = run(capsys, monkeypatch, ["play", path, "--seats", "first,first", "--max-turns", "6"])
    assert code == 0
    assert "unfinished" in out


@pytest.mark.parametrize("extra, words", [
    (["--option", "target=99"], ["target", "1..20"]),
    (["--option", "mode=warp"], ["mode", "fast", "slow"]),
    (["--option", "colour=red"], ["colour", "target"]),
    (["--option", "target"], ["NAME=VALUE"]),
])
def test_bad_option_exits_2_with_allowed_values(extra, words, tmp_path, capsys, monkeypatch):
    path = write(tmp_path, COUNTER)
    code, out, err = run(capsys, monkeypatch, ["play", path, "--seats", "random,random"] + extra)
    assert code == 2
    assert err.startswith("gamedsl: error:") and len(err.strip().splitlines()) == 1
    for w in words:
        assert w in err


@pytest.mark.parametrize("seats, word", [
    ("random", "2 to 3"), ("random,random,random,random", "2 to 3"),
    ("random,robot", "robot"), ("random,,random", "seats"), ("", "seats"),
])
def test_bad_seats_exit_2(seats, word, tmp_path, capsys, monkeypatch):
    path = write(tmp_path, COUNTER)
    code, out, err = run(capsys, monkeypatch, ["play", path, "--seats", seats])
    assert code == 2
    assert "gamedsl: error:" in err and word in err


def test_play_a_broken_game_exits_1(tmp_path, capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, ["play", write(tmp_path, BROKEN), "--seats", "random,random"])
    assert code == 1
    assert "error[" in err


def test_a_rule_failing_during_play_is_rendered_and_exits_1(tmp_path, capsys, monkeypatch):
    path = write(tmp_path, BOOM)
    code, out, err = run(capsys, monkeypatch, ["play", path, "--seats", "random,random", "--seed", "1"])
    assert code == 1
    assert "error[E" in err and "first(deck)" in err


# ---------------------------------------------------------------- play, humans


def test_human_seat_driven_by_stdin(capsys, monkeypatch):
    # P1 (human) against `first` (always the first free cell, row by row):
    # P1 1,1 (by number); P2 0,0; P1 0,2 (typed); P2 1,0; P1 2,0 wins on the diagonal.
    stdin = "5\nnonsense\n42\n\nplace 0,2\nPLACE 2,0\n"
    code, out, err = run(capsys, monkeypatch, ["play", TICTACTOE, "--seats", "human,first", "--seed", "1"],
                         stdin)
    assert code == 0
    assert "1. place 0,0" in out              # numbered legal moves
    assert "'nonsense' is not a legal move" in out
    assert "there is no move 42" in out
    assert "P2 (first): place 0,0" in out
    assert "winners: P1" in out
    assert "│ X │" in out and "│ O │" in out    # the board as a grid of cells


def test_human_quit_and_end_of_input_abandon_cleanly(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, ["play", TICTACTOE, "--seats", "human,random"], "quit\n")
    assert code == 0 and "abandoned" in out
    code, out, _ = run(capsys, monkeypatch, ["play", TICTACTOE, "--seats", "human,random"], "1\n")
    assert code == 0 and "abandoned" in out


def test_two_humans_get_a_banner_each(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, ["play", TICTACTOE, "--seats", "human,human"], "1\n1\nquit\n")
    assert code == 0
    assert "P1's turn" in out and "P2's turn" in out


def test_secret_choices_stay_secret_until_revealed(tmp_path, capsys, monkeypatch):
    path = write(tmp_path, SECRET)
    code, out, _ = run(capsys, monkeypatch, ["play", path, "--seats", "human,random", "--seed", "3"], "pick 2\n")
    assert code == 0
    assert "P2 (random) has chosen." in out
    assert "P2 (random): pick" not in out
    assert "picks revealed" in out
    before = out.split("P1>")[0]
    assert re.search(r"\nP2 .*\?", before)   # the other seat's secret variable is hidden


def test_hidden_zones_show_counts_to_a_human(tmp_path, capsys, monkeypatch):
    hidden = '''
game "Hidden"
players 2
kind card:
  copies 6
  show "card"
zone deck of card: hidden
player zone hand of card: owner

setup:
  move card to deck
  for p in players:
    draw 2 from deck to p.hand

turn:
  choose by current:
    stop "stop":
      end game
'''
    path = write(tmp_path, hidden)
    code, out, _ = run(capsys, monkeypatch, ["play", path, "--seats", "human,first"], "stop\n")
    assert code == 0, out
    assert "deck: 2 hidden" in out
    mats = out.split("\nP1 (you)")[1]
    assert re.search(r"P2\b.*\n +hand: 2 hidden", mats)
    assert re.search(r"hand: \S+", mats.split("P2")[0])


def test_an_unbounded_grid_is_drawn_around_its_tiles():
    from rich.console import Console

    from gamedsl.cli.terminal import render_zone

    buf = io.StringIO()
    Console(file=buf, width=80).print(render_zone({"-1,0": 1, "2,1": 2}, {"1": "A", "2": "B"}, None))
    rows = [line for line in buf.getvalue().splitlines() if "│" in line]
    assert "-1" in rows[0] and "2" in rows[0]
    assert re.search(r"0 │ A +│ · │ · │ · │", rows[1])
    assert re.search(r"1 │ · +│ · │ · │ B │", rows[2])


# ---------------------------------------------------------------- logs and replay


def test_log_format(tmp_path, capsys, monkeypatch):
    log = tmp_path / "game.jsonl"
    code, _, _ = run(capsys, monkeypatch, ["play", TICTACTOE, "--seats", "random,random", "--seed", "4",
                                          "--log", str(log)])
    assert code == 0
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    head = lines[0]
    assert head["gamedsl"] == 1 and head["players"] == 2 and head["seed"] == 4
    assert head["game"] == TICTACTOE and len(head["sha256"]) == 64 and head["max_turns"] == 5000
    assert all("move" in line and "text" in line for line in lines[1:-1])
    assert lines[1]["text"].startswith("place ")
    assert lines[-1]["result"]["finished"] is True


@pytest.mark.parametrize("text, seats, seed, options", [
    (None, ["random", "random"], 11, {}),
    (COUNTER, ["random", "random", "random"], 5, {"target": "9"}),
    (SECRET, ["random", "first"], 2, {}),
])
def test_replay_reaches_the_identical_final_state(text, seats, seed, options, tmp_path):
    path = TICTACTOE if text is None else write(tmp_path, text)
    game = load(path)
    log = tmp_path / "game.jsonl"
    played = play_game(game, seats, seed, options, 5000, out=io.StringIO(), log_path=log)
    done = replay(log)
    assert dump(done.state) == dump(played.state)
    assert not done.changed
    assert done.game.is_over(done.state)


def test_replay_command_prints_the_same_result(tmp_path, capsys, monkeypatch):
    log = tmp_path / "game.jsonl"
    code, played, _ = run(capsys, monkeypatch, ["play", TICTACTOE, "--seats", "random,random", "--seed", "8",
                                                "--log", str(log)])
    assert code == 0
    code, replayed, _ = run(capsys, monkeypatch, ["replay", str(log)])
    assert code == 0
    assert replayed == played
    code, shown, _ = run(capsys, monkeypatch, ["replay", str(log), "--show"])
    assert code == 0 and "line 2: P1: place" in shown


def test_replay_finds_the_game_beside_the_log_and_warns_if_changed(tmp_path, capsys, monkeypatch):
    path = write(tmp_path, COUNTER)
    game = load(path)
    log = tmp_path / "game.jsonl"
    play_game(game, ["first", "first"], 1, {}, 5000, out=io.StringIO(), log_path=log)
    lines = log.read_text().splitlines()
    head = json.loads(lines[0])
    head["game"] = "somewhere/else/g.game"
    log.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n")
    monkeypatch.chdir(ROOT)
    code, out, err = run(capsys, monkeypatch, ["replay", str(log)])
    assert code == 0 and "winners: P1" in out
    Path(path).write_text(COUNTER + "\n# edited\n")
    code, out, err = run(capsys, monkeypatch, ["replay", str(log)])
    assert code == 0 and "changed" in err


def test_a_tampered_move_is_refused_naming_the_line(tmp_path, capsys, monkeypatch):
    log = tmp_path / "game.jsonl"
    game = load(TICTACTOE)
    play_game(game, ["first", "first"], 1, {}, 5000, out=io.StringIO(), log_path=log)
    lines = log.read_text().splitlines()
    move = json.loads(lines[2])
    move["move"]["args"] = [[0, 0]]     # a cell P1 has already taken
    lines[2] = json.dumps(move)
    log.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, monkeypatch, ["replay", str(log)])
    assert code == 1
    assert f"{log}:3:" in err and "refused" in err
    assert len(err.strip().splitlines()) == 1


def test_a_changed_result_line_is_reported(tmp_path, capsys, monkeypatch):
    log = tmp_path / "game.jsonl"
    play_game(load(TICTACTOE), ["first", "random"], 1, {}, 5000, out=io.StringIO(), log_path=log)
    lines = log.read_text().splitlines()
    result = json.loads(lines[-1])
    result["result"]["winners"] = [9]
    lines[-1] = json.dumps(result)
    log.write_text("\n".join(lines) + "\n")
    code, _, err = run(capsys, monkeypatch, ["replay", str(log)])
    assert code == 1 and "differs" in err


@pytest.mark.parametrize("mangle", [
    lambda text: text[: text.rstrip("\n").rindex("\n") + 10],              # truncated mid-line
    lambda text: "not json at all\n",
    lambda text: "",
    lambda text: text.replace('"gamedsl": 1', '"gamedsl": 7'),
    lambda text: text.replace('"seat": 0', '"seat": "zero"', 1),
    lambda text: text.replace('"players": 2', '"players": "two"'),
    lambda text: "[1, 2]\n",
])
def test_malformed_logs_exit_2_with_one_line(mangle, tmp_path, capsys, monkeypatch):
    log = tmp_path / "game.jsonl"
    play_game(load(TICTACTOE), ["first", "first"], 1, {}, 5000, out=io.StringIO(), log_path=log)
    log.write_text(mangle(log.read_text()))
    code, out, err = run(capsys, monkeypatch, ["replay", str(log)])
    assert code == 2
    assert err.startswith("gamedsl: error:") and len(err.strip().splitlines()) == 1


def test_replay_of_a_missing_log_exits_2(tmp_path, capsys, monkeypatch):
    code, _, err = run(capsys, monkeypatch, ["replay", str(tmp_path / "none.jsonl")])
    assert code == 2 and "none.jsonl" in err


def test_write_log_function_and_an_abandoned_game(tmp_path, capsys, monkeypatch):
    game = load(TICTACTOE)
    state = game.new_game(2, 0)
    moves = []
    for _ in range(3):
        move = game.legal_moves(state)[0]
        moves.append((move, game.move_text(state, move)))
        state = game.apply(state, move)
    log = tmp_path / "partial.jsonl"
    write_log(log, game, 2, 0, state["options"], 5000, moves)
    assert len(read_log(log).moves) == 3
    assert dump(replay(log).state) == dump(state)
    code, out, _ = run(capsys, monkeypatch, ["replay", str(log)])
    assert code == 0 and "before the game does" in out


# ---------------------------------------------------------------- test, subprocess, CI


def test_test_command_runs_scenarios(tmp_path, capsys, monkeypatch):
    scenarios = ROOT / "examples" / "scenarios"
    code, out, _ = run(capsys, monkeypatch, ["test", str(scenarios)])
    assert code == 0
    assert re.search(r"^\d+ passed, 0 failed$", out, re.M)
    assert len(re.findall(r"passed, \d+ failed", out)) == 1
    code, out, _ = run(capsys, monkeypatch, ["test", str(tmp_path / "missing.scenario")])
    assert code == 1 and re.search(r"0 passed, [1-9]\d* failed", out)


def _module(*args, stdin=""):
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "gamedsl", *args], input=stdin, capture_output=True,
                          text=True, env=env, timeout=120)


def test_python_m_gamedsl(tmp_path):
    done = _module("check", TICTACTOE)
    assert done.returncode == 0
    done = _module("check", write(tmp_path, BROKEN))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    done = _module("play", TICTACTOE, "--seats", "random,random", "--seed", "1")
    assert done.returncode == 0 and "winners" in done.stdout
    done = _module("play", TICTACTOE, "--seats", "random,random,random")
    assert done.returncode == 2 and "Traceback" not in done.stderr


def _readme_command(marker):
    text = (ROOT / "README.md").read_text()
    after = text.split(f"<!-- {marker} -->", 1)[1]
    block = re.search(r"```\w*\n(.*?)\n```", after, re.S).group(1)
    return block.strip()


def test_ci_runs_the_readme_test_command_verbatim():
    command = _readme_command("test-command")
    assert command == "pip install -e '.[dev]' && python -m pytest -q"
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert command in [line.strip() for line in ci]


def test_readme_quick_start_is_two_commands():
    play = _readme_command("play-command")
    assert play.startswith("pip install . && gamedsl play examples/tictactoe.game --seats random,random")
    assert len(play.splitlines()) == 1
