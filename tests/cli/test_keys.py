"""The host's key: `play` keys a game it seeds itself and says how to play it again, the log
keeps the key so `replay` reproduces the game, and `simulate` keys the deals a `cmd:` bot
plays without writing the key in anything it outputs."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from gamedsl.logs import replay
from tests.support.fixtures import run

ROOT = Path(__file__).resolve().parents[2]
PEARLS = str(ROOT / "examples" / "pearl_auction.game")
JSON_BOT = ROOT / "examples" / "json_bot.py"


def result_line(out: str):
    return re.search(r"\(seed (\d+)(?:, key ([0-9a-f]{32}))?\)", out)


def test_play_without_a_seed_is_keyed_and_says_how_to_play_it_again(tmp_path, capsys, monkeypatch):
    log = tmp_path / "game.jsonl"
    code, out, _ = run(capsys, monkeypatch, ["play", PEARLS, "--seats", "random,random", "--log", str(log), "-v"])
    assert code == 0
    seed, key = result_line(out).groups()
    assert key is not None
    head = json.loads(log.read_text().splitlines()[0])
    assert head["seed"] == int(seed) and head["key"] == key
    again = run(capsys, monkeypatch, ["play", PEARLS, "--seats", "random,random", "--seed", seed, "--key", key, "-v"])
    assert again[1] == out
    assert replay(log).game.results(replay(log).state)["finished"]
    code, replayed, _ = run(capsys, monkeypatch, ["replay", str(log)])
    assert code == 0 and replayed.splitlines()[0] == [ln for ln in out.splitlines() if "finished" in ln][0]


def test_two_unseeded_games_get_different_keys(capsys, monkeypatch):
    keys = {result_line(run(capsys, monkeypatch, ["play", PEARLS, "--seats", "random,random"])[1]).group(2)
            for _ in range(2)}
    assert len(keys) == 2


def test_an_explicit_seed_alone_is_a_public_reproducible_game(tmp_path, capsys, monkeypatch):
    log = tmp_path / "game.jsonl"
    code, out, _ = run(capsys, monkeypatch, ["play", PEARLS, "--seats", "random,random", "--seed", "5",
                                             "--log", str(log)])
    assert code == 0 and result_line(out).groups() == ("5", None)
    assert "key" not in json.loads(log.read_text().splitlines()[0])


def test_a_tampered_key_in_a_log_is_a_clear_error(tmp_path, capsys, monkeypatch):
    log = tmp_path / "game.jsonl"
    run(capsys, monkeypatch, ["play", PEARLS, "--seats", "random,random", "--log", str(log)])
    lines = log.read_text().splitlines()
    head = json.loads(lines[0])
    head["key"] = "not a key"
    log.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n")
    code, _, err = run(capsys, monkeypatch, ["replay", str(log)])
    assert code == 2
    assert err == f"gamedsl: error: {log}:1: the header's \"key\" is malformed (a key is 32 hex digits (128 bits))\n"


def test_simulate_keys_the_deals_of_cmd_bots_and_writes_the_key_nowhere(tmp_path, capsys, monkeypatch):
    out = tmp_path / "sim"
    bot = f"cmd:{sys.executable} {JSON_BOT}"
    code, _, err = run(capsys, monkeypatch, ["simulate", PEARLS, "-n", "2", "--seats", f"{bot},random", "--jobs", "1",
                                             "--quiet", "--no-plots", "--out", str(out)])
    assert code == 0
    key = re.search(r"rerun with --key ([0-9a-f]{32})", err).group(1)
    for path in out.iterdir():
        assert key not in path.read_text(), path.name   # outputs a bot may be given hold no key
    first = (out / "results.jsonl").read_text()
    code, _, err = run(capsys, monkeypatch, ["simulate", PEARLS, "-n", "2", "--seats", f"{bot},random", "--jobs", "1",
                                             "--quiet", "--no-plots", "--out", str(out), "--key", key])
    assert code == 0 and "rerun" not in err
    assert (out / "results.jsonl").read_text() == first


def test_simulate_with_builtin_bots_alone_stays_as_it_was(tmp_path, capsys, monkeypatch):
    code, _, err = run(capsys, monkeypatch, ["simulate", PEARLS, "-n", "2", "--seats", "random,random", "--jobs", "1",
                                             "--quiet", "--no-plots", "--out", str(tmp_path / "sim")])
    assert code == 0 and "key" not in err


def test_compare_gives_both_drafts_one_key(tmp_path, capsys, monkeypatch):
    bot = f"cmd:{sys.executable} {JSON_BOT}"
    code, _, err = run(capsys, monkeypatch, ["compare", PEARLS, "-n", "2", "--seats", f"{bot},random", "--jobs", "1",
                                             "--quiet", "--no-plots", "--a-option", "lot_size=2",
                                             "--b-option", "lot_size=3"])
    assert code == 0
    assert len(re.findall(r"rerun with --key [0-9a-f]{32}", err)) == 1
