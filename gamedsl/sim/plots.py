"""PNG plots of a balance report (matplotlib, drawn off-screen). Returns the files written."""

from __future__ import annotations

from pathlib import Path
from typing import List


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _rates(plt, path: Path, title: str, labels: List[str], entries: List[dict], fair=None) -> None:
    fig, ax = plt.subplots(figsize=(max(4, 1.2 * len(labels) + 2), 3.5))
    rates = [e["rate"] for e in entries]
    low = [e["rate"] - e["ci95"][0] for e in entries]
    high = [e["ci95"][1] - e["rate"] for e in entries]
    ax.bar(labels, rates, yerr=[low, high], capsize=4, color="#4c72b0")
    if fair is not None:
        ax.axhline(fair, color="grey", linestyle="--", linewidth=1, label="fair share")
        ax.legend()
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% interval)")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def write_plots(report: dict, records: List[dict], out: Path) -> List[Path]:
    plt = _pyplot()
    out.mkdir(parents=True, exist_ok=True)
    files = []
    seats = report["win_rate_by_seat"]
    path = out / "win_rate_by_seat.png"
    _rates(plt, path, f"{report['game']}: win rate by seat", [e["seat"] for e in seats], seats,
           fair=1 / report["players"])
    files.append(path)
    bots = report["win_rate_by_bot"]
    path = out / "win_rate_by_bot.png"
    _rates(plt, path, "win rate by bot", list(bots), list(bots.values()))
    files.append(path)

    played = [r for r in records if r["scores"]]
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for s in range(report["players"]):
        values = [r["scores"][s] for r in played if isinstance(r["scores"][s], (int, float))]
        if values:
            ax.hist(values, bins=20, alpha=0.5, label=f"P{s + 1}")
    ax.set_xlabel("score")
    ax.set_ylabel("games")
    ax.set_title("score distribution by seat")
    ax.legend()
    fig.tight_layout()
    path = out / "scores.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    files.append(path)

    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.hist([r["turns"] for r in records], bins=20, color="#55a868")
    ax.set_xlabel("turns")
    ax.set_ylabel("games")
    ax.set_title("game length")
    fig.tight_layout()
    path = out / "game_length.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    files.append(path)

    for name, b in report["breakdowns"].items():
        if not b["by_value"]:
            continue
        path = out / f"win_rate_by_{name}.png"
        _rates(plt, path, f"win rate by {name}", list(b["by_value"]), list(b["by_value"].values()))
        files.append(path)
    return files
