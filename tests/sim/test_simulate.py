"""simulate and compare: reproducible across jobs, reports that add up, coverage of dead rules, the CLI."""

from __future__ import annotations

import json
from pathlib import Path

from gamedsl.cli.main import main
from gamedsl.pipeline import load
from gamedsl.sim.report import build
from gamedsl.sim.simulate import SimSpec, run

ROOT = Path(__file__).resolve().parents[2]
HIGH_CARD = str(ROOT / "examples" / "high_card.game")
DEAD = str(Path(__file__).resolve().parents[1] / "sim" / "games" / "dead_rules.game")


def test_same_seed_same_results_with_one_or_two_jobs():
    spec = SimSpec(path=HIGH_CARD, seats=["mcts:iters=10", "random", "greedy"], games=6, seed=11, rotate=True)
    one, two = run(spec, jobs=1), run(spec, jobs=2)
    assert one.records == two.records
    assert one.coverage == two.coverage
    assert [r["seed"] for r in one.records] == list(range(11, 17))
    assert one.records[1]["seats"] == ["random", "greedy", "mcts:iters=10"]  # rotated by one
    assert len({json.dumps(r["scores"]) for r in one.records}) > 1


def test_report_adds_up():
    spec = SimSpec(path=HIGH_CARD, seats=["random", "random"], games=20, seed=1)
    sim = run(spec, jobs=1)
    report = build(sim, load(HIGH_CARD))
    seats = report["win_rate_by_seat"]
    assert abs(sum(e["wins"] for e in seats) - 20) < 1e-9  # every finished game has its winners
    for e in seats:
        assert e["ci95"][0] <= e["rate"] <= e["ci95"][1]
    assert report["win_rate_by_bot"]["random"]["games"] == 40
    assert report["length"]["turns"]["n"] == 20
    assert report["scores"]["P1"]["mean"] == sum(r["scores"][0] for r in sim.records) / 20


def test_coverage_reports_what_can_never_fire():
    game = load(DEAD)
    sim = run(SimSpec(path=DEAD, seats=["random", "greedy"], games=8, seed=1), jobs=1)
    cov = build(sim, game)["coverage"]
    assert [p["phase"] for p in cov["phases"]] == ["extra"]
    assert [c["alternative"] for c in cov["choices"]] == ["wait"]
    lines = sorted(int(r["at"].rsplit(":", 1)[1]) for r in cov["rules"])
    text = Path(DEAD).read_text().splitlines()
    assert [text[n - 1].strip() for n in lines] == ['say "never"', 'say "an extra phase"']
    assert [r["statements"] for r in sorted(cov["rules"], key=lambda r: r["at"])] == [2, 1]
    assert [(c["kind"], c["copies"]) for c in cov["components"]] == [("gem", 1)]
    assert [(t["table"], t["row"]) for t in cov["table_rows"]] == [("bonus", 2), ("bonus", 3)]


def test_simulate_command_writes_results_report_and_plots(tmp_path, capsys):
    out = tmp_path / "sim"
    code = main(["simulate", HIGH_CARD, "-n", "4", "--seats", "mcts:iters=5,random", "--jobs", "1",
                 "--quiet", "--out", str(out), "--option", "target=15"])
    printed = capsys.readouterr().out
    assert code == 0
    assert "win rate by seat" in printed and "first player" in printed and "rule coverage" in printed
    lines = (out / "results.jsonl").read_text().splitlines()
    assert len(lines) == 4
    first = json.loads(lines[0])
    assert {"seed", "seats", "scores", "winners", "turns", "fields"} <= set(first)
    report = json.loads((out / "report.json").read_text())
    assert report["options"]["target"] == 15 and report["games"] == 4
    for png in ("win_rate_by_seat.png", "win_rate_by_bot.png", "scores.png", "game_length.png"):
        assert (out / png).read_bytes()[:4] == b"\x89PNG"


def test_simulate_reports_breakdowns_by_result_fields():
    path = str(Path(__file__).resolve().parents[1] / "sim" / "games" / "low_cards.game")
    sim = run(SimSpec(path=path, seats=["random", "random"], games=12, seed=1), jobs=1)
    by_value = build(sim, load(path))["breakdowns"]["last_guess"]["by_value"]
    assert set(by_value) <= {"1", "2", "3"} and sum(e["games"] for e in by_value.values()) == 24
    for value, e in by_value.items():
        wins = sum(1 / len(r["winners"]) for r in sim.records for s in r["winners"]
                   if str(r["fields"]["last_guess"][s]) == value)
        assert abs(e["wins"] - wins) < 1e-6


def test_compare_two_option_sets(tmp_path, capsys):
    pearl = str(ROOT / "examples" / "pearl_auction.game")
    code = main(["compare", pearl, "-n", "6", "--seats", "random,random", "--jobs", "1", "--quiet",
                 "--b-option", "lot_size=2", "--out", str(tmp_path)])
    printed = capsys.readouterr().out
    assert code == 0
    result = json.loads((tmp_path / "compare.json").read_text())
    rows = {r["what"]: r for r in result["rows"]}
    length = rows["mean game length (turns)"]  # 28 pearls: 9 lots of 3, 14 lots of 2
    assert (length["a"], length["b"], length["significant"]) == (9, 14, True)
    assert "more balanced" in printed or "neither draft" in printed
    assert (tmp_path / "a" / "report.json").exists() and (tmp_path / "b" / "report.json").exists()


def test_simulate_usage_errors(capsys):
    assert main(["simulate", HIGH_CARD, "--seats", "human,random", "-n", "2"]) == 2
    assert "bots only" in capsys.readouterr().err
    assert main(["simulate", HIGH_CARD, "--seats", "mcts:iters=x,random", "-n", "2", "--quiet"]) == 2
    assert "iters must be" in capsys.readouterr().err
    assert main(["compare", HIGH_CARD, "--seats", "random,random", "-n", "2"]) == 2
    assert "two drafts" in capsys.readouterr().err


def test_play_takes_bot_parameters(capsys):
    assert main(["play", HIGH_CARD, "--seats", "mcts:iters=10,random", "--seed", "2"]) == 0
    assert "winners:" in capsys.readouterr().out
