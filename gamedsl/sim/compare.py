"""`gamedsl compare`: two drafts (or two option sets) on the same seeds and seats, side by side.

For each figure of the balance report — win rate per seat and per bot, first-player win
rate, mean score per seat, game length, win rate per declared breakdown — it gives A, B,
B − A and a two-sided p-value (two-proportion z-test for rates, Welch for means); a
difference is called significant below 0.05. "More balanced" compares how far the seats'
win rates lie from the fair share (the largest gap), with the same test on that seat.
"""

from __future__ import annotations

from typing import List

from gamedsl.sim import stats

ALPHA = 0.05


def _row(label: str, a: float, b: float, p: float) -> dict:
    return {"what": label, "a": a, "b": b, "diff": b - a, "p_value": p, "significant": p < ALPHA}


def compare(report_a: dict, records_a: List[dict], report_b: dict, records_b: List[dict]) -> dict:
    rows = []
    n_a, n_b = report_a["games"], report_b["games"]
    coop_a, coop_b = report_a.get("cooperative"), report_b.get("cooperative")
    if coop_a and coop_b:
        # one shared result: how often the players won together, and the shared score
        rows.append(_row("win rate together", coop_a["won"]["rate"], coop_b["won"]["rate"],
                         stats.two_proportions_p(coop_a["won"]["wins"], n_a, coop_b["won"]["wins"], n_b)))
        sa = [r["shared_score"] for r in records_a if isinstance(r.get("shared_score"), (int, float))]
        sb = [r["shared_score"] for r in records_b if isinstance(r.get("shared_score"), (int, float))]
        if sa and sb:
            rows.append(_row("mean shared score", stats.mean(sa), stats.mean(sb), stats.welch_p(sa, sb)))
    teams_b = {e["team"]: e for e in report_b.get("win_rate_by_team", [])}
    for ea in report_a.get("win_rate_by_team", []):
        eb = teams_b.get(ea["team"])
        if eb:
            rows.append(_row(f"win rate team {ea['team']}", ea["rate"], eb["rate"],
                             stats.two_proportions_p(ea["wins"], ea["games"], eb["wins"], eb["games"])))
    for ea, eb in zip(report_a["win_rate_by_seat"], report_b["win_rate_by_seat"]):
        rows.append(_row(f"win rate {ea['seat']}", ea["rate"], eb["rate"],
                         stats.two_proportions_p(ea["wins"], n_a, eb["wins"], n_b)))
    for bot, ea in report_a["win_rate_by_bot"].items():
        eb = report_b["win_rate_by_bot"].get(bot)
        if eb:
            rows.append(_row(f"win rate {bot}", ea["rate"], eb["rate"],
                             stats.two_proportions_p(ea["wins"], ea["games"], eb["wins"], eb["games"])))
    players = min(report_a["players"], report_b["players"])
    for s in range(players):
        sa = [r["scores"][s] for r in records_a if r["scores"]]
        sb = [r["scores"][s] for r in records_b if r["scores"]]
        if sa and sb and all(isinstance(x, (int, float)) for x in sa + sb):
            rows.append(_row(f"mean score P{s + 1}", stats.mean(sa), stats.mean(sb), stats.welch_p(sa, sb)))
    ta = [r["turns"] for r in records_a]
    tb = [r["turns"] for r in records_b]
    rows.append(_row("mean game length (turns)", stats.mean(ta), stats.mean(tb), stats.welch_p(ta, tb)))
    for name, ba in report_a["breakdowns"].items():
        bb = report_b["breakdowns"].get(name)
        if not (ba.get("by_value") and bb and bb.get("by_value")):
            continue
        for value, ea in ba["by_value"].items():
            eb = bb["by_value"].get(value)
            if eb:
                rows.append(_row(f"win rate {name}={value}", ea["rate"], eb["rate"],
                                 stats.two_proportions_p(ea["wins"], ea["games"], eb["wins"], eb["games"])))
    balance = {"a": _imbalance(report_a, records_a), "b": _imbalance(report_b, records_b)}
    gap_a, gap_b = balance["a"]["gap"], balance["b"]["gap"]
    more = "b" if gap_b < gap_a else "a" if gap_a < gap_b else None
    balance["more_balanced"] = more
    balance["significant"] = bool(more) and (balance["b" if more == "a" else "a"]["p_value"] < ALPHA)
    return {"a": report_a["file"], "b": report_b["file"], "games": [n_a, n_b], "rows": rows, "balance": balance}


def _imbalance(report: dict, records: List[dict]) -> dict:
    """The seat (the team, in a team game) whose win rate lies furthest from the fair share, and
    whether that gap is real. A cooperative game's players share one result: no seat is favoured."""
    if report.get("cooperative"):
        return {"seat": "everyone", "rate": report["cooperative"]["won"]["rate"], "gap": 0.0, "p_value": 1.0}
    teams = report.get("win_rate_by_team")
    entries = [dict(e, seat="team " + e["team"]) for e in teams] if teams else report["win_rate_by_seat"]
    fair = 1.0 / len(entries)
    worst = max(entries, key=lambda e: abs(e["rate"] - fair))
    return {"seat": worst["seat"], "rate": worst["rate"], "gap": abs(worst["rate"] - fair),
            "p_value": stats.binomial_p(worst["wins"], worst["games"], fair)}


def render(result: dict, label_a: str = "A", label_b: str = "B") -> str:
    lines = [f"A = {result['a']}", f"B = {result['b']}", f"{result['games'][0]} games each, same seeds and seats", "",
             f"{'':34}{'A':>9}{'B':>9}{'B - A':>9}{'p':>8}"]
    for r in result["rows"]:
        pct = r["what"].startswith("win rate")
        fmt = (lambda x: f"{100 * x:8.1f}%") if pct else (lambda x: f"{x:9.2f}")
        mark = "  *" if r["significant"] else ""
        lines.append(f"{r['what'][:33]:<34}{fmt(r['a'])}{fmt(r['b'])}{fmt(r['diff'])}{r['p_value']:8.3f}{mark}")
    lines.append("(* significant at p < 0.05)")
    bal = result["balance"]
    lines.append("")
    for side in ("a", "b"):
        b = bal[side]
        if b["seat"] == "everyone":
            lines.append(f"{side.upper()}: cooperative, every seat shares one result (won together "
                         f"{100 * b['rate']:.1f}%)")
            continue
        lines.append(f"{side.upper()}: the least fair seat is {b['seat']} at {100 * b['rate']:.1f}% "
                     f"(gap {100 * b['gap']:.1f} points from the fair share, p = {b['p_value']:.3f})")
    if bal["more_balanced"] is None:
        lines.append("neither draft is more balanced")
    else:
        other = "a" if bal["more_balanced"] == "b" else "b"
        certain = ("and the other's imbalance is significant" if bal["significant"]
                   else "but the other's imbalance is not significant: more games may tell")
        lines.append(f"{bal['more_balanced'].upper()} is more balanced than {other.upper()}, {certain}")
    return "\n".join(lines)
