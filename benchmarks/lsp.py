"""A keystroke in the language server: how long from the editor sending the change to the
diagnostics arriving, measured as an editor sees it (`gamedsl lsp` over stdio, driven by
pygls's client), and where the server's time goes (in process: parse, check, compile).

    python benchmarks/lsp.py [--keys N] [FILE]      default: games/letter_tycoon.game, 200 keys

The keys are typed into a line of the file one character at a time and deleted again,
alternating between a clean file and one with a mistake, so each keystroke re-parses one
declaration and re-checks the whole game; its diagnostics are waited for before the next
key (an editor sends keys faster, and a late check only makes the next one wait).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from lsprotocol import types as L  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

from benchmarks.common import machine_line  # noqa: E402
from gamedsl.pipeline import check_text  # noqa: E402
from gamedsl.syntax.decl_cache import InMemory  # noqa: E402

TYPED = "_x"  # typed after a def's name in a use of it: a mistake, then the name again


def keystrokes(text: str, n: int):
    """(range, new text) edits: typing TYPED after the first call of a def and deleting it."""
    line_no, line = next((i, l) for i, l in enumerate(text.split("\n"))
                         if l.startswith("  ") and "(" in l and not l.lstrip().startswith("#"))
    col = line.index("(")
    out = []
    while len(out) < n:
        for i, ch in enumerate(TYPED):
            at = L.Position(line_no, col + i)
            out.append((L.Range(at, at), ch))
        for i in reversed(range(len(TYPED))):
            out.append((L.Range(L.Position(line_no, col + i), L.Position(line_no, col + i + 1)), ""))
    return out[:n]


async def over_stdio(path: Path, n: int) -> list:
    client = LanguageClient("benchmark", "1")
    arrived: dict = {}
    waiting: dict = {}

    @client.feature(L.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def publish(params: L.PublishDiagnosticsParams):
        arrived[params.version] = time.perf_counter()
        if params.version in waiting:
            waiting.pop(params.version).set()

    await client.start_io(sys.executable, "-m", "gamedsl", "lsp", cwd=str(ROOT))
    await client.initialize_async(L.InitializeParams(process_id=None, capabilities=L.ClientCapabilities()))
    client.initialized(L.InitializedParams())
    uri = path.resolve().as_uri()
    text = path.read_text("utf-8")

    async def send(version, change=None):
        done = waiting[version] = asyncio.Event()
        start = time.perf_counter()
        if change is None:
            client.text_document_did_open(L.DidOpenTextDocumentParams(L.TextDocumentItem(uri, "gamedsl", 1, text)))
        else:
            client.text_document_did_change(L.DidChangeTextDocumentParams(
                L.VersionedTextDocumentIdentifier(uri=uri, version=version),
                [L.TextDocumentContentChangePartial(range=change[0], text=change[1])]))
        await asyncio.wait_for(done.wait(), 120)
        return arrived[version] - start

    opened = await send(1)
    times = [await send(v, c) for v, c in enumerate(keystrokes(text, n), 2)]
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return [opened] + times


def in_process(path: Path, n: int) -> dict:
    """Median ms of each step of a keystroke's check, without the protocol."""
    text = path.read_text("utf-8")
    memory = InMemory(str(path))
    parse_ms, total_ms, cpu_ms = [], [], []

    def parse(source, name):
        t = time.perf_counter()
        p = memory.parse(source)
        parse_ms.append(1000 * (time.perf_counter() - t))
        return p.tree, p.diagnostics

    lines = text.split("\n")
    check_text(str(path), text, parse)
    for rng, ch in keystrokes(text, n):
        line = lines[rng.start.line]
        lines[rng.start.line] = line[:rng.start.character] + ch + line[rng.end.character:]
        t, cpu = time.perf_counter(), time.process_time()
        check_text(str(path), "\n".join(lines), parse)
        total_ms.append(1000 * (time.perf_counter() - t))
        cpu_ms.append(1000 * (time.process_time() - cpu))
    return {"parse": statistics.median(parse_ms[1:]), "whole check": statistics.median(total_ms),
            "whole check CPU": statistics.median(cpu_ms)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file", nargs="?", default=str(ROOT / "games" / "letter_tycoon.game"))
    ap.add_argument("--keys", type=int, default=200)
    args = ap.parse_args(argv)
    path = Path(args.file)
    print(machine_line())
    text = path.read_text("utf-8")
    where = keystrokes(text, 1)[0][0].start
    print(f"{path.name}: {len(text.splitlines())} lines, {args.keys} keystrokes typing and deleting "
          f"{TYPED!r} at line {where.line + 1}: {text.splitlines()[where.line].strip()}")
    steps = in_process(path, args.keys)
    print("in process (median ms): " + ", ".join(f"{k} {v:.1f}" for k, v in steps.items()))
    times = asyncio.run(over_stdio(path, args.keys))
    ms = sorted(1000 * t for t in times[1:])
    print(f"over stdio: open {1000 * times[0]:.0f} ms; keystroke to diagnostics: median {statistics.median(ms):.1f} ms, "
          f"90% {ms[int(0.9 * len(ms))]:.1f} ms, max {ms[-1]:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
