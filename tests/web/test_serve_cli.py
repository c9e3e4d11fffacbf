"""`gamedsl serve`: its refusals (exit 2, one line) and the links it prints."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

import gamedsl.web.run as web_run
from tests.support.fixtures import assert_one_error_line, run


@pytest.mark.parametrize("argv,words", [
    (["examples/tictactoe.game", "--seats", "random,random"], "at least one human seat"),
    (["examples/tictactoe.game", "--seats", "human"], "is for 2 players"),
    (["examples/tictactoe.game", "--seats", "human,robot"], "unknown seat kind"),
    (["examples/tictactoe.game", "--seats", "human,random,"], "--seats"),
    (["examples/tictactoe.game", "--seats", "human,human", "--port", "70000"], "--port"),
    (["examples/tictactoe.game", "--seats", "human,human", "--max-turns", "0"], "--max-turns"),
    (["examples/high_card.game", "--seats", "human,human", "--option", "target=999"], "target"),
    (["examples/tictactoe.game", "--seats", "human,human", "--host", "203.0.113.9", "--port", "0"], "cannot serve"),
])
def test_serve_refuses_bad_use(capsys, monkeypatch, argv, words):
    code, out, err = run(capsys, monkeypatch, ["serve", *argv])
    assert code == 2
    assert_one_error_line(err)
    assert words in err


class _NoServer:
    """Stands in for uvicorn: the socket is bound, nothing is served."""

    def __init__(self, table):
        self.table = table

    def run(self, sockets):
        for s in sockets:
            assert s.getsockname()[0] == "127.0.0.1"  # loopback unless --host says otherwise
            s.close()


def test_serve_prints_a_link_per_human_seat(capsys, monkeypatch):
    monkeypatch.setattr(web_run, "server_for", _NoServer)
    code, out, err = run(capsys, monkeypatch, ["serve", "examples/tictactoe.game", "--seats", "human,random",
                                               "--port", "0", "--seed", "4"])
    assert code == 0, err
    lines = out.splitlines()
    assert "Tic-tac-toe at http://127.0.0.1:" in lines[0] and "(seed 4)" in lines[0]
    assert len([ln for ln in lines if "/t/" in ln]) == 1 and lines[1].strip().startswith("P1: http://127.0.0.1:")
    code, out, err = run(capsys, monkeypatch, ["serve", "examples/tictactoe.game", "--seats", "human,human",
                                               "--port", "0", "--hot-seat"])
    assert code == 0 and "hot seat (P1, P2): http://127.0.0.1:" in out and out.count("/t/") == 1


class _Listening:
    def __init__(self, host):
        self.host = host

    def getsockname(self):
        return (self.host, 8000)


def test_links_name_an_address_people_can_type():
    assert web_run.base_url(_Listening("127.0.0.1")) == "http://127.0.0.1:8000"
    assert web_run.base_url(_Listening("::1")) == "http://[::1]:8000"
    every = web_run.base_url(_Listening("0.0.0.0"))
    assert every.startswith("http://") and "0.0.0.0" not in every


def test_the_readme_serve_command_starts_a_table(capsys, monkeypatch):
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text("utf-8")
    block = re.search(r"```\w*\n(.*?)\n```", readme.split("<!-- serve-command -->", 1)[1], re.S).group(1)
    argv = shlex.split(block.strip())
    assert argv[:2] == ["gamedsl", "serve"]
    monkeypatch.setattr(web_run, "server_for", _NoServer)
    code, out, err = run(capsys, monkeypatch, argv[1:] + ["--port", "0"])
    assert code == 0, err
    seats = argv[argv.index("--seats") + 1]
    assert out.count("/t/") == seats.split(",").count("human")
