"""The web table in a real browser (Chromium, driven by Playwright): two seats in two
browser contexts play tic-tac-toe and a hand of Trade Tycoon with a bot; a hot-seat game;
a bad token. Every websocket frame a page received and its final DOM are checked against
what its seat may see. Waits are on DOM conditions only (the page's #status says which
version of the table it shows and whether it is that seat's move)."""

from __future__ import annotations

import json
import random
import time

import pytest

from gamedsl.logs import replay
from tests.web.conftest import Seat, hidden_words


def states_of(table):
    """The table's state after each move (index: the version a page was sent)."""
    game = table.game
    state = game.new_game(len(table.seats), table.seed, table.state["options"], table.max_turns)
    out = [state]
    for move, _ in table.moves:
        state = game.apply(state, move)
        out.append(state)
    return out


def check_secrets(table, seat: int, texts) -> None:
    """Every state frame holds exactly its seat's view of that version; no text (frame or DOM)
    names a component the seat never saw."""
    game = table.game
    states = states_of(table)
    seen = set()
    for state in states:
        seen |= set(game.view(state, seat)["shows"])
    for text in texts:
        msg = json.loads(text) if text.startswith("{") else None
        if msg and msg.get("type") == "state":
            assert msg["seat"] == seat
            expected = json.loads(json.dumps(game.view(states[msg["version"]], seat)))
            assert msg["view"] == expected, f"P{seat + 1}'s frame at version {msg['version']} is not its view"
        elif msg and msg.get("type") == "pass":
            assert "view" not in msg and "log" not in msg
    cat = game.catalogue(table.state)
    seen_shows = {cat.show[int(c)] for c in seen}
    unseen_shows = {cat.show[c] for c in range(len(cat.show)) if str(c) not in seen}
    assert not hidden_words(texts, seen_shows, unseen_shows)


def click_first_move(page) -> None:
    """The first move listed (opening its group when moves are grouped by a parameter)."""
    if page.locator("button.move:visible").count() == 0:
        page.click("details.param > summary >> nth=0")
    page.click("button.move:visible >> nth=0")


def play_until_over(seats, limit=60):
    """Each page moves when #status says it is its move, until every page says the game is over."""
    for _ in range(limit):
        if all(s.page.get_attribute("#status", "data-over") == "yes" for s in seats):
            return
        for s in seats:
            page = s.page
            if page.get_attribute("#status", "data-your-turn") == "yes" and \
                    page.get_attribute("#status", "data-over") != "yes":
                v = s.version()
                click_first_move(page)
                page.wait_for_function(f"Number(document.querySelector('#status').dataset.version) > {v}"
                                       " || !document.querySelector('#refusal').hidden")
                assert page.is_hidden("#refusal"), page.inner_text("#refusal")
                break
        else:
            # nobody's move here: a bot thinks, or the table changes; wait for any page to move on
            # (the next move may be another page's, whose news this page never gets: a
            # secret choice's seat, a hand only its owner sees)
            versions = [s.version() for s in seats]
            moved_on = ("([v]) => Number(document.querySelector('#status').dataset.version) > v"
                        " || document.querySelector('#status').dataset.yourTurn === 'yes'"
                        " || document.querySelector('#status').dataset.over === 'yes'")
            deadline = time.monotonic() + 15
            while not any(s.page.evaluate(moved_on, [v]) for s, v in zip(seats, versions)):
                if time.monotonic() > deadline:
                    raise AssertionError("no page moved on within 15 s")
                seats[0].page.wait_for_timeout(50)
    raise AssertionError("the game did not end")


def test_two_seats_play_tictactoe(browser, serve_table, tmp_path):
    served = serve_table("examples/tictactoe.game", ["human", "human"], seed=1)
    urls = served.urls()
    p1, p2 = Seat(browser, urls["P1"]), Seat(browser, urls["P2"])
    try:
        p1.status(version=0, your_turn="yes")
        p2.status(version=0, your_turn="no")
        assert p1.page.locator("table.board td").count() == 9
        for n, (page, cell) in enumerate([(p1, "0,0"), (p2, "0,1"), (p1, "1,0"), (p2, "1,1"), (p1, "2,0")]):
            page.status(version=n, your_turn="yes")
            page.page.click(f'button.move:text-is("place {cell}")')
        for s in (p1, p2):
            s.status(version=5, over="yes")
            assert "Winners: P1" in s.page.inner_text("#winners")
        assert p2.page.inner_text('table.board td[data-cell="2,0"]') == p1.page.inner_text('table.board td[data-cell="0,0"]')
        with p2.page.expect_download() as got:
            p2.page.click("#download-log")
        log = tmp_path / "ttt.jsonl"
        got.value.save_as(log)
        done = replay(log)
        assert done.game.is_over(done.state) and done.log.result["winners"] == [0]
        for seat, s in enumerate((p1, p2)):
            check_secrets(served.table, seat, s.frames + [s.page.content()])
    finally:
        p1.close()
        p2.close()


def test_trade_tycoon_hand_with_a_bot(browser, serve_table):
    served = serve_table("games/trade_tycoon.game", ["human", "human", "random"], seed=3, max_turns=2)
    urls = served.urls()
    seats = [Seat(browser, urls["P1"]), Seat(browser, urls["P2"])]
    try:
        for s in seats:
            s.page.wait_for_selector(".player")
        # a hand is hidden: the other human's hand shows as backs, one's own as cards
        assert seats[0].page.locator('.player[data-seat="1"] .card.back').count() > 0
        assert seats[0].page.locator('.player[data-seat="0"] [data-zone="hand"] .card:not(.back)').count() > 0
        play_until_over(seats)
        for s in seats:
            s.page.wait_for_selector("#game-over")
        assert served.table.game.is_over(served.table.state)
        for seat, s in enumerate(seats):
            check_secrets(served.table, seat, s.frames + [s.page.content()])
    finally:
        for s in seats:
            s.close()


def test_hot_seat_hides_each_hand(browser, serve_table):
    served = serve_table("examples/high_card.game", ["human", "human"], seed=7, hot_seat=True,
                         options={"target": 10})
    (url,) = served.urls().values()
    s = Seat(browser, url)
    try:
        for _ in range(40):
            s.page.wait_for_selector("#pass:not([hidden]), #table:not([hidden])")
            if s.page.get_attribute("#status", "data-over") == "yes":
                break
            if s.page.is_visible("#pass"):
                assert s.page.is_hidden("#table")
                assert s.page.locator("#board *").count() == 0  # the last hand left the page
                who = int(s.page.get_attribute("#pass button.ready", "data-seat"))
                s.page.click("#pass button.ready")
                s.status(kind="state", seat=who, your_turn="yes")
            v = s.version()
            click_first_move(s.page)
            s.page.wait_for_function(f"Number(document.querySelector('#status').dataset.version) > {v}")
        s.status(over="yes")
        s.page.click('#pass button.ready[data-seat="0"]')   # at the end, each hand in turn
        s.status(kind="state", seat=0, over="yes")
        s.page.click('#result button.ready[data-seat="1"]')
        s.status(kind="state", seat=1, over="yes")
        frames = [json.loads(f) for f in s.frames if f.startswith("{")]
        kinds = [f["type"] for f in frames]
        assert "pass" in kinds and "state" in kinds
        # after each pass, the next state frame is of the seat the device was passed to
        for a, b in zip(frames, frames[1:]):
            if a["type"] == "pass" and b["type"] == "state" and a["seat"] is not None:
                assert b["seat"] == a["seat"]
    finally:
        s.close()


def test_a_bad_token_is_refused(browser, serve_table):
    served = serve_table("examples/tictactoe.game", ["human", "human"])
    s = Seat(browser, served.base + "/t/not-a-seat")
    try:
        assert s.page.inner_text("#refused") == "No such seat"
        assert not s.frames
    finally:
        s.close()


def test_the_clock_counts_down_and_time_runs_out(browser, serve_table):
    served = serve_table("examples/quick_count.game", ["human", "human"], seed=1, options={"turn_seconds": 2})
    urls = served.urls()
    first = served.table.waiting_humans()[0]
    s = Seat(browser, urls[f"P{first + 1}"])
    try:
        s.status(version=0, your_turn="yes")
        assert "second" in s.page.inner_text("#clock")
        s.status(version=1)  # the server ran the clock out and moved on (the clock started with the page)
        assert "time ran out" in s.page.inner_text("#log")
        assert served.table.moves[0][0]["alt"] == served.table.game.timeout_move(served.table.state, first)["alt"]
    finally:
        s.close()


def test_a_player_out_of_the_round_is_marked(browser, serve_table):
    served = serve_table("examples/knockout.game", ["human", "human", "human"], seed=2)
    game, state = served.table.game, served.table.state
    rng = random.Random(2)
    while not state["flow"].get("out") and not game.is_over(state):
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    assert state["flow"]["out"] and not game.is_over(state)
    served.table.state = state
    out = state["flow"]["out"][0]
    s = Seat(browser, served.urls()["P1"])
    try:
        s.page.wait_for_selector(".player")
        marked = s.page.locator(".player.out")
        assert marked.count() == len(state["flow"]["out"])
        assert "out of the round" in s.page.locator(f'.player[data-seat="{out}"] h2').inner_text()
        assert s.page.locator(".player:not(.out)").count() == 3 - len(state["flow"]["out"])
    finally:
        s.close()


def test_a_hint_shows_the_suggested_moves_as_buttons(browser, serve_table):
    served = serve_table("tests/sim/games/say_a_rank.game", ["human", "random"], seed=1, hints=True)
    table = served.table
    hand = sorted({table.game.catalogue(table.state).attrs[c]["rank"] for c in table.state["zones"]["hand"][0]})
    s = Seat(browser, served.urls()["P1"])
    try:
        s.status(version=0, your_turn="yes")
        assert s.page.locator("#suggested").count() == 0  # nothing shown before asking
        s.page.click("#ask-hint")
        s.page.wait_for_selector("#suggested button.move")
        assert s.page.locator("#suggested button.move").all_inner_texts() == [f"say {r}" for r in hand]
        s.page.click(f'#suggested button.move:text-is("say {hand[0]}")')
        s.page.wait_for_function("Number(document.querySelector('#status').dataset.version) > 0")
        assert table.moves[0][1] == f"say {hand[0]}"
    finally:
        s.close()
