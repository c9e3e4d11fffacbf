"""What a person types and what a rule file says reach the terminal safely: every number typed
on the command line is range-checked with one line (never Python's "internal error"), and a
rule file's texts are shown with their control characters written out, in every command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.fixtures import assert_one_error_line, run

ROOT = Path(__file__).resolve().parents[2]
TICTACTOE = str(ROOT / "examples" / "tictactoe.game")
HIGH_CARD = str(ROOT / "examples" / "high_card.game")
HUGE = "9" * 5000  # past Python's limit for reading an int from a text
SEATS = ["--seats", "random,random"]


@pytest.mark.parametrize("argv", [
    ["play", HIGH_CARD, *SEATS, "--option", f"target={HUGE}"],
    ["play", HIGH_CARD, *SEATS, "--option", "target=-" + HUGE],
    ["play", HIGH_CARD, *SEATS, "--option", "target=99999999999999999999"],
    ["play", TICTACTOE, *SEATS, "--seed", HUGE],
    ["play", TICTACTOE, *SEATS, "--seed", str(2 ** 64)],
    ["play", TICTACTOE, *SEATS, "--seed", "-1"],
    ["play", TICTACTOE, *SEATS, "--max-turns", HUGE],
    ["play", TICTACTOE, *SEATS, "--max-steps", str(10 ** 12)],
    ["test", str(ROOT / "examples" / "scenarios"), "--max-steps", "0"],
    ["simulate", TICTACTOE, *SEATS, "-n", HUGE],
    ["simulate", TICTACTOE, *SEATS, "-n", "0"],
    ["simulate", TICTACTOE, *SEATS, "--jobs", "100000"],
    ["simulate", TICTACTOE, *SEATS, "--seed", "1e9"],
    ["compare", TICTACTOE, *SEATS, "--max-turns", "-5"],
], ids=lambda a: " ".join(x if len(x) < 20 else x[:12] + "…" for x in a if not x.startswith("/")))
def test_a_number_out_of_range_is_one_line_and_exit_2(argv, capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, argv)
    assert code == 2, err
    assert_one_error_line(err)
    assert "internal error" not in err and HUGE not in err and len(err.splitlines()[-1]) < 200


@pytest.mark.parametrize("typed", [HUGE, "²", "0" * 40 + "1"])
def test_a_move_number_typed_at_play_out_of_range_is_asked_again(typed, capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, ["play", TICTACTOE, "--seats", "human,random"], stdin=f"{typed}\nquit\n")
    assert code == 0 and "internal error" not in out + err
    assert "there is no move" in out and HUGE not in out


def test_a_log_with_a_huge_number_is_refused(tmp_path, capsys, monkeypatch):
    log = tmp_path / "g.jsonl"
    log.write_text('{"gamedsl": 1, "game": "%s", "seed": %s, "players": 2, "options": {}, "max_turns": 9, '
                   '"sha256": ""}\n' % (TICTACTOE, HUGE))
    code, out, err = run(capsys, monkeypatch, ["replay", str(log)])
    assert code == 2 and "internal error" not in err
    assert_one_error_line(err)


def test_a_scenario_reading_a_row_by_position_is_a_clear_error(tmp_path, capsys, monkeypatch):
    (tmp_path / "pearl_auction.game").write_text((ROOT / "examples" / "pearl_auction.game").read_text())
    (tmp_path / "p.scenario").write_text('game "pearl_auction.game"\n\n'
                                         'scenario "a row by position":\n  players 3\n'
                                         "  expect rows(payout)[0][1] == 4\n")
    code, out, err = run(capsys, monkeypatch, ["test", str(tmp_path / "p.scenario")])
    assert code == 1 and "internal error" not in out + err
    assert "p.scenario:5:" in out and "read by a column's name" in out


# ---------------------------------------------------------------- control characters

ESC = "\x1b"
GAME = ('game "Title\x1b]0;pwned\x07"\nplayers 2\nsetup:\n  say "clear\x1b[2J\x1b[31mred\x9b1m"\n'
        'turn:\n  choose by current:\n    stop "stop\x1b[2J":\n      say "bye\x1b[H"\n      end game\n'
        "score of p: 0\n")


@pytest.fixture
def loud(tmp_path):
    path = tmp_path / "loud.game"
    path.write_text(GAME, "utf-8")
    return path


def assert_shown(text: str):
    assert ESC not in text and "\x9b" not in text and "\x07" not in text, repr(text)


def test_play_and_replay_show_control_characters(loud, tmp_path, capsys, monkeypatch):
    log = tmp_path / "loud.jsonl"
    code, out, err = run(capsys, monkeypatch, ["play", str(loud), "--seats", "human,random", "--log", str(log)],
                         stdin="1\n")
    assert code == 0, err
    assert_shown(out + err)
    assert "stop\\x1b[2J" in out and "bye\\x1b[H" in out
    written = log.read_text("utf-8")
    assert_shown(written)
    assert json.loads(written.splitlines()[1])["text"] == "stop\x1b[2J"  # (the log keeps the text itself)
    code, out, err = run(capsys, monkeypatch, ["replay", "--show", str(log)])
    assert code == 0, err
    assert_shown(out + err)
    assert "bye\\x1b[H" in out


def test_check_rules_and_test_show_control_characters(loud, tmp_path, capsys, monkeypatch):
    bad = tmp_path / "bad.game"
    bad.write_text(GAME.replace("score of p: 0", "score of p: unknown\x1b[2Jname"), "utf-8")
    code, out, err = run(capsys, monkeypatch, ["check", str(bad)])
    assert code == 1
    assert_shown(out + err)
    code, out, err = run(capsys, monkeypatch, ["rules", str(loud)])
    assert code == 0
    assert_shown(out + err)
    book = tmp_path / "book.md"
    assert run(capsys, monkeypatch, ["rules", str(loud), "-o", str(book)])[0] == 0
    assert_shown(book.read_text("utf-8"))
    (tmp_path / "loud.scenario").write_text('game "loud.game"\n\nscenario "says\x1b[2J":\n  players 2\n'
                                            '  expect said == ["x\x1b[2J"]\n', "utf-8")
    code, out, err = run(capsys, monkeypatch, ["test", str(tmp_path / "loud.scenario")])
    assert_shown(out + err)
