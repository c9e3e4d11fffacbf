"""The language server (`gamedsl lsp`): pygls wiring between LSP messages over stdio and the
modules that answer them (document, index, hover, completion, outline, fixes).

Positions: the syntax tree's spans are 1-based lines and columns counted in characters;
LSP positions are 0-based and (by default) count UTF-16 units. Conversions happen here only.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Dict, List, Optional, Set
from urllib.parse import urlparse

from lsprotocol import types as L
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from gamedsl.diagnostics import Diagnostic
from gamedsl.lsp.completion import complete
from gamedsl.lsp.document import Document
from gamedsl.lsp.fixes import fix_for
from gamedsl.lsp.hover import hover_text
from gamedsl.lsp.outline import Symbol, outline
from gamedsl.syntax import ast as A

SYMBOL_KIND = {
    "table": L.SymbolKind.Struct, "kind": L.SymbolKind.Class, "zone": L.SymbolKind.Array,
    "player zone": L.SymbolKind.Array, "phase": L.SymbolKind.Event, "def": L.SymbolKind.Function,
    "procedure": L.SymbolKind.Method, "var": L.SymbolKind.Variable, "player var": L.SymbolKind.Variable,
    "enum": L.SymbolKind.Enum, "option": L.SymbolKind.Constant, "words": L.SymbolKind.Array,
    "column": L.SymbolKind.Field, "attribute": L.SymbolKind.Property, "state": L.SymbolKind.Field,
    "result": L.SymbolKind.Function, "public fact": L.SymbolKind.Function,
}
COMPLETION_KIND = {
    "keyword": L.CompletionItemKind.Keyword, "built-in function": L.CompletionItemKind.Function,
    "built-in name": L.CompletionItemKind.Variable, "def": L.CompletionItemKind.Function,
    "procedure": L.CompletionItemKind.Method, "kind": L.CompletionItemKind.Class,
    "table": L.CompletionItemKind.Struct, "zone": L.CompletionItemKind.Variable,
    "player zone": L.CompletionItemKind.Field, "player var": L.CompletionItemKind.Field,
    "var": L.CompletionItemKind.Variable, "enum": L.CompletionItemKind.Enum,
    "value": L.CompletionItemKind.EnumMember, "option": L.CompletionItemKind.Constant,
    "column": L.CompletionItemKind.Field, "attribute": L.CompletionItemKind.Property,
    "state": L.CompletionItemKind.Field, "phase": L.CompletionItemKind.Event,
}


class GameServer(LanguageServer):
    def __init__(self):
        super().__init__("gamedsl", _version())
        self.documents: Dict[str, Document] = {}
        self.pending: Set[str] = set()  # documents changed since their last check

    def document(self, uri: str) -> Document:
        """An open document, checked up to its latest change (a request never sees an old check)."""
        doc = self.documents.get(uri)
        if doc is None:
            doc = self.documents[uri] = Document(uri, _path_of(uri))
        if uri in self.pending:
            self.check_pending(uri)
        return doc

    def changed(self, uri: str) -> None:
        """Check a changed document once the changes already sent have been read: keys typed
        faster than a check (or a paste sent as many changes) make one check, of the last text."""
        if uri not in self.pending:
            self.pending.add(uri)
            asyncio.get_running_loop().call_soon(self.check_pending, uri)

    def check_pending(self, uri: str) -> None:
        if uri in self.pending:
            self.pending.discard(uri)
            self.recheck(uri)

    def recheck(self, uri: str) -> None:
        if uri not in self.documents:
            self.documents[uri] = Document(uri, _path_of(uri))
        doc = self.documents[uri]
        document = self.workspace.get_text_document(uri)
        text = document.source
        try:
            found = doc.update(text)
        except Exception as err:  # an engine bug must not stop the server: say it, keep serving
            self.window_log_message(L.LogMessageParams(L.MessageType.Error, f"gamedsl: checking failed: {err!r}"))
            return
        lines = doc.lines(doc.path)
        diagnostics = [self.lsp_diagnostic(d, span, lines) for d, span in found]
        self.text_document_publish_diagnostics(L.PublishDiagnosticsParams(uri, diagnostics, document.version))

    def lsp_diagnostic(self, d: Diagnostic, span: Optional[A.Span], lines: List[str]) -> L.Diagnostic:
        message = d.message
        if span is None:
            span = A.Span("", 1, 1, 1, 1)
            if d.span is not None and d.span.file:
                message = f"{d.span}: {message}" if d.span.line else f"{d.span.file}: {message}"
        if d.hint:
            message += f"\nhint: {d.hint}"
        return L.Diagnostic(
            range=self.range(span, lines), message=message, code=d.code, source="gamedsl",
            severity=L.DiagnosticSeverity.Warning if not d.is_error else L.DiagnosticSeverity.Error,
            code_description=None)

    def range(self, span: A.Span, lines: List[str]) -> L.Range:
        codec = self.workspace.position_codec
        end_line, end_col = span.end_line, span.end_col
        if (end_line, end_col) <= (span.line, span.col):  # a point: show at least one character
            end_line, end_col = span.line, span.col + 1
        start = codec.position_to_client_units(lines, L.Position(span.line - 1, span.col - 1))
        end = codec.position_to_client_units(lines, L.Position(end_line - 1, end_col - 1))
        return L.Range(start, end)

    def location(self, doc: Document, span: A.Span) -> L.Location:
        uri = doc.uri if span.file == doc.path else from_fs_path(str(Path(span.file).resolve()))
        return L.Location(uri, self.range(span, doc.lines(span.file)))

    def position(self, uri: str, pos: L.Position):
        """The document, and an LSP position as (1-based line, 1-based character column)."""
        doc = self.document(uri)
        lines = doc.lines(doc.path)
        p = self.workspace.position_codec.position_from_client_units(lines, L.Position(pos.line, pos.character))
        return doc, p.line + 1, p.character + 1

    def occurrence(self, uri: str, pos: L.Position):
        doc, line, col = self.position(uri, pos)
        index = doc.index
        return doc, (index.at(doc.path, line, col) if index is not None else None)

    def symbol(self, doc: Document, s: Symbol) -> L.DocumentSymbol:
        lines = doc.lines(s.span.file)
        return L.DocumentSymbol(
            name=s.name, kind=SYMBOL_KIND.get(s.what, L.SymbolKind.Namespace), detail=s.what,
            range=self.range(s.span, lines), selection_range=self.range(s.name_span, lines),
            children=[self.symbol(doc, c) for c in s.children] or None)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("gamedsl")
    except PackageNotFoundError:
        return "0.1.0"


def _path_of(uri: str) -> str:
    """The file a document is (an unsaved one: a name in the current folder, so it extends
    nothing but reads as a game)."""
    if urlparse(uri).scheme == "file":
        path = to_fs_path(uri)
        if path:
            return path
    return Path(urlparse(uri).path).name or "untitled.game"


def make_server() -> GameServer:
    server = GameServer()

    @server.feature(L.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: GameServer, params: L.DidOpenTextDocumentParams):
        ls.recheck(params.text_document.uri)

    @server.feature(L.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: GameServer, params: L.DidChangeTextDocumentParams):
        ls.changed(params.text_document.uri)

    @server.feature(L.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: GameServer, params: L.DidSaveTextDocumentParams):
        # a file that extends the saved one reads it from disk: check the open ones again
        for uri in list(ls.documents):
            if uri != params.text_document.uri:
                ls.changed(uri)

    @server.feature(L.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def files_changed(ls: GameServer, params: L.DidChangeWatchedFilesParams):
        # a table's CSV file, a word list or an extended game changed on disk
        for uri in list(ls.documents):
            ls.changed(uri)

    @server.feature(L.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: GameServer, params: L.DidCloseTextDocumentParams):
        ls.documents.pop(params.text_document.uri, None)
        ls.pending.discard(params.text_document.uri)
        ls.text_document_publish_diagnostics(L.PublishDiagnosticsParams(params.text_document.uri, []))

    @server.feature(L.TEXT_DOCUMENT_HOVER)
    def hover(ls: GameServer, params: L.HoverParams) -> Optional[L.Hover]:
        doc, occ = ls.occurrence(params.text_document.uri, params.position)
        if occ is None:
            return None
        text = hover_text(doc.index, occ)
        if text is None:
            return None
        return L.Hover(L.MarkupContent(L.MarkupKind.Markdown, text), ls.range(occ.span, doc.lines(occ.span.file)))

    @server.feature(L.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: GameServer, params: L.DefinitionParams) -> Optional[List[L.Location]]:
        doc, occ = ls.occurrence(params.text_document.uri, params.position)
        if occ is None or occ.target.span is None:
            return None
        return [ls.location(doc, occ.target.span)]

    @server.feature(L.TEXT_DOCUMENT_REFERENCES)
    def references(ls: GameServer, params: L.ReferenceParams) -> Optional[List[L.Location]]:
        doc, occ = ls.occurrence(params.text_document.uri, params.position)
        if occ is None:
            return None
        found = doc.index.references(occ.target)
        if not params.context.include_declaration and occ.target.span is not None:
            found = [o for o in found if o.span != occ.target.span]
        return [ls.location(doc, o.span) for o in found]

    @server.feature(L.TEXT_DOCUMENT_COMPLETION, L.CompletionOptions(trigger_characters=["."]))
    def completion(ls: GameServer, params: L.CompletionParams) -> L.CompletionList:
        doc, line, col = ls.position(params.text_document.uri, params.position)
        lines = doc.lines(doc.path)
        before = lines[line - 1][:col - 1] if line <= len(lines) else ""
        items = complete(doc.index, doc.last_whole, doc.path, line, before)
        return L.CompletionList(is_incomplete=False, items=[
            L.CompletionItem(label=i.label, kind=COMPLETION_KIND.get(i.what, L.CompletionItemKind.Variable),
                             detail=i.detail or i.what,
                             documentation=L.MarkupContent(L.MarkupKind.Markdown, i.doc) if i.doc else None)
            for i in items])

    @server.feature(L.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(ls: GameServer, params: L.DocumentSymbolParams) -> List[L.DocumentSymbol]:
        doc = ls.document(params.text_document.uri)
        index = doc.index or doc.last_whole
        if index is None:
            return []
        return [ls.symbol(doc, s) for s in outline(index, doc.path)]

    @server.feature(L.TEXT_DOCUMENT_CODE_ACTION,
                    L.CodeActionOptions(code_action_kinds=[L.CodeActionKind.QuickFix]))
    def code_action(ls: GameServer, params: L.CodeActionParams) -> List[L.CodeAction]:
        doc = ls.document(params.text_document.uri)
        if doc.checked is None:
            return []
        lines = doc.lines(doc.path)
        want = params.range
        actions = []
        for d in doc.checked.diagnostics:
            span = doc.shown_at(d)
            fix = fix_for(d, lines) if span is not None else None
            if fix is None:
                continue
            where = ls.range(span, lines)
            if (where.end.line, where.end.character) < (want.start.line, want.start.character) or \
                    (where.start.line, where.start.character) > (want.end.line, want.end.character):
                continue
            edit = L.TextEdit(ls.range(fix.span, lines), fix.new_text)
            actions.append(L.CodeAction(
                title=fix.title, kind=L.CodeActionKind.QuickFix, is_preferred=True,
                diagnostics=[ls.lsp_diagnostic(d, span, lines)],
                edit=L.WorkspaceEdit(changes={doc.uri: [edit]})))
        return actions

    return server


def serve() -> None:
    """Speak LSP over stdin and stdout until the editor says exit."""
    make_server().start_io()
