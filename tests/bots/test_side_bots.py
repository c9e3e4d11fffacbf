"""The generic bots play for their side: a team mate's gain is theirs, a cooperative game's
verdict is everyone's."""

from gamedsl.bots.search import GreedyBot, leaf_rewards, rewards, score_margin
from gamedsl.pipeline import load

# P1 chooses who scores: itself a little, its team mate a lot, or an opponent a lot
TEAMS = """game "gift"
players 4
player var points: number = 0
team of p: seat(p) % 2
score of p: p.points
turn:
  choose by current:
    me "me":
      current.points += 1
    mate "mate":
      players[2].points += 5
    rival "rival":
      players[1].points += 5
  end game
"""

COOP = """game "brink"
players 2
cooperative
var stars: number = 0
score: stars
turn:
  choose by current:
    safe "safe":
      stars += 1
    greedy_risk "risk":
      stars += 10
      end game lost
    finish "finish":
      end game won
"""


def game_from(text, tmp_path):
    path = tmp_path / "g.game"
    path.write_text(text)
    return load(str(path))


def test_greedy_gives_points_to_its_team_mate_not_away(tmp_path):
    g = game_from(TEAMS, tmp_path)
    s = g.new_game(4, seed=1)
    move = GreedyBot(g, 0, seed=1).choose(s)
    assert move["alt"] == "mate"
    after = g.apply(s, move)
    assert score_margin(g, after, 0) == 5 and score_margin(g, after, 2) == 5
    assert score_margin(g, after, 1) == -5
    assert rewards(g, after) == [1.0, 0.0, 1.0, 0.0]


def test_greedy_takes_the_cooperative_win_over_a_bigger_score_that_loses(tmp_path):
    g = game_from(COOP, tmp_path)
    s = g.new_game(2, seed=1)
    assert GreedyBot(g, 0, seed=1).choose(s)["alt"] == "finish"
    lost = g.apply(s, g.parse_move(s, "risk"))
    won = g.apply(s, g.parse_move(s, "finish"))
    assert rewards(g, lost) == [0.0, 0.0] and rewards(g, won) == [1.0, 1.0]
    # mid-game, a bigger shared score is worth more to everyone
    one = g.apply(s, g.parse_move(s, "safe"))
    two = g.apply(one, g.parse_move(one, "safe"))
    assert leaf_rewards(g, two)[0] > leaf_rewards(g, one)[0] > 0.5
    assert leaf_rewards(g, two)[0] == leaf_rewards(g, two)[1]
