"""The scenario runner: every example scenario passes; deliberate failures are reported where they are."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from gamedsl.scenario import run_file, run_paths

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
CASES = ROOT / "tests" / "scenarios" / "cases"
SCENARIOS = sorted(EXAMPLES.rglob("*.scenario"))


def test_there_are_example_scenarios():
    assert len(SCENARIOS) >= 4


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_example_scenarios_pass(path):
    results = run_file(str(path))
    assert results
    failed = [str(r) for r in results if not r.passed]
    assert not failed, "\n".join(failed)


def test_run_paths_over_the_examples():
    out = io.StringIO()
    passed, failed = run_paths([str(EXAMPLES)], out)
    text = out.getvalue()
    assert failed == 0, text
    assert passed >= 30
    assert text.rstrip().splitlines()[-1] == f"{passed} passed, 0 failed"
    assert "Traceback" not in text


def test_deliberate_failures_are_reported_at_their_line():
    path = CASES / "failures.scenario"
    results = run_file(str(path))
    assert len(results) >= 12
    for r in results:
        assert not r.passed, f"{r.title} should fail"
        want = int(re.match(r"line (\d+):", r.title).group(1))
        assert r.line == want, f"{r.title}: reported at line {r.line}: {r.reason}"
        assert r.path == str(path)
        assert r.reason and "Traceback" not in r.reason and "internal error" not in r.reason, r.reason


def _reason(title_start):
    results = run_file(str(CASES / "failures.scenario"))
    return next(r.reason for r in results if r.title.startswith(title_start))


def test_failure_messages_say_what_went_wrong():
    assert "was refused" in _reason("line 6:")
    # a false comparison shows both sides, written for a person
    reason = _reason("line 10:")
    assert "expected current == p1" in reason and "current is P2" in reason and "p1 is P1" in reason
    assert "should have been refused" in _reason("line 13:")
    assert 'not because "cell is taken"' in _reason("line 16:")
    assert "cannot move now" in _reason("line 20:")
    assert "outside the 3 by 3 grid" in _reason("line 24:")
    assert "for 2 players, not 3" in _reason("line 27:")
    assert "unknown option 'speed'" in _reason("line 31:")
    assert "no_such_thing" in _reason("line 35:")
    assert "true or false" in _reason("line 38:")
    assert "winners is []" in _reason("line 41:")
    assert "must come before" in _reason("line 45:")
    assert "choose" in _reason("line 49:")
    assert "no public fact or player variable 'nothing_here'" in _reason("line 54:")


def test_bad_files_are_failures_not_tracebacks():
    out = io.StringIO()
    passed, failed = run_paths([str(CASES / "bad_syntax.scenario"), str(CASES / "missing_game.scenario"),
                                str(CASES / "no_such_file.scenario")], out)
    text = out.getvalue()
    assert (passed, failed) == (0, 3), text
    assert "Traceback" not in text
    assert "bad_syntax.scenario:5:" in text
    assert "no game file '../../../examples/no_such.game'" in text
    assert text.rstrip().splitlines()[-1] == "0 passed, 3 failed"


def test_output_names_each_scenario(tmp_path):
    f = tmp_path / "t.scenario"
    f.write_text(f'game "{Path("..") / ".." / "x.game"}"\n', "utf-8")
    results = run_file(str(f))
    assert len(results) == 1 and not results[0].passed

    good = tmp_path / "good.scenario"
    game = (EXAMPLES / "tictactoe.game").read_text("utf-8")
    (tmp_path / "ttt.game").write_text(game, "utf-8")
    good.write_text('game "ttt.game"\n\nscenario "ok":\n  move "place 0,0"\n  expect current == p2\n\n'
                    'scenario "not ok":\n  expect over\n', "utf-8")
    out = io.StringIO()
    assert run_paths([str(tmp_path)], out) == (1, 2)
    text = out.getvalue()
    assert "PASS ok" in text and "FAIL not ok" in text
    assert f"{good}:8:3: expected over" in text


def test_game_with_errors_is_reported(tmp_path):
    (tmp_path / "broken.game").write_text('game "Broken"\nplayers 2\n\nturn:\n  no_such_proc()\n', "utf-8")
    f = tmp_path / "b.scenario"
    f.write_text('game "broken.game"\n\nscenario "x":\n  expect true\n', "utf-8")
    results = run_file(str(f))
    assert len(results) == 1 and not results[0].passed
    assert results[0].line == 1 and "has errors" in results[0].reason


def test_random_moves_and_option_values(tmp_path):
    f = tmp_path / "r.scenario"
    (tmp_path / "hc.game").write_text((EXAMPLES / "high_card.game").read_text("utf-8"), "utf-8")
    f.write_text('game "hc.game"\n\nscenario "seeded random play is repeatable":\n  players 3\n  seed 5\n'
                 '  option target = 10\n  play 500 random moves\n  expect over and target == 10\n'
                 '\nscenario "bad option value":\n  option target = 3\n  expect true\n', "utf-8")
    results = run_file(str(f))
    assert results[0].passed, results[0]
    assert not results[1].passed and results[1].line == 11 and "cannot be" in results[1].reason


def test_in_view_of_shows_what_a_seat_sees(tmp_path):
    """`in view of P: NAME == E` compares a player variable (or public fact) as the view shows it."""
    (tmp_path / "pa.game").write_text((EXAMPLES / "pearl_auction.game").read_text("utf-8"), "utf-8")
    f = tmp_path / "v.scenario"
    f.write_text('game "pa.game"\n\nscenario "own bid only":\n  move "bid 3" by p1\n  move "bid 5" by p2\n'
                 '  in view of p1: coins == [12 + 5, 12 - 5]\n  in view of p1: bid == [3, 5]\n'
                 '  in view of p2: bid == [3, 5]\n\nscenario "a wrong value":\n  move "bid 3" by p1\n'
                 '  move "bid 5" by p2\n  in view of p2: bid == [3, 6]\n', "utf-8")
    results = run_file(str(f))
    assert results[0].passed, results[0].reason
    assert not results[1].passed and results[1].line == 13
    assert "P2's view shows bid as [3, 5], not [3, 6]" in results[1].reason


VIEW_GAME = """game "Views"
players 2

table faces:
  | name | worth |
  | "A"  | 1     |
  | "B"  | 2     |
  | "C"  | 3     |

kind card:
  from faces
  show name
  state value: number = worth

zone pile of card: hidden
zone open of card: public
player zone hand of card: owner

setup:
  move card to pile
  move first([c for c in card if c.name == "A"]) to open
  move first([c for c in card if c.name == "B"]) to first(players).hand

turn:
  choose by current:
    stop "stop":
      end game
"""


def test_in_view_of_a_zone_and_a_component_state(tmp_path):
    """`in view of P: ZONE == E` gives the components P sees as shown (or how many, when
    P cannot see them); `in view of P: STATE == E` a state of every component P sees."""
    (tmp_path / "v.game").write_text(VIEW_GAME, "utf-8")
    f = tmp_path / "v.scenario"
    f.write_text('game "v.game"\n\nscenario "zones and states":\n'
                 '  in view of p1: open == ["A"]\n  in view of p1: pile == 1\n'
                 '  in view of p1: hand == [["B"], 0]\n  in view of p2: hand == [1, []]\n'
                 '  in view of p1: value == [1, 2]\n  in view of p2: value == [1]\n'
                 '\nscenario "a hidden zone is a count":\n  in view of p2: pile == ["C"]\n', "utf-8")
    results = run_file(str(f))
    assert results[0].passed, results[0].reason
    assert not results[1].passed and "P2's view shows pile as 1" in results[1].reason


def test_text_writes_a_comprehension_variable_as_a_component_or_player(tmp_path):
    # scenario expressions are not type-checked: text(x) learns what x holds from the list
    path = tmp_path / "t.scenario"
    (tmp_path / "high_card.game").write_text((EXAMPLES / "high_card.game").read_text())
    path.write_text('game "high_card.game"\n\nscenario "texts":\n'
                    '  expect [text(c) for c in p1.hand] == [text(c.rank) for c in p1.hand]\n'
                    '  expect [text(p) for p in sort p in players by most seat(p)] == ["P2", "P1"]\n')
    results = run_file(str(path))
    assert [r.passed for r in results] == [True], results[0].reason


def test_a_false_and_shows_each_part_and_a_missing_seat_is_named():
    reason = _reason("line 75:")
    assert reason.splitlines()[1:] == ["current == p2 is true", "len(supply) == 3 is false",
                                       "  len(supply) is 9", "  3 is 3"]
    reason = _reason("line 78:")
    assert reason == "'in view of': p4 is no seat here: the game has 2 players (p1..p2)"
    assert "E101" not in reason and "'by'" not in reason


def test_an_item_of_a_zone_is_written_as_a_component(tmp_path):
    (tmp_path / "high_card.game").write_text((EXAMPLES / "high_card.game").read_text())
    path = tmp_path / "t.scenario"
    path.write_text('game "high_card.game"\n\nscenario "items":\n'
                    '  expect text(p1.hand[0]) == text(first(p1.hand))\n'
                    '  expect text(deck[0]) == text(first(deck))\n'
                    '  expect text(deck[0]) == text(deck[0].rank)\n'
                    '  expect text(players[1]) == "P2"\n', "utf-8")
    results = run_file(str(path))
    assert [r.passed for r in results] == [True], results[0].reason


def test_a_seat_beyond_the_players_says_how_to_have_more(tmp_path):
    (tmp_path / "high_card.game").write_text((EXAMPLES / "high_card.game").read_text())
    path = tmp_path / "t.scenario"
    path.write_text('game "high_card.game"\n\nscenario "p3":\n  move "play 1" by p3\n', "utf-8")
    reason = run_file(str(path))[0].reason
    assert reason == ("'by': p3 is no seat here: the game has 2 players (p1..p2); for more, "
                      "write 'players N' first (High card is for 2 to 4 players)")


def test_a_draw_from_an_empty_zone_without_refill_draws_what_is_there(tmp_path):
    """docs/language.md: without `refill from`, a draw stops where the zone runs out, silently."""
    (tmp_path / "high_card.game").write_text((EXAMPLES / "high_card.game").read_text())
    path = tmp_path / "t.scenario"
    path.write_text('game "high_card.game"\n\nscenario "short draws":\n  given:\n'
                    '    move first(deck) to trick\n    draw 3 from trick to p1.hand\n'
                    '    draw 2 from trick to p2.hand\n'
                    '  expect len(p1.hand) == 4 and len(p2.hand) == 3 and len(trick) == 0\n', "utf-8")
    results = run_file(str(path))
    assert [r.passed for r in results] == [True], results[0].reason


CHIPS = """game "Chips"
players 2
player var chips: number = 1
player var total: number = 0

table faces:
  | name | worth |
  | "A"  | 1     |
  | "B"  | 2     |

kind card:
  from faces
  show name

player zone hand of card: owner

setup:
  move first([c for c in card if c.name == "A"]) to first(players).hand
  move first([c for c in card if c.name == "B"]) to first(players).hand

turn:
  choose by current:
    play(c in current.hand) "play {c}" if current.chips > 0 else "you have no chips":
      current.chips -= 1
      current.total += c.worth
    done "done":
      pass
  if current.total >= 3:
    end game winner current

score of p: p.total
"""


def test_a_listed_move_its_condition_refuses_says_why(tmp_path):
    """`if ... else REASON` on a listed move: a person typing it is told the reason; a move
    no list holds is still 'not a legal move'."""
    (tmp_path / "chips.game").write_text(CHIPS, "utf-8")
    path = tmp_path / "t.scenario"
    path.write_text('game "chips.game"\n\nscenario "no chips":\n  move "play A"\n  move "done"\n'
                    '  refuse "play B" because "you have no chips"\n'
                    '  refuse "play Z" because "not a legal move"\n'
                    '  move "done"\n  move "done"\n  refuse "play A" because "you have no chips"\n', "utf-8")
    results = run_file(str(path))
    assert [r.passed for r in results] == [True], results[0].reason
