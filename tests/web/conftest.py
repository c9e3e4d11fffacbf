"""The web table's test helpers: a table served on loopback in a thread, and Chromium driven
by Playwright (the system's /usr/bin/chromium: Playwright's own browser download is not used)."""

from __future__ import annotations

import os
import re
import threading
from pathlib import Path

import pytest

from gamedsl import load
from gamedsl.web import Table
from gamedsl.web.run import base_url, bind, server_for

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("GAMEDSL_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
TIMEOUT_MS = 15_000  # a DOM condition that takes longer than this has failed


class Served:
    """A table served at http://127.0.0.1:<free port> until `stop`."""

    def __init__(self, table: Table):
        self.table = table
        sock = bind("127.0.0.1", 0)
        self.base = base_url(sock)
        self.server = server_for(table)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]}, daemon=True)
        self.thread.start()
        for _ in range(500):
            if self.server.started:
                break
            self.thread.join(0.01)
        assert self.server.started, "the server did not start"

    def urls(self) -> dict:
        """label -> url ("P1", "P2", or the hot seat's label)"""
        return dict(self.table.seat_urls(self.base))

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture
def serve_table():
    served = []

    def start(path: str, seats, seed: int = 1, **kw) -> Served:
        game = load(str(ROOT / path))
        s = Served(Table(game, seats, seed, game_path=str(ROOT / path), **kw))
        served.append(s)
        return s

    yield start
    for s in served:
        s.stop()


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright import sync_api
    except ImportError:  # a failure, not a skip: CI must not lose the browser tests quietly
        pytest.fail("Playwright is not installed: pip install -e '.[dev]'")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: apt-get install -y chromium (as .ci/run does)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


class Seat:
    """One browser context on one seat's page, keeping every websocket frame it received."""

    def __init__(self, browser, url: str):
        self.context = browser.new_context(accept_downloads=True, bypass_csp=True)  # (wait_for_function evaluates a string)
        self.context.set_default_timeout(TIMEOUT_MS)
        self.page = self.context.new_page()
        self.frames = []
        self.page.on("websocket", lambda ws: ws.on("framereceived", lambda f: self.frames.append(f)))
        self.page.goto(url)

    def status(self, **data) -> None:
        """Wait until #status has these data- attributes (version=3, your_turn="yes", ...)."""
        sel = "#status" + "".join(f'[data-{k.replace("_", "-")}="{v}"]' for k, v in data.items())
        self.page.wait_for_selector(sel, state="attached")

    def version(self) -> int:
        return int(self.page.get_attribute("#status", "data-version"))

    def close(self) -> None:
        self.context.close()


def hidden_words(texts, seen_shows, unseen_shows):
    """The shows of components a seat never saw (and no component it saw shares) that occur
    as whole words in any of `texts`."""
    leaks = []
    for show in set(unseen_shows) - set(seen_shows):
        pattern = re.compile(r"(?<![\w.])" + re.escape(show) + r"(?![\w.])")
        leaks += [(show, t[:200]) for t in texts if pattern.search(t)]
    return leaks
