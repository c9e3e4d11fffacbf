"""Serve a game's web table on loopback and fetch a seat's page and its files: run by .ci/run
in a fresh non-editable install, so the static files must have been installed as package data.

    python tools/web_smoke.py examples/tictactoe.game
"""

from __future__ import annotations

import sys
import threading
import urllib.request

from gamedsl import load
from gamedsl.web import Table
from gamedsl.web.run import base_url, bind, server_for


def main(path: str) -> int:
    table = Table(load(path), ["human", "human"], 1, game_path=path)
    sock = bind("127.0.0.1", 0)
    base = base_url(sock)
    server = server_for(table)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        for _ in range(1000):
            if server.started:
                break
            thread.join(0.01)
        (label, url), _ = table.seat_urls(base)
        for address in (url, f"{base}/static/table.js", f"{base}/static/style.css"):
            with urllib.request.urlopen(address, timeout=10) as r:
                assert r.status == 200 and r.read(), address
        print(f"ok: the web table of {table.game.title} serves its page and files")
        return 0
    finally:
        server.should_exit = True
        thread.join(10)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
