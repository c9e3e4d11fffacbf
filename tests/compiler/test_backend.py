"""The compiling back end (gamedsl/compiler/backend.py) plays every game as the interpreter
does: every rule file of the project, the tutorial's, the fuzz corpus's regressions and
generated games, played move for move through both with tools/lockstep.py (identical states,
legal moves, views, refusals, failures and results after every move). Small fixed-seed
budgets: the long runs are `python tools/lockstep.py FILE --backend compiled --games N`."""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

import pytest

from gamedsl.compiler import backend
from gamedsl.errors import GameError, RuleError
from gamedsl.pipeline import load
from tests.support import rulegen
from tests.support.fixtures import COUNTER
from tools.lockstep import lockstep

ROOT = Path(__file__).resolve().parents[2]
REAL = rulegen.real_files()
REGRESSIONS = sorted((ROOT / "tests" / "fuzz" / "regressions").glob("*.game"))
# (the word games list every word at each decision: a few moves say enough)
SHORT = {"letter_tycoon.game": 6, "wordomino.game": 4}
SLOW_REGRESSIONS = {"exponential_def.game", "choice_all_refused.game"}


def both(path: str, text=None):
    """The file loaded for each back end; None if it does not load (alike in both)."""
    try:
        a = load(path, text=text, backend="interpreter")
    except GameError as err:
        with pytest.raises(GameError) as other:
            load(path, text=text, backend="compiled")
        assert [str(d) for d in other.value.diagnostics] == [str(d) for d in err.diagnostics]
        return None
    b = load(path, text=text, backend="compiled")
    assert (a.backend, b.backend) == ("interpreter", "compiled")
    return a, b


def play_both(games, seeds, moves, players=None, refusals=True):
    a, b = games
    for seed in seeds:
        n = players or a.min_players
        try:
            lockstep(a, b, n, seed, refusals=refusals, stop_after=moves)
        except RuleError:
            pass  # the game ended in the same failure in both


@pytest.mark.parametrize("path", REAL, ids=[str(p.relative_to(ROOT)) for p in REAL])
def test_every_rule_file_plays_alike_in_both_back_ends(path):
    games = both(str(path))
    if games is None:
        return
    moves = SHORT.get(path.name, 40)
    play_both(games, range(1 if path.name in SHORT else 2), moves)
    if games[0].max_players > games[0].min_players and path.name not in SHORT:
        play_both(games, [7], moves, players=games[0].max_players)


@pytest.mark.parametrize("path", REGRESSIONS, ids=[p.name for p in REGRESSIONS])
def test_the_fuzz_regressions_fail_alike_in_both_back_ends(path):
    if path.name in SLOW_REGRESSIONS:
        pytest.skip("seconds of an expression's work limit in each engine: tests/fuzz plays it")
    games = both(str(path))
    if games is not None:
        play_both(games, [0], 5, refusals=False)


def test_generated_games_play_alike_in_both_back_ends():
    donors = [p.read_text("utf-8") for p in REAL]
    loaded = 0
    for seed in range(40):
        rng = random.Random(f"backend-{seed}")
        text = rulegen.typed_game(rng)
        if seed % 4 == 3:
            text = rulegen.mutate(text, rng, donors)
        games = both(str(ROOT / "fuzz-typed.game"), text)
        if games is None:
            continue
        loaded += 1
        play_both(games, [seed], 15, refusals=seed % 5 == 0)
    assert loaded >= 20


def test_the_step_budget_stops_both_at_the_same_line(tmp_path):
    path = tmp_path / "loop.game"
    path.write_text(textwrap.dedent("""\
        game "Loop"
        players 2
        var n: number = 0
        turn:
          n += 1
          while n > 0:
            n += 1
          end game
        score of p: n
        """))
    failures = []
    for name in ("interpreter", "compiled"):
        game = load(str(path), backend=name, max_steps=500)
        with pytest.raises(RuleError) as err:
            game.new_game(2)
        failures.append((str(err.value), err.value.diagnostic().span))
    assert failures[0] == failures[1] and failures[0][1].line == 6


def test_a_state_of_one_back_end_resumes_in_the_other(tmp_path):
    path = tmp_path / "g.game"
    path.write_text(COUNTER)
    a, b = load(str(path), backend="interpreter"), load(str(path), backend="compiled")
    state = a.new_game(2, seed=3)
    for i in range(6):
        if a.is_over(state):
            break
        move = a.legal_moves(state)[i % len(a.legal_moves(state))]
        game, other = (a, b) if i % 2 else (b, a)
        after = game.apply(state, move)
        assert after == other.apply(state, move)
        state = after


def test_generated_code_holds_no_text_of_the_rules(tmp_path):
    """Names, texts and expressions stay values of the Program: the source mentions only
    numbers and the generator's own names."""
    payload = "x'); __import__('os').system('touch pwned'); ('"
    path = tmp_path / "g.game"
    path.write_text(COUNTER.replace('game "', 'game "' + payload.replace('"', "")) +
                    f'\n\nprocedure shout():\n  say "{payload}"\n')
    game = load(str(path), backend="interpreter")
    source = backend.generate(game.program)
    assert "touch" not in source and "shout" not in source and "total" not in source
    assert not (tmp_path / "pwned").exists()


def test_an_unknown_back_end_is_refused(tmp_path):
    from gamedsl.errors import UsageError

    path = tmp_path / "g.game"
    path.write_text(COUNTER)
    with pytest.raises(UsageError):
        load(str(path), backend="fast")


EFFECTS = """\
game "Piles"
players 2
table ranks:
  | rank | count |
  | 1    | 3     |
  | 2    | 3     |
  | 3    | 2     |
kind card:
  from ranks
  copies count
kind chip:
  copies 4
zone deck of card: hidden, refill from discard
zone discard of card: public
zone stack of card, chip: public, capacity 5
zone bin of card, chip: public
zone chips of chip: public
player zone hand of card: owner, sorted by rank
player zone pocket of card, chip: public
setup:
  move card to deck
  move chip to chips
  shuffle deck
  for p in players:
    draw 2 from deck to p.hand
turn:
  choose by current:
    play(c in current.hand) "play {c}":
      move c to top of stack
      draw 1 from deck to current.hand
    stack_up "stack":
      move [c for c in current.hand] + [first(chips)] to top of stack
      draw 3 from deck to current.hand
    pocket "pocket":
      move [c for c in stack] to current.pocket
      move current.hand to discard
      move discard to top of deck
    clear "clear":
      move stack to bin
      move [c for c in current.pocket if c in chips or len(chips) < 4] to bin
  if len(bin) > 12:
    end game
score of p: len(p.pocket)
"""


def test_generated_moves_and_draws_play_alike(tmp_path):
    """Moves to the top, into a zone kept sorted or full, of mixed kinds, draws refilled: the effects
    the back end writes out for their zones, move for move against the interpreter's."""
    path = tmp_path / "piles.game"
    path.write_text(EFFECTS)
    play_both(both(str(path)), range(12), 60)


def test_moves_count_against_the_step_budget_alike(tmp_path):
    """The components a generated move moves, and the items it takes them from, count as the
    interpreter counts them: under each budget around the one the loop needs, both back ends
    finish, or both stop at the same line."""
    path = tmp_path / "round.game"
    path.write_text(textwrap.dedent("""\
        game "Round"
        players 2
        kind token:
          copies 100
        zone pile of token: public
        zone heap of token: public
        setup:
          repeat 50 times:
            move token to pile
            move token to top of heap
        turn:
          end game
        score of p: 0
        """))
    outcomes = set()
    for budget in range(300, 560, 10):
        failures = []
        for name in ("interpreter", "compiled"):
            game = load(str(path), backend=name, max_steps=budget)
            try:
                game.new_game(2)
                failures.append(None)
            except RuleError as err:
                failures.append((str(err), err.diagnostic().span))
        assert failures[0] == failures[1], (budget, failures)
        outcomes.add(failures[0] is None)
    assert outcomes == {True, False}  # (the range holds the budget the loop needs)


OWNED = """\
game "Owned"
players 2
var keeper: player? = none
player var points: number = 0
player var name: text = "x"
kind card:
  copies 3
  state worn: bool = false
  state count: number = 0
zone deck of card: public
player zone hand of card: owner
setup:
  move card to deck
  draw 2 from deck to players[0].hand
turn:
  choose by current:
    give "give":
      current.points += 2
    grow "grow":
      current.points *= 100000
    shrink "shrink":
      current.points -= 1
    longer "longer":
      current.name = current.name + current.name
    mark(c in current.hand) "mark {c}":
      c.worn = not c.worn
      c.count += 1
    claim "claim":
      keeper = current
    award "award":
      keeper.points = 5
  if round > 30:
    end game
score of p: p.points
"""


def test_assignments_to_players_and_components_play_alike(tmp_path):
    """A player's variable and a component's state changed by generated code: the same values,
    and the same refusals at the same line (no player to give to, a number past the bounds, a
    text grown past its size) as the interpreter's."""
    path = tmp_path / "owned.game"
    path.write_text(OWNED)
    games = both(str(path))
    play_both(games, range(30), 200)
    failures = []
    for game in games:
        failed = []
        for moves in (["award"], ["give", "give"] + ["grow", "shrink"] * 4, ["longer"] * 60):
            state = game.new_game(2, seed=1)
            try:
                for text in moves:
                    state = game.apply(state, game.parse_move(state, text))
                failed.append(None)
            except RuleError as err:
                failed.append((str(err), err.diagnostic().span.line))
        failures.append(failed)
    assert failures[0] == failures[1]
    assert "'.points' needs a player, not none" in failures[0][0][0]
    assert all(f is not None for f in failures[0])


@pytest.mark.parametrize("statement", [
    "let x = half(n) + 1",
    "n = half(n) * 2",
    "if n > 1:\n    n += 1\n  elif half(n) > 1:\n    n += 2",
    "while half(n) > 1:\n    n += 1",
    "for x in [1, half(n)]:\n    n += 1",
    "repeat half(n) times:\n    n += 1",
])
def test_an_expression_written_into_a_block_fails_as_the_interpreter_says(statement, tmp_path):
    """A block's expressions run as code written into its function; where that code meets
    something else than the common case (here 10 / 0), the closures say what is wrong."""
    path = tmp_path / "fail.game"
    path.write_text("game \"Fail\"\nplayers 2\nvar n: number = 0\ndef half(k: number) = 10 / k\n"
                    f"turn:\n  {statement}\n  end game\nscore of p: n\n")
    failures = []
    for name in ("interpreter", "compiled"):
        game = load(str(path), backend=name)
        with pytest.raises(RuleError) as err:
            game.new_game(2)
        failures.append((str(err.value), err.value.diagnostic().span))
    assert failures[0] == failures[1] and failures[0][1].line == 4
    assert game.snippets.source.give_ups == 1  # (the written code gave up, once)


def test_a_long_chain_of_elif_plays_alike(tmp_path):
    """Conditions written into the block nest each branch deeper: a long chain still compiles."""
    branches = "".join(f"  elif n == {k}:\n    n += {k}\n" for k in range(1, 120))
    path = tmp_path / "chain.game"
    path.write_text(f"game \"Chain\"\nplayers 2\nvar n: number = 5\nturn:\n  if n == 0:\n    n += 1\n{branches}"
                    "  else:\n    n += 1000\n  end game\nscore of p: n\n")
    for name in ("interpreter", "compiled"):
        game = load(str(path), backend=name)
        assert game.scores(game.new_game(2)) == [10, 10]
