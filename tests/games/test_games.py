"""The full games of games/: they check clean, their scenarios pass, and random games finish.

Kept apart from tests/games/test_random_play.py (which walks every move of the small examples at
every step): a full game is long, so here a few random games per player count are played
through the engine API to their end, and each must finish before the turn bound.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from gamedsl.pipeline import load
from gamedsl.scenario import run_file

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted((ROOT / "games").glob("*.game"))
SCENARIOS = sorted((ROOT / "games").rglob("*.scenario"))
SEEDS = range(1)


def test_there_are_games_and_scenarios():
    assert GAMES and SCENARIOS


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_game_scenarios_pass(path):
    results = run_file(str(path))
    assert len(results) >= 5
    failed = [str(r) for r in results if not r.passed]
    assert not failed, "\n".join(failed)


def _cases():
    for path in GAMES:
        game = load(str(path))
        for n in range(game.min_players, game.max_players + 1):
            for seed in SEEDS:
                yield pytest.param(path, n, seed, id=f"{path.stem}-{n}p-seed{seed}")


@pytest.mark.parametrize("path,players,seed", list(_cases()))
def test_random_games_finish(path, players, seed):
    game = load(str(path))
    rng = random.Random(seed)
    state = game.new_game(players, seed, None, 3000)
    while not game.is_over(state):
        seat = game.waiting_for(state)[0]
        state = game.apply(state, rng.choice(game.legal_moves(state, seat)))
    result = game.results(state)
    assert result["finished"], f"stopped at the turn bound after {result['turns']} turns"
    assert len(result["scores"]) == players and result["winners"]


def test_the_terminal_view_shows_component_states_public_facts_and_players_by_name():
    import io

    from rich.console import Console

    from gamedsl.cli.terminal import render_view

    game = load(str(ROOT / "games" / "legendary_inventors.game"))
    state = game.new_game(3, 1)
    out = io.StringIO()
    render_view(Console(file=out, width=120, markup=False, highlight=False), game, game.view(state, 0))
    text = out.getvalue()
    assert "Leonardo: P1" in text.splitlines()[0]         # a player variable, written as a seat
    assert "P1 (you)  cubes 15 · score 0" in text        # public facts beside the supply
    lines = text.splitlines()
    # components with states: a table under the zone, a labelled column per state shown
    head = lines.index("  inventions:") + 1
    assert lines[head].split() == ["age", "class", "needs", "free", "slots", "cubes", "by", "seat", "tokens"]
    rows = lines[head + 2:head + 8]
    assert all(" 0 0 0 " in line for line in rows) and rows[0].split()[0] == "Axe"
    hypatia = next(line for line in lines if line.strip().startswith("Hypatia"))
    assert hypatia.split()[:6] == ["Hypatia", "0", "0", "1", "1", "-"]   # P1's team, this seed
    assert "out of the game: empty" in text               # nothing has left the game yet
    assert "bonus" not in text and "acted" not in text    # bookkeeping is never shown
