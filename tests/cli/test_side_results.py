"""`gamedsl play` reports a cooperative game's shared result and a team game's teams as such."""

from pathlib import Path

from gamedsl.cli.main import main

ROOT = Path(__file__).resolve().parents[2]


def test_play_reports_a_cooperative_result_together(capsys):
    assert main(["play", str(ROOT / "examples" / "bucket_brigade.game"), "--seats", "greedy,greedy",
                 "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "everyone won together · shared score 9" in out
    assert "winners:" not in out


def test_play_ranks_teams(capsys):
    assert main(["play", str(ROOT / "examples" / "partner_tricks.game"), "--seats", "random,random,random,random",
                 "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "  1. team P1+P3  score 4  winners" in lines
    assert "  2. team P2+P4  score 2" in lines
    assert lines[-1] == "winners: team P1+P3"
