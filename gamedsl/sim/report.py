"""The balance report of a simulation run: win rates, advantage, distributions, breakdowns, coverage.

`build(run, game)` turns a SimRun into plain JSON data (report.json); `render(report)` writes
it for the terminal. A win counts 1/k for each of k tied winners; games whose rules failed
or that stopped unfinished count as played and not won.
"""

from __future__ import annotations

from typing import Dict, List

from gamedsl.sim import stats
from gamedsl.sim.coverage import never_fired

MAX_CATEGORIES = 20


def _rate(wins: float, games: int) -> dict:
    low, high = stats.wilson(wins, games)
    return {"games": games, "wins": round(wins, 6), "rate": wins / games if games else 0.0,
            "ci95": [round(low, 6), round(high, 6)]}


def win_share(record: dict, seat: int) -> float:
    """The seat's share of the game's win: 1/k for k tied winners — k tied winning teams in a
    team game (each player of a team has its team's share), 1 for everyone of a cooperative
    game that was won."""
    winners = record.get("winners") or []
    if seat not in winners:
        return 0.0
    if record.get("cooperative"):
        return 1.0
    if record.get("teams"):
        return 1.0 / sum(1 for side in record["teams"] if side[0] in winners)
    return 1.0 / len(winners)


def team_label(side: List[int]) -> str:
    return "+".join(f"P{s + 1}" for s in side)


def sides_report(records: List[dict], played: List[dict]) -> dict:
    """A cooperative game's shared result (how often won, lost, or ended without a verdict,
    and the shared score), or a team game's win rate and score by team; {} otherwise."""
    games = len(records)
    if any(r.get("cooperative") for r in records):
        won = sum(1 for r in records if r.get("outcome") == "won")
        lost = sum(1 for r in records if r.get("outcome") == "lost")
        return {"cooperative": {"won": _rate(won, games), "lost": _rate(lost, games),
                                "no_verdict": sum(1 for r in played if r.get("cooperative") and r["outcome"] is None),
                                "shared_score": stats.summary([r["shared_score"] for r in played
                                                               if isinstance(r.get("shared_score"), (int, float))])}}
    teamed = [r for r in records if r.get("teams")]
    if not teamed:
        return {}
    wins: Dict[str, float] = {}
    seen: Dict[str, int] = {}
    scores: Dict[str, List[float]] = {}
    for r in teamed:
        for side, score in zip(r["teams"], r["team_scores"]):
            key = team_label(side)
            wins[key] = wins.get(key, 0.0) + win_share(r, side[0])
            seen[key] = seen.get(key, 0) + 1
            if isinstance(score, (int, float)):
                scores.setdefault(key, []).append(score)
    return {"win_rate_by_team": [dict(_rate(wins[k], seen[k]), team=k, score=stats.summary(scores.get(k, [])))
                                 for k in sorted(seen, key=lambda k: [int(x[1:]) for x in k.split("+")])]}


def build(run, game) -> dict:
    records = run.records
    spec = run.spec
    n = len(spec.seats)
    games = len(records)
    played = [r for r in records if r["error"] is None or r["forfeit"] is not None]
    by_seat = [_rate(sum(win_share(r, s) for r in records), games) for s in range(n)]
    for s, entry in enumerate(by_seat):
        entry["seat"] = f"P{s + 1}"
        entry["bots"] = sorted({r["seats"][s] for r in records})
    bot_wins: Dict[str, float] = {}
    bot_games: Dict[str, int] = {}
    for r in records:
        for s, spec_s in enumerate(r["seats"]):
            bot_wins[spec_s] = bot_wins.get(spec_s, 0.0) + win_share(r, s)
            bot_games[spec_s] = bot_games.get(spec_s, 0) + 1
    by_bot = {b: _rate(bot_wins[b], bot_games[b]) for b in bot_games}
    first = by_seat[0] if by_seat else _rate(0, 0)
    sides = sides_report(records, played)
    # the fair share is one side's: a team's in a team game (a cooperative game has no other side)
    fair = 1.0 / (len(sides["win_rate_by_team"]) if sides.get("win_rate_by_team") else n)
    advantage = {"seat": "P1", "rate": first["rate"], "ci95": first["ci95"], "fair_share": fair,
                 "p_value": stats.binomial_p(first["wins"], games, fair)}
    scores = {f"P{s + 1}": stats.summary([r["scores"][s] for r in played if r["scores"]
                                           and isinstance(r["scores"][s], (int, float))]) for s in range(n)}
    lengths = {"turns": stats.summary([r["turns"] for r in played]),
               "moves": stats.summary([r["moves"] for r in played])}
    report = {
        "game": game.title, "file": spec.path, "games": games, "players": n, "seats": spec.seats,
        "complete": getattr(run, "complete", True), "games_planned": spec.games,
        "rotate": spec.rotate, "seed": spec.seed, "options": run.resolved_options,
        "seconds": round(run.seconds, 3), "games_per_second": round(games / run.seconds, 3) if run.seconds else None,
        "finished": sum(1 for r in records if r["finished"]),
        "unfinished": sum(1 for r in records if r["unfinished"]),
        "errors": [{"game": r["game"], "seed": r["seed"], "error": r["error"]}
                   for r in records if r["error"] is not None and r["forfeit"] is None][:20],
        "forfeits": sum(1 for r in records if r["forfeit"] is not None),
        "win_rate_by_seat": by_seat, "win_rate_by_bot": by_bot, "first_player": advantage,
        "scores": scores, "lowest_wins": bool(getattr(game, "lowest_wins", False)),
        "length": lengths, "breakdowns": breakdowns(records),
        "coverage": never_fired(game, run.coverage, n, run.resolved_options),
    }
    report.update(sides)
    return report


def breakdowns(records: List[dict]) -> dict:
    """Win rate by each declared `result` field's value (a player's style, say), over player-games."""
    out: dict = {}
    names = sorted({name for r in records for name in (r.get("fields") or {})})
    for name in names:
        wins: Dict[str, float] = {}
        seen: Dict[str, int] = {}
        numeric: Dict[str, List[float]] = {"winners": [], "others": []}
        for r in records:
            values = (r.get("fields") or {}).get(name)
            if values is None:
                continue
            for seat, v in enumerate(values):
                key = str(v)
                share = win_share(r, seat)
                wins[key] = wins.get(key, 0.0) + share
                seen[key] = seen.get(key, 0) + 1
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    numeric["winners" if share > 0 else "others"].append(v)
        if len(seen) <= MAX_CATEGORIES:
            out[name] = {"by_value": {k: _rate(wins[k], seen[k]) for k in sorted(seen, key=_natural)}}
        else:
            out[name] = {"by_value": None}
        if numeric["winners"] or numeric["others"]:
            out[name]["mean_of_winners"] = stats.mean(numeric["winners"])
            out[name]["mean_of_others"] = stats.mean(numeric["others"])
    return out


def _natural(text: str):
    try:
        return (0, float(text), text)
    except ValueError:
        return (1, 0.0, text)


# ---------------------------------------------------------------- text


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def _ci(entry: dict) -> str:
    low, high = entry["ci95"]
    return f"{_pct(entry['rate'])}  [{_pct(low)} – {_pct(high)}]"


def _num(x) -> str:
    if x is None:
        return "-"
    return f"{x:.1f}" if isinstance(x, float) and not float(x).is_integer() else f"{x:g}"


def render(report: dict) -> str:
    lines = [f"{report['game']}: {report['games']} games, {report['players']} players, seats "
             f"{', '.join(report['seats'])}{' (rotated)' if report['rotate'] else ''}, seeds {report['seed']}.."
             f"{report['seed'] + report['games'] - 1}"]
    if not report.get("complete", True):
        lines.append(f"PARTIAL RUN: stopped after {report['games']} of {report['games_planned']} games; "
                     "the figures below are of the games that finished")
    if report["options"]:
        lines.append("options: " + ", ".join(f"{k}={v}" for k, v in report["options"].items()))
    lines.append(f"{report['finished']} finished, {report['unfinished']} unfinished (turn bound), "
                 f"{len(report['errors'])} failed, {report['forfeits']} forfeited; "
                 f"{report['seconds']:.1f} s ({report['games_per_second'] or 0:.1f} games/s)")
    for e in report["errors"][:5]:
        lines.append(f"  game {e['game']} (seed {e['seed']}): {e['error']}")
    lines.append("")
    coop = report.get("cooperative")
    if coop:
        # one shared result: how often the players won together, not a rate per seat
        lines.append(f"cooperative: everyone won together {_ci(coop['won'])}")
        lines.append(f"             everyone lost together {_ci(coop['lost'])}")
        if coop["no_verdict"]:
            lines.append(f"             ended without a verdict in {coop['no_verdict']} games")
        s = coop["shared_score"]
        if s["n"]:
            lines.append(f"shared score: mean {_num(s['mean'])}, sd {_num(s['sd'])}, min {_num(s['min'])}, "
                         f"median {_num(s['median'])}, max {_num(s['max'])}")
    if report.get("win_rate_by_team"):
        lines.append("win rate by team (95% interval):")
        for e in report["win_rate_by_team"]:
            mean = f"   mean team score {_num(e['score']['mean'])}" if e["score"]["n"] else ""
            lines.append(f"  {e['team']:<8} {_ci(e)}{mean}")
    if not coop:
        lines.append("win rate by seat (95% interval):")
        for e in report["win_rate_by_seat"]:
            lines.append(f"  {e['seat']:<4} {_ci(e)}   ({', '.join(e['bots'])})")
    lines.append("win rate by bot:")
    for bot, e in report["win_rate_by_bot"].items():
        lines.append(f"  {bot:<24} {_ci(e)}   over {e['games']} seats")
    fp = report["first_player"]
    verdict = "significant" if fp["p_value"] < 0.05 else "not significant"
    if not coop:
        lines.append(f"first player: P1 wins {_pct(fp['rate'])} vs a fair {_pct(fp['fair_share'])} "
                     f"(p = {fp['p_value']:.3f}, {verdict})")
    if len(set(report["seats"])) > 1 and not report["rotate"]:
        lines.append("  (different bots sit in fixed seats: use --rotate to tell the seat's advantage from the bot's)")
    lines.append("")
    lines.append("scores:          mean     sd    min    p25 median    p75    max")
    for seat, s in report["scores"].items():
        if s["n"]:
            lines.append(f"  {seat:<10}" + "".join(f"{_num(s[k]):>7}" for k in
                                                    ("mean", "sd", "min", "p25", "median", "p75", "max")))
    if report.get("lowest_wins"):
        lines.append("  (the lowest score wins)")
    for what, s in report["length"].items():
        if s["n"]:
            lines.append(f"game length ({what}): mean {_num(s['mean'])}, median {_num(s['median'])}, "
                         f"min {_num(s['min'])}, p90 {_num(s['p90'])}, max {_num(s['max'])}")
    for name, b in report["breakdowns"].items():
        lines.append("")
        lines.append(f"win rate by {name}:")
        if b["by_value"] is None:
            lines.append(f"  (more than {MAX_CATEGORIES} values)")
        else:
            for value, e in b["by_value"].items():
                lines.append(f"  {value:<16} {_ci(e)}   over {e['games']} players")
        if "mean_of_winners" in b:
            lines.append(f"  mean {name}: winners {_num(b['mean_of_winners'])}, others {_num(b['mean_of_others'])}")
    lines.append("")
    lines.extend(render_coverage(report["coverage"]))
    return "\n".join(lines)


def render_coverage(cov: dict) -> List[str]:
    if not any(cov.values()):
        return ["rule coverage: every phase, choice, rule, component and table row fired"]
    lines = ["rule coverage — never fired in this run:"]
    for p in cov["phases"]:
        lines.append(f"  phase {p['phase']} ({p['at']})")
    for c in cov["choices"]:
        lines.append(f"  choice {c['alternative']} ({c['at']})")
    for r in cov["rules"]:
        more = f" (+{r['statements'] - 1} more)" if r["statements"] > 1 else ""
        lines.append(f"  rule {r['at']}: {r['text']}{more}")
    comps = cov["components"]
    if comps:
        shown = ", ".join(f"{c['component']}" + (f" ×{c['copies']}" if c["copies"] > 1 else "")
                          for c in comps[:15])
        more = f" and {len(comps) - 15} more" if len(comps) > 15 else ""
        lines.append(f"  components never moved or chosen in play: {shown}{more}")
    for t in cov["table_rows"]:
        lines.append(f"  table {t['table']} row {t['row']}: {t['values']}")
    return lines
