"""The web table's protocol over plain HTTP and websockets (Starlette's TestClient, no
browser): the pages and files served, the log, and every kind of message a page may send —
the good ones taken, the malformed or hostile ones refused with the state unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from gamedsl import load
from gamedsl.logs import replay
from gamedsl.web import Refused, Table, create_app
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
    from starlette.websockets import WebSocketDisconnect

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


def test_a_move_into_a_hidden_hand_is_not_named_to_the_others():
    """A move naming a card the other seat never sees is written to it with that card as '?'."""
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
