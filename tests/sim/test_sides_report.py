"""simulate and compare report a cooperative game's shared result and a team game's teams."""

from __future__ import annotations

import json
from pathlib import Path

from gamedsl.cli.main import main
from gamedsl.pipeline import load
from gamedsl.sim.report import build, render
from gamedsl.sim.simulate import SimSpec, run

ROOT = Path(__file__).resolve().parents[2]
COOP = str(ROOT / "examples" / "bucket_brigade.game")
TEAMS = str(ROOT / "examples" / "partner_tricks.game")


def test_a_cooperative_run_reports_how_often_everyone_won_together():
    sim = run(SimSpec(path=COOP, seats=["random", "greedy"], games=12, seed=1), jobs=1)
    report = build(sim, load(COOP))
    coop = report["cooperative"]
    won = sum(1 for r in sim.records if r["outcome"] == "won")
    assert coop["won"]["wins"] == won and coop["lost"]["wins"] == 12 - won - coop["no_verdict"]
    # one shared result: every seat (and so every bot) has the same win rate, the game's
    assert {e["rate"] for e in report["win_rate_by_seat"]} == {won / 12}
    assert coop["shared_score"]["n"] == 12
    text = render(report)
    assert "everyone won together" in text and "first player" not in text


def test_a_team_run_reports_the_win_rate_by_team():
    sim = run(SimSpec(path=TEAMS, seats=["greedy", "random", "greedy", "random"], games=12, seed=1), jobs=1)
    report = build(sim, load(TEAMS))
    teams = {e["team"]: e for e in report["win_rate_by_team"]}
    assert set(teams) == {"P1+P3", "P2+P4"}
    # a game's win is shared between the winning teams (a tie: a half each), not between players
    assert abs(teams["P1+P3"]["wins"] + teams["P2+P4"]["wins"] - 12) < 1e-9
    seats = report["win_rate_by_seat"]
    assert seats[0]["wins"] == seats[2]["wins"] == teams["P1+P3"]["wins"]
    assert report["first_player"]["fair_share"] == 0.5
    assert "win rate by team" in render(report)


def test_compare_reports_the_shared_win_rate(tmp_path, capsys):
    draft = tmp_path / "draft.game"
    draft.write_text(Path(COOP).read_text().replace("len(blaze) >= 4", "len(blaze) >= 5"))
    code = main(["compare", COOP, str(draft), "-n", "4", "--seats", "random,random", "--jobs", "1", "--quiet",
                 "--out", str(tmp_path / "out")])
    printed = capsys.readouterr().out
    assert code == 0
    rows = {r["what"]: r for r in json.loads((tmp_path / "out" / "compare.json").read_text())["rows"]}
    assert "win rate together" in rows and "mean shared score" in rows
    assert "every seat shares one result" in printed
