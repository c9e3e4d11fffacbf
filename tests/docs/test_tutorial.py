"""docs/tutorial.md and its files under examples/tutorial/ stay in step.

Each game or scenario shown on the page is a repository file, verbatim, and every file
of examples/tutorial/ is shown; every console block is run (in a copy of its folder)
and prints what the page says. The games themselves are played by
tests/games/test_random_play.py and their scenarios run by tests/scenarios/test_scenarios.py.
"""

from __future__ import annotations

import shlex
import shutil

import pytest

from tests.support.docblocks import DOCS, ROOT, blocks
from gamedsl.cli.main import build_parser, main
from gamedsl.pipeline import check_files

PAGE = DOCS / "tutorial.md"
TUTORIAL = ROOT / "examples" / "tutorial"
BLOCKS = list(blocks(PAGE))
CONSOLE = [b for b in BLOCKS if b.lang == "console"]
SIMULATE = "gamedsl simulate mygame.game -n 1000 --seats random,random,random"


def subcommands():
    (sub,) = [a for a in build_parser()._actions if a.dest == "command"]
    return set(sub.choices)


def test_every_tutorial_file_is_on_the_page_verbatim():
    shown = {b.file: b.body for b in BLOCKS if b.file}
    files = sorted(str(p.relative_to(ROOT)) for p in TUTORIAL.rglob("*") if p.is_file())
    assert sorted(shown) == files
    for name, body in shown.items():
        assert (ROOT / name).read_text("utf-8") == body, f"the page's {name} is not the file"


@pytest.mark.parametrize("path", sorted(TUTORIAL.glob("*/*.game")), ids=lambda p: str(p.relative_to(TUTORIAL)))
def test_tutorial_games_check_silently(path):
    diags, _ = check_files([str(path)])
    assert [f"{d.code} {d.message}" for d in diags] == []


def test_the_page_runs_every_stage():
    assert len(CONSOLE) >= 6
    assert all(b.run for b in CONSOLE), "a console block without <!-- run in DIR -->"
    assert {b.run["dir"] for b in CONSOLE} == {str(d.relative_to(ROOT)) for d in TUTORIAL.iterdir() if d.is_dir()}
    assert any(b.run["new"] for b in CONSOLE), "the tutorial shows a real diagnostic"


def run(command: str, cwd, capsys, monkeypatch, want_exit=None) -> str:
    """What `command` prints (stdout, then stderr), run in `cwd` as the CLI runs it."""
    words = shlex.split(command)
    assert words[0] == "gamedsl"
    monkeypatch.chdir(cwd)
    capsys.readouterr()
    code = main(words[1:])
    out, err = capsys.readouterr()
    assert want_exit is None or code == want_exit, f"$ {command} exited {code}:\n{out}{err}"
    return out + err


def commands(body: str):
    """(command, expected output) pairs of a console block."""
    out, command, lines = [], None, []
    for line in body.splitlines():
        if line.startswith("$ "):
            if command:
                out.append((command, lines))
            command, lines = line[2:], []
        else:
            lines.append(line)
    if command:
        out.append((command, lines))
    return out


@pytest.mark.parametrize("block", CONSOLE, ids=[f"line{b.line}" for b in CONSOLE])
def test_console_block_prints_what_the_page_says(block, tmp_path, capsys, monkeypatch):
    work = shutil.copytree(ROOT / block.run["dir"], tmp_path / "work")
    if block.run["new"]:
        target = work / block.run["file"]
        text = target.read_text("utf-8")
        assert block.run["old"] in text
        target.write_text(text.replace(block.run["old"], block.run["new"]))
    for command, expected in commands(block.body):
        assert run(command, work, capsys, monkeypatch).splitlines() == expected, f"{block.where}: $ {command}"


@pytest.mark.xfail(condition="simulate" not in subcommands(), strict=True,
                   reason="the tutorial's `gamedsl simulate` step needs the simulate command")
def test_simulate_step_runs(tmp_path, capsys, monkeypatch):
    assert "simulate" in subcommands()
    work = shutil.copytree(TUTORIAL / "3-collectors", tmp_path / "work")
    out = run(SIMULATE.replace("-n 1000", "-n 20") + f" --seed 1 --out {tmp_path / 'out'}", work,
              capsys, monkeypatch, want_exit=0)
    assert "Traceback" not in out and "gamedsl: error" not in out, out


def test_simulate_step_says_whether_the_command_exists():
    text = PAGE.read_text("utf-8")
    assert f"```sh\n{SIMULATE}\n```" in text
    pending = "<!-- simulate-pending" in text
    assert pending == ("simulate" not in subcommands()), \
        "the tutorial's note on `gamedsl simulate` no longer matches the CLI: update step 6"


def test_what_a_human_player_sees_is_what_the_page_shows(capsys, monkeypatch):
    import io
    (shown,) = [b for b in BLOCKS if b.lang == "text" and "Your moves, P1:" in b.body]
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    out = run("gamedsl play mygame.game --seats human,random --seed 1", TUTORIAL / "1-first-game", capsys, monkeypatch)
    seen = [line.strip() for line in out.splitlines() if line.strip()]
    wanted = [line.strip() for line in shown.body.splitlines() if line.strip()]
    start = seen.index(wanted[0])
    assert seen[start:start + len(wanted) - 1] == wanted[:-1]
    assert seen[start + len(wanted) - 1].startswith(wanted[-1])  # the prompt, then what came after it
