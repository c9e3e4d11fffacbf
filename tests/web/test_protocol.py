"""The web table's protocol over plain HTTP and websockets (Starlette's TestClient, no
browser): the pages and files served, the log, and every kind of message a page may send —
the good ones taken, the malformed or hostile ones refused with the state unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from gamedsl import load
from gamedsl.logs import replay
from gamedsl.web import Refused, Table, create_app
from gamedsl.web.server import STATIC
from gamedsl.web.table import MAX_MESSAGE

ROOT = Path(__file__).resolve().parents[2]


def table(path="examples/tictactoe.game", seats=("human", "human"), seed=1, **kw) -> Table:
    return Table(load(str(ROOT / path)), list(seats), seed, game_path=str(ROOT / path), **kw)


@pytest.fixture
def ttt():
    t = table()
    with TestClient(create_app(t)) as client:
        yield t, client, {seat: tok for tok, seat in t.tokens.items()}


def greeted(conn):
    """(hello, the first state) a page is sent when it connects"""
    hello = conn.receive_json()
    assert hello["type"] == "hello"
    return hello, conn.receive_json()


def refusal(conn) -> str:
    """The message of a refusal, after which the page is sent its table again."""
    answer = conn.receive_json()
    assert answer["type"] == "refused", answer
    again = conn.receive_json()
    assert again["type"] in ("state", "pass")
    return answer["message"]


def test_pages_files_and_tokens(ttt):
    t, client, tokens = ttt
    for seat, tok in tokens.items():
        page = client.get(f"/t/{tok}")
        assert page.status_code == 200 and "table.js" in page.text
        assert "default-src 'self'" in page.headers["content-security-policy"]
    assert client.get("/").status_code == 200
    assert tokens[0] not in client.get("/").text and tokens[1] not in client.get("/").text
    assert client.get("/t/nope").status_code == 403
    assert client.get(f"/t/{tokens[0]}x").status_code == 403
    assert client.get("/static/table.js").status_code == 200
    assert client.get("/static/style.css").status_code == 200
    for path in ("/static/../table.py", "/static/%2e%2e/table.py", "/static/..%2ftable.py",
                 "/static/%2e%2e/%2e%2e/__init__.py", "/static//etc/passwd", "/static/%2fetc%2fpasswd"):
        r = client.get(path)
        assert r.status_code in (400, 404), path
        assert "import" not in r.text and "root:" not in r.text


def test_tokens_are_unguessable_and_one_per_human():
    t = table(seats=("human", "random"))
    (tok,) = t.tokens
    assert t.tokens[tok] == 0 and len(tok) >= 32
    assert list(table().tokens) != list(table().tokens)  # fresh ones every table


def test_a_bad_token_is_refused_on_the_websocket(ttt):
    t, client, tokens = ttt
    with pytest.raises(WebSocketDisconnect) as err:
        with client.websocket_connect("/ws/not-a-seat") as ws:
            ws.receive_json()
    assert err.value.code == 4403


def test_a_seat_is_sent_its_view_and_moves(ttt):
    t, client, tokens = ttt
    with client.websocket_connect(f"/ws/{tokens[0]}") as p1:
        hello, first = greeted(p1)
        assert hello["seat"] == 0 and hello["info"]["title"] == t.game.title
        assert first["type"] == "state" and first["your_turn"] and len(first["moves"]) == 9
        assert first["view"] == json.loads(json.dumps(t.game.view(t.state, 0)))
        p1.send_text(json.dumps({"type": "move", "version": 0, "choice": 4}))
        after = p1.receive_json()
        assert after["version"] == 1 and not after["your_turn"] and after["log"][0]["text"] == "place 1,1"


def refusals():
    """(what a page sends, words of the refusal) — each refused with the table unchanged"""
    return [
        ("{not json", "not JSON"),
        ("[1, 2]", "a JSON object"),
        ('"move"', "a JSON object"),
        (json.dumps({"type": "dance"}), "unknown message type"),
        (json.dumps({"type": "move", "version": 0, "choice": "4"}), "no such move"),
        (json.dumps({"type": "move", "version": 0, "choice": 4.0}), "no such move"),
        (json.dumps({"type": "move", "version": 0, "choice": True}), "no such move"),
        (json.dumps({"type": "move", "version": 0, "choice": 9}), "no such move"),
        (json.dumps({"type": "move", "version": 0, "choice": -1}), "no such move"),
        (json.dumps({"type": "move", "version": 5, "choice": 0}), "has changed"),
        (json.dumps({"type": "move", "version": True, "choice": 0}), "has changed"),
        (json.dumps({"type": "move", "version": 0, "choice": 0, "seat": 1}), "plays P1 only"),
        (json.dumps({"type": "typed", "version": 0, "text": 42}), "type a move"),
        (json.dumps({"type": "typed", "version": 0, "text": "place 9,9"}), "not a legal move"),
        (json.dumps({"type": "typed", "version": 0, "text": "x" * 300}), "at most"),
        (json.dumps({"type": "ready", "seat": 0}), "only the hot seat"),
        (json.dumps({"type": "move", "version": 0, "choice": 0, "pad": "x" * MAX_MESSAGE}), "at most"),
        ("[" * 100_000, "at most"),
    ]


@pytest.mark.parametrize("sent,words", refusals())
def test_hostile_messages_are_refused_state_unchanged(ttt, sent, words):
    t, client, tokens = ttt
    before = json.dumps(t.state, sort_keys=True)
    with client.websocket_connect(f"/ws/{tokens[0]}") as p1:
        _, _ = greeted(p1)
        p1.send_text(sent)
        answer = p1.receive_json()
        assert answer["type"] == "refused" and words in answer["message"]
        assert json.dumps(t.state, sort_keys=True) == before and t.version == 0 and not t.moves


def test_binary_frames_and_moves_out_of_turn_are_refused(ttt):
    t, client, tokens = ttt
    with client.websocket_connect(f"/ws/{tokens[1]}") as p2:
        _, first = greeted(p2)
        assert not first["your_turn"] and first["moves"] == []
        p2.send_bytes(b"\x00\x01")
        assert "text frames" in refusal(p2)
        p2.send_text(json.dumps({"type": "move", "version": 0, "choice": 0}))
        assert "not P2's turn" in refusal(p2)
        p2.send_text(json.dumps({"type": "typed", "version": 0, "text": "place 1,1"}))
        assert "not P2's turn" in refusal(p2)
        assert t.version == 0


def test_the_log_only_at_the_end_and_replay_takes_it(ttt, tmp_path):
    t, client, tokens = ttt
    assert client.get(f"/log/{tokens[0]}").status_code == 409  # it holds the seed
    assert client.get("/log/nope").status_code == 403
    for choice_text in ["place 0,0", "place 0,1", "place 1,0", "place 1,1", "place 2,0"]:
        seat = t.game.waiting_for(t.state)[0]
        t.take(seat, {"type": "typed", "version": t.version, "text": choice_text})
    r = client.get(f"/log/{tokens[1]}")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    path = tmp_path / "game.jsonl"
    path.write_text(r.text, "utf-8")
    done = replay(path)
    assert done.log.result["winners"] == [0] and len(done.log.moves) == 5


def test_hot_seat_passes_the_device():
    t = table("examples/high_card.game", seed=7, hot_seat=True)
    (tok,) = t.tokens
    assert t.tokens[tok] is None
    first = t.message_for(None)
    assert first["type"] == "pass" and "view" not in first
    seat = first["seat"]
    with pytest.raises(Refused):
        t.take(None, {"type": "move", "version": 0, "choice": 0})  # nobody has the device yet
    with pytest.raises(Refused):
        t.take(None, {"type": "ready", "seat": 1 - seat})          # not that seat's turn
    t.take(None, {"type": "ready", "seat": seat})
    shown = t.message_for(None)
    assert shown["type"] == "state" and shown["seat"] == seat
    with pytest.raises(Refused):
        t.take(None, {"type": "move", "version": 0, "choice": 0, "seat": 1 - seat})
    t.take(None, {"type": "move", "version": 0, "choice": 0})
    nxt = t.message_for(None)
    assert nxt["type"] == "pass" and nxt["seat"] == 1 - seat and "view" not in nxt


def test_a_timed_choice_runs_out_on_the_server():
    now = [1000.0]
    t = table("examples/quick_count.game", seats=("human", "human"), seed=2, clock=lambda: now[0])
    waiting = t.waiting_humans()[0]
    assert not t.deadlines  # nobody has opened the page yet
    t.arrive(waiting)
    seconds = t.game.timer(t.state, waiting)
    assert seconds is not None and t.deadlines[waiting] == 1000.0 + seconds
    assert t.state_message(waiting)["seconds_left"] == seconds
    assert not t.run_out(waiting)
    now[0] += seconds
    assert t.run_out(waiting)
    assert t.moves[-1][1] == "time ran out" and t.version == 1
    untimed = table("examples/quick_count.game", seats=("human", "human"), seed=2, timers=False)
    assert not untimed.deadlines


def test_bots_move_by_themselves(tmp_path):
    t = table(seats=("random", "human"))
    with TestClient(create_app(t)) as client:
        (tok,) = t.tokens
        with client.websocket_connect(f"/ws/{tok}") as p2:
            _, first = greeted(p2)
            msg = first
            while not msg["your_turn"]:
                msg = p2.receive_json()
            assert msg["version"] == 1 and msg["log"][0]["seat"] == 0


PASS_A_CARD = """
game "Pass a card"
players 3

table names:
  | name   |
  | apple  |
  | banana |
  | cherry |
  | damson |
  | elder  |
  | fig    |

kind card:
  from names
  show name

zone deck of card: hidden
player zone hand of card: owner

setup:
  move card to deck
  shuffle deck
  for p in players:
    draw 2 from deck to p.hand

turn:
  choose by current:
    give(c in current.hand) "give {c} to the next player":
      move c to players_from(current)[1].hand
  end game after round

score of p: len(p.hand)
"""


def test_a_card_given_into_a_hidden_hand_is_named_only_to_who_sees_it(tmp_path):
    path = tmp_path / "pass.game"
    path.write_text(PASS_A_CARD, "utf-8")
    t = Table(load(str(path)), ["human", "human", "human"], 1, game_path=str(path))
    giver = t.waiting_humans()[0]
    taker, other = (giver + 1) % 3, (giver + 2) % 3
    t.take(giver, {"type": "move", "version": 0, "choice": 0})
    written = t.moves[-1][1]
    card = written.split()[1]
    assert t.entries[giver][-1]["text"] == written
    assert t.entries[taker][-1]["text"] == written          # it is in their hand now
    assert t.entries[other][-1]["text"] == "give ? to the next player"
    assert card not in json.dumps(t.state_message(other))


def test_a_card_played_face_up_is_named_to_all():
    t = table("examples/high_card.game", seats=("human", "human"), seed=7)
    seat = t.waiting_humans()[0]
    cat = t.game.catalogue(t.state)
    hand = t.game.view(t.state, seat)["zones"]["hand"][seat]
    t.take(seat, {"type": "move", "version": 0, "choice": 0})
    mine, theirs = t.entries[seat][-1]["text"], t.entries[1 - seat][-1]["text"]
    assert mine.startswith("play ")
    # the card went face up to the trick: both may read it
    assert theirs == mine
    assert any(cat.show[c] in mine for c in hand)


def test_uvicorn_closes_a_socket_that_sends_a_huge_frame(serve_table):
    served = serve_table("examples/tictactoe.game", ["human", "human"])
    tok = next(k for k, v in served.table.tokens.items() if v == 0)
    url = served.base.replace("http://", "ws://") + f"/ws/{tok}"
    with ws_connect(url, max_size=None) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "hello"
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        ws.send(json.dumps({"type": "typed", "version": 0, "text": "place 1,1" + " " * 100_000}))
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=10)
    assert served.table.version == 0 and not served.table.moves
    with pytest.raises(Exception):
        with ws_connect(served.base.replace("http://", "ws://") + "/ws/forged", max_size=None) as ws:
            ws.recv(timeout=10)


def test_the_page_needs_nothing_from_elsewhere():
    """No CDN, no font or script from the network: the page works offline."""
    for f in STATIC.iterdir():
        text = f.read_text("utf-8")
        assert "http://" not in text and "https://" not in text and "//cdn" not in text, f.name
        assert "innerHTML" not in text, f.name  # the game's texts go in as text, never as HTML


def test_the_end_screen_gets_the_shared_and_the_team_result():
    coop = table("examples/bucket_brigade.game", seats=("human", "human"), seed=3)
    for seat, text in [(0, "wait"), (1, "wait"), (0, "wait")]:
        coop.take(seat, {"type": "typed", "version": coop.version, "text": text})
    r = coop.result()
    assert r["cooperative"] and r["outcome"] == "lost" and r["winners"] == [] and "teams" not in r
    teams = table("examples/partner_tricks.game", seats=("human",) * 4, seed=3)
    while not teams.over():
        seat = teams.game.waiting_for(teams.state)[0]
        move = teams.game.legal_moves(teams.state, seat)[0]
        teams.take(seat, {"type": "typed", "version": teams.version,
                          "text": teams.game.move_text(teams.state, move)})
    r = teams.result()
    assert r["teams"] == [[0, 2], [1, 3]] and len(r["team_scores"]) == 2 and "cooperative" not in r
    assert set(r["winners"]) in ({0, 2}, {1, 3}, {0, 1, 2, 3})


SAY = "tests/sim/games/say_a_rank.game"


def test_hints_are_off_unless_the_table_turns_them_on():
    # (the ranks a seat may type are its hand's: a hint would show them as moves)
    t = table(SAY)
    with TestClient(create_app(t)) as client:
        tokens = {seat: tok for tok, seat in t.tokens.items()}
        with client.websocket_connect(f"/ws/{tokens[0]}") as p1:
            _, first = greeted(p1)
            assert first["typed"] and not first["hints"] and first["suggested"] is None
            p1.send_text(json.dumps({"type": "hint", "version": 0}))
            assert "hints are off" in refusal(p1)
            p1.send_text(json.dumps({"type": "suggested", "version": 0, "choice": 0}))
            assert "no such suggested move" in refusal(p1)


def test_a_seat_that_asks_for_a_hint_sees_the_suggested_moves_and_may_play_one():
    t = table(SAY, hints=True)
    hand = sorted({t.game.catalogue(t.state).attrs[c]["rank"] for c in t.state["zones"]["hand"][0]})
    with TestClient(create_app(t)) as client:
        tokens = {seat: tok for tok, seat in t.tokens.items()}
        with client.websocket_connect(f"/ws/{tokens[0]}") as p1, \
                client.websocket_connect(f"/ws/{tokens[1]}") as p2:
            _, first = greeted(p1)
            _, theirs = greeted(p2)
            assert first["hints"] and first["suggested"] is None and not first["moves"]
            assert not theirs["hints"]  # (not P2's turn)
            p1.send_text(json.dumps({"type": "hint", "version": 0}))
            hinted = p1.receive_json()
            assert hinted["version"] == 0 and hinted["suggested"] == [f"say {r}" for r in hand]
            assert p2.receive_json()["suggested"] is None  # what P1 may type is P1's
            p1.send_text(json.dumps({"type": "suggested", "version": 0, "choice": len(hand) - 1}))
            after = p1.receive_json()
            assert after["version"] == 1 and after["suggested"] is None
            assert after["log"][0]["text"] == f"say {hand[-1]}"
            assert t.state["pvars"]["points"][0] == hand[-1]
