"""An editor for the tests: pygls's LSP client driving `python -m gamedsl lsp` over stdio,
behind plain (blocking) methods. Each wait has a generous limit so that a broken server
fails the test instead of hanging it; no test asserts how fast anything is."""

from __future__ import annotations

import asyncio
import sys
import threading
from pathlib import Path
from typing import Dict, List, Optional

from lsprotocol import types as L
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

ROOT = Path(__file__).resolve().parents[2]
PATIENCE = 120  # seconds: only a guard against a hung server, never a measurement


class Editor:
    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.client = LanguageClient("tests", "1")
        self.diagnostics: Dict[str, List[tuple]] = {}  # uri -> [(version, diagnostics)]
        self.changed = threading.Condition()
        self.versions: Dict[str, int] = {}

        @self.client.feature(L.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def publish(params: L.PublishDiagnosticsParams):
            with self.changed:
                self.diagnostics.setdefault(params.uri, []).append((params.version, list(params.diagnostics)))
                self.changed.notify_all()

        self.run(self.client.start_io(sys.executable, "-m", "gamedsl", "lsp", cwd=str(ROOT)))
        self.run(self.client.initialize_async(L.InitializeParams(
            process_id=None, root_uri=from_fs_path(str(ROOT)), capabilities=L.ClientCapabilities())))
        self.client.initialized(L.InitializedParams())

    def run(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(PATIENCE)

    def close(self) -> None:
        self.run(self.client.shutdown_async(None))
        self.client.exit(None)
        self.run(self.client.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(PATIENCE)

    # ---------------------------------------------------------------- documents

    def open(self, path: Path, text: Optional[str] = None) -> str:
        uri = from_fs_path(str(path))
        self.versions[uri] = 1
        with self.changed:  # what was published for an earlier opening is not for this one
            self.diagnostics.pop(uri, None)
        text = path.read_text("utf-8") if text is None else text
        self.loop.call_soon_threadsafe(self.client.text_document_did_open, L.DidOpenTextDocumentParams(
            L.TextDocumentItem(uri, "gamedsl", 1, text)))
        return uri

    def change(self, uri: str, text: str, at: Optional[L.Range] = None) -> int:
        """Replace the whole text (or, with `at`, that range of it); the new version."""
        self.versions[uri] += 1
        change = (L.TextDocumentContentChangePartial(range=at, text=text) if at is not None
                  else L.TextDocumentContentChangeWholeDocument(text=text))
        self.loop.call_soon_threadsafe(self.client.text_document_did_change, L.DidChangeTextDocumentParams(
            L.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]), [change]))
        return self.versions[uri]

    def close_document(self, uri: str) -> None:
        self.loop.call_soon_threadsafe(self.client.text_document_did_close, L.DidCloseTextDocumentParams(
            L.TextDocumentIdentifier(uri)))

    def diagnostics_of(self, uri: str, version: Optional[int] = None) -> List[L.Diagnostic]:
        """The diagnostics the server publishes for that version of the document (by
        default the latest one sent)."""
        version = self.versions[uri] if version is None else version
        with self.changed:
            ok = self.changed.wait_for(lambda: any(v == version for v, _ in self.diagnostics.get(uri, [])),
                                       PATIENCE)
            assert ok, f"no diagnostics arrived for version {version} of {uri}"
            return [d for v, d in self.diagnostics[uri] if v == version][-1]

    def published(self, uri: str) -> int:
        with self.changed:
            return len(self.diagnostics.get(uri, []))

    def next_diagnostics(self, uri: str, after: int) -> List[L.Diagnostic]:
        """The diagnostics published after the first `after` publications for the document."""
        with self.changed:
            ok = self.changed.wait_for(lambda: len(self.diagnostics.get(uri, [])) > after, PATIENCE)
            assert ok, f"no new diagnostics arrived for {uri}"
            return self.diagnostics[uri][-1][1]

    def files_changed(self, *paths: Path) -> None:
        self.loop.call_soon_threadsafe(self.client.workspace_did_change_watched_files, L.DidChangeWatchedFilesParams(
            [L.FileEvent(from_fs_path(str(p)), L.FileChangeType.Changed) for p in paths]))

    # ---------------------------------------------------------------- requests

    def hover(self, uri: str, line: int, character: int) -> Optional[L.Hover]:
        return self.run(self.client.text_document_hover_async(L.HoverParams(
            L.TextDocumentIdentifier(uri), L.Position(line, character))))

    def definition(self, uri: str, line: int, character: int):
        return self.run(self.client.text_document_definition_async(L.DefinitionParams(
            L.TextDocumentIdentifier(uri), L.Position(line, character))))

    def references(self, uri: str, line: int, character: int, declaration: bool = True):
        return self.run(self.client.text_document_references_async(L.ReferenceParams(
            context=L.ReferenceContext(include_declaration=declaration),
            text_document=L.TextDocumentIdentifier(uri), position=L.Position(line, character))))

    def completion(self, uri: str, line: int, character: int) -> List[L.CompletionItem]:
        result = self.run(self.client.text_document_completion_async(L.CompletionParams(
            L.TextDocumentIdentifier(uri), L.Position(line, character))))
        return result.items if isinstance(result, L.CompletionList) else list(result or [])

    def symbols(self, uri: str):
        return self.run(self.client.text_document_document_symbol_async(L.DocumentSymbolParams(
            L.TextDocumentIdentifier(uri))))

    def code_actions(self, uri: str, diagnostic: L.Diagnostic) -> List[L.CodeAction]:
        return self.run(self.client.text_document_code_action_async(L.CodeActionParams(
            L.TextDocumentIdentifier(uri), diagnostic.range, L.CodeActionContext([diagnostic]))))


def position_of(text: str, needle: str, occurrence: int = 0, offset: int = 0) -> L.Position:
    """The LSP position of the start of the `occurrence`th `needle` in `text` (+ offset)."""
    at = -1
    for _ in range(occurrence + 1):
        at = text.index(needle, at + 1)
    at += offset
    line = text.count("\n", 0, at)
    return L.Position(line, at - (text.rfind("\n", 0, at) + 1))
