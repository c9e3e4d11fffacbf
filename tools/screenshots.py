"""Screenshots of the web table mid-game, for the docs: docs/images/web_<game>.png.

    python tools/screenshots.py                  every game below
    python tools/screenshots.py wordomino        only some

Each game is played by seeded random bots for some moves (the same every time), then served
on loopback with P1 as a human seat, and P1's page is photographed in Chromium (the
system's /usr/bin/chromium, driven by Playwright).
"""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gamedsl import load  # noqa: E402
from gamedsl.bots.registry import make_seat  # noqa: E402
from gamedsl.web import Table  # noqa: E402
from gamedsl.web.run import base_url, bind, server_for  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

# name -> (game file, seats, seed, moves played before the photo)
GAMES = {
    "trade_tycoon": ("games/trade_tycoon.game", ["human", "human", "random"], 3, 12),
    "letter_tycoon": ("games/letter_tycoon.game", ["human", "random"], 5, 14),
    "legendary_inventors": ("games/legendary_inventors.game", ["human", "random"], 2, 12),
    "wordomino": ("games/wordomino.game", ["human", "random"], 4, 10),
}


def advance(table: Table, moves: int, seed: int) -> None:
    """Play `moves` moves with seeded random bots in every seat, stopping at P1's choice."""
    bots = [make_seat("random", table.game, s, seed) for s in range(len(table.seats))]
    played = 0
    while not table.over():
        waiting = table.game.waiting_for(table.state)
        if played >= moves and 0 in waiting:
            return
        seat = waiting[0]
        table.apply(bots[seat].choose(table.state))
        played += 1


def photograph(name: str, out: Path) -> Path:
    from playwright.sync_api import sync_playwright

    path, seats, seed, moves = GAMES[name]
    game = load(str(ROOT / path))
    table = Table(game, seats, seed, game_path=str(ROOT / path), timers=False)
    advance(table, moves, seed)
    sock = bind("127.0.0.1", 0)
    base = base_url(sock)
    server = server_for(table)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        while not server.started:
            thread.join(0.01)
        url = dict(table.seat_urls(base))["P1"]
        target = out / f"web_{name}.png"
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 860})
            page.goto(url)
            page.wait_for_selector("#status[data-your-turn='yes']")
            page.screenshot(path=str(target), full_page=False)
            browser.close()
        return target
    finally:
        server.should_exit = True
        thread.join(10)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", choices=[[], *GAMES], default=[], metavar="GAME",
                        help=f"which games (default: all of {', '.join(GAMES)})")
    parser.add_argument("--out", default=str(ROOT / "docs" / "images"), help="the folder for the PNGs")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in args.games or list(GAMES):
        print(photograph(name, out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
