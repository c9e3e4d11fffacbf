"""A scenario's keywords are names in a game file: a game and a scenario are parsed by
parsers of their own, so a choice's alternative may be called `play` or `expect`."""

import pytest

from gamedsl.pipeline import check_text

GAME = '''game "Words"
players 2
turn:
  choose by current:
    wait "wait":
      pass
    {name} "{name}":
      pass
  end game
score of p: 0
'''


@pytest.mark.parametrize("name", ["play", "expect", "given", "scenario"])
def test_an_alternative_may_be_named_like_a_scenario_keyword(name):
    checked = check_text("words.game", GAME.format(name=name))
    assert not [d for d in checked.diagnostics if d.severity == "error"], checked.diagnostics
