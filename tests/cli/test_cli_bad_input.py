"""Bad input to the `gamedsl` command, everywhere: unknown options, bad `--option` values and
seat specs, files that are not what they should be, broken scenario files, and logs to replay
that are truncated, tampered with or not JSON. Each ends with exit 2 (usage) and one
`gamedsl: error:` line, or exit 1 where the rules or a scenario fail; never a traceback.

Besides the table, seeded random mutations of a real log and a real scenario file are fed to
`replay` and `test`."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from gamedsl.pipeline import load
from gamedsl.cli.terminal import play_game
from tests.support.fixtures import assert_one_error_line, run

ROOT = Path(__file__).resolve().parents[2]
TICTACTOE = str(ROOT / "examples" / "tictactoe.game")
LETTERS = str(ROOT / "games" / "letter_tycoon.game")
HIGH_CARD = str(ROOT / "examples" / "high_card.game")
SEATS = ["--seats", "random,random"]


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "game.jsonl"
    play_game(load(TICTACTOE), ["first", "first"], 1, {}, 5000, out=io.StringIO(), log_path=path)
    return path


# (argv, exit code); "{tmp}" is a fresh folder, "{log}" a good log of a finished game.
BAD_INVOCATIONS = [
    (["play", TICTACTOE] + SEATS + ["--bogus"], 2),
    (["check", "--bogus", TICTACTOE], 2),
    (["test", "--bogus"], 2),
    (["replay"], 2),
    (["rules"], 2),
    (["play", TICTACTOE] + SEATS + ["--option", "=1"], 2),
    (["play", TICTACTOE] + SEATS + ["--option", "x=1=2"], 2),
    (["play", LETTERS] + SEATS + ["--option", "dictionary=huge"], 2),
    (["play", TICTACTOE] + SEATS + ["--max-turns", "-3"], 2),
    (["play", TICTACTOE] + SEATS + ["--max-turns", "1e9"], 2),
    (["play", TICTACTOE, "--seats", "mcts:iters=abc,random"], 2),
    (["play", TICTACTOE, "--seats", "mcts:iters=-5,random"], 2),
    (["play", TICTACTOE, "--seats", "mcts:bogus=1,random"], 2),
    (["play", TICTACTOE, "--seats", "mcts:iters,random"], 2),
    (["play", TICTACTOE, "--seats", "greedy:x=1,random"], 2),
    (["play", TICTACTOE, "--seats", "cmd:,random"], 2),
    (["play", TICTACTOE, "--seats", " , "], 2),
    (["play", "{tmp}/none.game"] + SEATS, 1),
    (["play", "{tmp}"] + SEATS, 1),
    (["play", "/dev/null"] + SEATS, 1),
    (["play", "{log}"] + SEATS, 1),
    (["check", "{log}"], 1),
    (["check", "{tmp}/none.game"], 1),
    (["rules", "{tmp}/none.game"], 1),
    (["rules", "{log}"], 1),
    (["test", "{tmp}/none.scenario"], 1),
    (["replay", "{tmp}"], 2),
    (["replay", "/dev/null"], 2),
    (["replay", TICTACTOE], 2),
    (["simulate", TICTACTOE] + SEATS + ["-n", "abc"], 2),
    (["simulate", TICTACTOE, "--seats", "robot,random", "-n", "2"], 2),
    (["simulate", TICTACTOE, "--seats", "human,random", "-n", "2"], 2),
    (["simulate", TICTACTOE] + SEATS + ["--option", "nope=1", "-n", "2"], 2),
    (["compare", TICTACTOE, "{tmp}/none.game"] + SEATS + ["-n", "2"], 1),
    (["compare", TICTACTOE] + SEATS + ["--a-option", "bad", "-n", "2"], 2),
]


@pytest.mark.parametrize("argv, code", BAD_INVOCATIONS, ids=[" ".join(Path(a).name for a in argv)
                                                               for argv, _ in BAD_INVOCATIONS])
def test_a_bad_invocation_is_one_clear_error(argv, code, tmp_path, log, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    argv = [a.replace("{tmp}", str(tmp_path)).replace("{log}", str(log)) for a in argv]
    got, out, err = run(capsys, monkeypatch, argv)   # run() fails on any "Traceback"
    assert got == code, (got, out, err)
    if code == 2:
        assert_one_error_line(err)
    else:
        assert (out + err).strip(), "exit 1 without saying why"


def mutate_lines(lines, rnd, values):
    lines = list(lines)
    i = rnd.randrange(len(lines))
    how = rnd.randrange(5)
    if how == 0:
        del lines[i]
    elif how == 1:
        lines.insert(i, lines[rnd.randrange(len(lines))])
    elif how == 2:
        lines[i] = lines[i][: rnd.randrange(len(lines[i]) + 1)]
    elif how == 3:
        lines[0], lines[i] = lines[i], lines[0]
    else:
        lines[i] = values(lines[i], rnd)
    return lines


def change_a_json_value(line, rnd):
    try:
        data = json.loads(line)
    except ValueError:
        return line + "}"
    if isinstance(data, dict) and data:
        key = rnd.choice(sorted(data))
        if rnd.random() < 0.3:
            del data[key]
        else:
            data[key] = rnd.choice([None, -1, 10 ** 30, "x", [], {}, [1, "a"], True, 1.5, {"a": 1}])
    return json.dumps(data)


LOG_MUTATIONS = 150


def test_mutated_logs_replay_or_fail_with_one_line(log, tmp_path, capsys, monkeypatch):
    rnd = random.Random(10)
    lines = log.read_text().splitlines()
    codes = []
    for i in range(LOG_MUTATIONS):
        path = tmp_path / f"m{i}.jsonl"
        path.write_text("\n".join(mutate_lines(lines, rnd, change_a_json_value)) + "\n")
        code, out, err = run(capsys, monkeypatch, ["replay", str(path)])
        assert code in (0, 1, 2), (path.read_text(), code, err)
        if code == 2:
            assert_one_error_line(err)
        codes.append(code)
    assert codes.count(2) > LOG_MUTATIONS // 2   # most mutations really are bad logs


def add_junk(line, rnd):
    return " " * rnd.randrange(4) + line + rnd.choice(["", " 99999999999999999999", " ]", "(", " p9", "\t",
                                                        " ÿ☃", "\x00"])


SCENARIO_MUTATIONS = 50


def test_mutated_scenario_files_fail_cleanly(tmp_path, capsys, monkeypatch):
    rnd = random.Random(11)
    text = (ROOT / "examples" / "scenarios" / "high_card.scenario").read_text()
    lines = text.replace('"../high_card.game"', json.dumps(HIGH_CARD)).splitlines()
    broken = ["", "\x00\x01", "game\n", 'game "none.game"\n', "ÿ" * 100,
              f'game "{TICTACTOE}"\nscenario "x":\n  players 99\n',
              f'game "{TICTACTOE}"\nscenario "x":\n  seed abc\n',
              f'game "{TICTACTOE}"\nscenario "x":\n  option nope = 1\n',
              f'game "{TICTACTOE}"\nscenario "x":\n  expect (((\n']
    texts = broken + ["\n".join(mutate_lines(lines, rnd, add_junk)) for _ in range(SCENARIO_MUTATIONS)]
    for i, t in enumerate(texts):
        path = tmp_path / f"m{i}.scenario"
        path.write_text(t)
        code, out, err = run(capsys, monkeypatch, ["test", str(path)])
        assert code in (0, 1, 2), (t, code, out, err)
        if i < len(broken):
            assert code in (1, 2), (t, out, err)
        if code == 2:
            assert_one_error_line(err)


@pytest.mark.parametrize("named", ["/etc/passwd", "{tmp}/secret.txt", "../secret", "secret.txt"])
def test_a_tampered_log_cannot_make_replay_show_another_file(named, log, tmp_path, capsys, monkeypatch):
    """A log names its game; a tampered one naming some other file is refused before that
    file is read, so none of its lines appear in the error."""
    secret = tmp_path / "secret.txt"
    secret.write_text("the secret line\n")
    lines = log.read_text().splitlines()
    header = json.loads(lines[0])
    header["game"] = named.replace("{tmp}", str(tmp_path))
    log.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n")
    code, out, err = run(capsys, monkeypatch, ["replay", str(log)])
    assert code == 2
    assert_one_error_line(err)
    assert "not a .game file" in err
    assert "secret line" not in out + err and "root:" not in out + err
