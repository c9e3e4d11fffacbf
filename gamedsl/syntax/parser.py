"""Syntax: text -> frozen AST (gamedsl.syntax.ast), with parse errors a designer can read.

Lark types stop here: the tree is converted to our own nodes with Spans, and
lark's exceptions become Diagnostics that say what was expected (in words, not
token names) and which block is still open.
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
from typing import List, Optional, Tuple

import lark
from lark import Lark, Token
from lark.exceptions import (UnexpectedCharacters, UnexpectedEOF, UnexpectedInput,
                             UnexpectedToken, VisitError)
from lark.indenter import DedentError, Indenter

from gamedsl.syntax import ast as A
from gamedsl.language import MAX_SOURCE_BYTES, grammar_text
from gamedsl.syntax import cache_store
from gamedsl.syntax.cache_store import private_folder
from gamedsl.diagnostics import Diagnostic
from gamedsl.language import MAX_NUMBER
from gamedsl.syntax.cuts import declarations
from gamedsl.syntax.to_ast import ToAst, NotCallable, NumberTooLarge, finish_calls

MAX_NESTING = 60  # indentation levels and brackets: deeper input is refused, not recursed into
# Levels of the parse tree. Chains without brackets (1 + 1 + ... or - - - 1) nest too, and
# every later pass recurses over the tree: the real games need fewer than 20.
MAX_TREE_DEPTH = 150


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


def _cache_entry(grammar: str, start: str) -> Optional[str]:
    """Where the built parser is kept between runs: building it costs ~0.3 s of every
    `gamedsl check`. lark saves it as a pickle: so it is kept signed, in the private cache
    folder (gamedsl/syntax/cache_store.py), never with lark's own cache, which unpickles
    what it finds; None (no cache) when there is no such folder."""
    folder = private_folder()
    if folder is None:
        return None
    digest = hashlib.sha256(grammar.encode("utf-8")).hexdigest()[:16]
    return os.path.join(folder, f"grammar-{digest}-{start}-lark-{lark.__version__}.cache")


_OPTIONS = dict(parser="lalr", propagate_positions=True, maybe_placeholders=False)


# One parser per start rule: in a parser built for both, LALR merges the states of a game's
# blocks with a scenario's, and the contextual lexer then reads a scenario's keyword (`play`)
# where a game file means a name (an alternative named `play`).
@functools.lru_cache(maxsize=2)
def _parser(start: str) -> Lark:
    grammar = grammar_text()
    entry = _cache_entry(grammar, start)
    saved = cache_store.load(entry) if entry else None
    if isinstance(saved, bytes):
        try:
            return Lark.load(io.BytesIO(saved), postlex=_Indenter(), propagate_positions=True)
        except Exception:  # a parser saved by another lark: built again below
            pass
    parser = Lark(grammar, postlex=_Indenter(), start=start, **_OPTIONS)
    if entry:
        out = io.BytesIO()
        parser.save(out, exclude_options=("postlex",))
        cache_store.store(os.path.dirname(entry), entry, out.getvalue())
    return parser


# ---------------------------------------------------------------- errors in words

_TOKEN_WORDS = {
    "_NL": "the end of the line", "_INDENT": "an indented block", "_DEDENT": "the end of the block",
    "NAME": "a name", "NUMBER": "a number", "STRING": 'a quoted text ("...")',
    "COLON": "':'", "COMMA": "','", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'",
    "EQUAL": "'='", "VBAR": "'|'", "DOT": "'.'", "QMARK": "'?'", "PLUS": "'+'", "MINUS": "'-'",
    "$END": "the end of the file",
}


# LALR merges look-aheads, so `expected` is broad: name the structural tokens a
# person most likely forgot, and only fall back to keywords when there are none.
_STRUCTURAL = ["RPAR", "RSQB", "COLON", "_NL", "COMMA", "EQUAL", "_INDENT", "NAME", "NUMBER", "STRING",
               "VBAR", "LPAR"]


# Blocks whose lines start with one of a few keywords: those are what a person forgot.
_LINE_KEYWORDS = [("FOLD", "MATCH", "WILD")]


def _describe_expected(expected) -> str:
    expected = set(expected)
    for keywords in _LINE_KEYWORDS:
        if expected.issuperset(keywords):
            words = [f"'{k.lower()}'" for k in keywords]
            return ", ".join(words[:-1]) + " or " + words[-1]
    words = [_TOKEN_WORDS[t] for t in _STRUCTURAL if t in expected][:4]
    if not words:
        words = [f"'{t.lower()}'" for t in sorted(expected) if t.isalpha() and t.isupper()][:5]
    if not words:
        return "something else"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _unclosed_bracket(source: str, line: int):
    """The innermost bracket opened before `line` and still open there, as (char, line, col)."""
    stack = []
    for n, text in enumerate(source.splitlines()[: max(0, line - 1)], 1):
        in_text = False
        for col, ch in enumerate(text, 1):
            if ch == '"':
                in_text = not in_text
            elif in_text:
                continue
            elif ch == "#":
                break
            elif ch in "([":
                stack.append((ch, n, col))
            elif ch in ")]" and stack:
                stack.pop()
    return stack[-1] if stack else None


def _bad_dedent_line(source: str) -> int:
    """The first line whose indentation returns to no level that is open (lark does not say)."""
    levels = [0]
    for n, text in enumerate(source.splitlines(), 1):
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(text.expandtabs(4)) - len(text.expandtabs(4).lstrip())
        if indent > levels[-1]:
            levels.append(indent)
            continue
        while levels and indent < levels[-1]:
            levels.pop()
        if not levels or levels[-1] != indent:
            return n
    return 1


def _describe_token(tok: Token) -> str:
    if tok.type == "_NL":
        return "the end of the line"
    if tok.type == "_INDENT":
        return "an indented line"
    if tok.type == "_DEDENT":
        return "the end of an indented block"
    if tok.type == "$END":
        return "the end of the file"
    return f"'{tok.value}'"


def _open_block(source: str, line: int) -> Optional[Tuple[str, int]]:
    """The innermost block header (a line ending in ':') that encloses `line`, if any."""
    lines = source.splitlines()
    if not lines:
        return None
    line = min(line, len(lines))
    current = lines[line - 1]
    indent = len(current) - len(current.lstrip()) if current.strip() else 10**6
    for n in range(line - 1, 0, -1):
        text = lines[n - 1]
        stripped = text.split("#", 1)[0].rstrip()
        if not stripped:
            continue
        ind = len(text) - len(text.lstrip())
        if ind < indent and stripped.endswith(":"):
            return stripped.strip(), n
        if ind < indent:
            indent = ind
    return None


def _syntax_diagnostic(err: Exception, source: str, path: str) -> Diagnostic:
    line = getattr(err, "line", 1) or 1
    col = getattr(err, "column", 1) or 1
    if line < 1:
        lines = source.splitlines() or [""]
        line, col = len(lines), len(lines[-1]) + 1
    span = A.Span(path, line, col, line, col + 1)
    block = _open_block(source, line)
    block_note = f" (inside '{block[0]}' at line {block[1]})" if block else None
    if isinstance(err, UnexpectedCharacters):
        ch = source[err.pos_in_stream] if err.pos_in_stream < len(source) else "?"
        hint = "text goes between double quotes" if ch in "'“”" else None
        if ch == "\t":
            hint = "indent with spaces"
        return Diagnostic("E002", f"unexpected character {ch!r}" + (block_note or ""), span, hint)
    if isinstance(err, UnexpectedToken):
        tok = err.token
        bracket = _unclosed_bracket(source, line)
        if bracket and tok.type not in ("RPAR", "RSQB"):
            ch, bl, bc = bracket
            closer = ")" if ch == "(" else "]"
            return Diagnostic("E006", f"'{ch}' is never closed: expected '{closer}' before this line",
                              A.Span(path, bl, bc, bl, bc + 1), f"add '{closer}' where the list or call ends")
        if tok.type == "$END" or tok.type == "_DEDENT" and not tok.value:
            found = "the end of the file"
        else:
            found = _describe_token(tok)
            if tok.line and tok.type not in ("_NL", "_DEDENT", "_INDENT"):
                span = A.Span(path, tok.line, tok.column, tok.end_line or tok.line,
                              tok.end_column or tok.column + 1)
        # Outside brackets, ')' and ']' are LALR's merged look-ahead, never what was meant.
        expected = _describe_expected(set(err.expected) - {"RPAR", "RSQB"})
        msg = f"found {found}, but expected {expected}"
        hint = _hint_for(tok, err.expected)
        return Diagnostic("E003", msg + (block_note or ""), span, hint)
    if isinstance(err, UnexpectedEOF):
        expected = _describe_expected(err.expected)
        return Diagnostic("E003", f"the file ends too early: expected {expected}" + (block_note or ""), span)
    if isinstance(err, DedentError):
        bad = _bad_dedent_line(source)
        span = A.Span(path, bad, 1, bad, 2)
        return Diagnostic("E004", "this line's indentation matches no enclosing block", span,
                          "indent it like the lines of the block it belongs to")
    return Diagnostic("E003", f"cannot read this: {err}", span)


def _hint_for(tok: Token, expected) -> Optional[str]:
    exp = set(expected)
    if "COLON" in exp and tok.type in ("_NL",):
        return "a block header ends with ':'"
    if tok.type == "_INDENT":
        return "this line is indented more than the line above, which does not open a block"
    if "_INDENT" in exp:
        return "the lines of a block are indented under its header"
    if tok.type == "EQUAL" and "COLON" in exp:
        return "to compare two values, write '=='"
    if tok.type == "NAME" and tok.value in ("elif", "else"):
        return f"'{tok.value}' must line up with its 'if'"
    return None


def _too_deep(source: str) -> Optional[int]:
    depth = 0
    for n, line in enumerate(source.splitlines(), 1):
        stripped = line.lstrip(" ")
        if stripped and not stripped.startswith("#") and (len(line) - len(stripped)) // 2 > MAX_NESTING:
            return n
    for n, line in enumerate(source.splitlines(), 1):
        for ch in line:
            if ch in "([":
                depth += 1
                if depth > MAX_NESTING:
                    return n
            elif ch in ")]":
                depth -= 1
    return None


def _tree_too_deep(tree) -> Optional[int]:
    """The line of a subtree deeper than MAX_TREE_DEPTH, found without recursing."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_TREE_DEPTH:
            return getattr(node.meta, "line", 1) if not node.meta.empty else 1
        stack.extend((c, depth + 1) for c in node.children if isinstance(c, lark.Tree))
    return None


# Syntax errors after which the rest of the file can still be read declaration by declaration
# (not a file too large or too deep, which is refused whole).
_RECOVERABLE = ("E002", "E003", "E004", "E006", "E010")


def parse(source: str, path: str = "<text>", start: str = "game_file",
          recover: bool = True) -> Tuple[Optional[object], List[Diagnostic]]:
    """Parse rule (or scenario) text. Returns (tree or None, diagnostics).

    A game file with a syntax error is read again one top-level declaration at a time, so
    that every declaration's mistake is reported at once: the tree then holds the
    declarations that could be read and `unparsed` the texts of those that could not."""
    tree, diags = _parse(source, path, start)
    if (tree is None and recover and start == "game_file" and diags
            and all(d.code in _RECOVERABLE for d in diags)):
        return _recover(source, path, (tree, diags))
    return tree, diags


def _recover(source: str, path: str, whole):
    """Each top-level declaration parsed alone, where it stands in the file (the cut
    `cuts.declarations` makes: a line starting with a letter outside brackets)."""
    pieces = declarations(source)
    if len(pieces) < 2 and not _after_open_bracket(pieces[0][0], pieces[0][1], whole[1]):
        return whole
    decls: list = []
    diags: List[Diagnostic] = []
    unparsed: List[str] = []
    while pieces:
        line, text = pieces.pop(0)
        tree, found = _parse("\n" * (line - 1) + text, path, "game_file")
        diags.extend(found)
        if tree is not None:
            decls.extend(tree.decls)
            continue
        rest = _after_open_bracket(line, text, found)
        if rest is not None:  # the cut saw one piece down to the end: cut what follows again
            pieces = [(rest[0] + n - 1, t) for n, t in declarations(rest[1])] + pieces
            text = text[:len(text) - len(rest[1])]
        unparsed.append(text)
    if not unparsed or not any(d.is_error for d in diags):
        return whole  # every piece reads alone: the mistake lies between them
    if decls:
        first, last = decls[0].span, decls[-1].span
        span = A.Span(path, first.line, first.col, last.end_line, last.end_col)
    else:
        span = A.Span(path, 1, 1, 1, 1)
    return A.GameFile(span, tuple(decls), tuple(unparsed)), diags


def _after_open_bracket(line: int, text: str, found: List[Diagnostic]) -> Optional[Tuple[int, str]]:
    """A bracket never closed (E006) leaves the cut nothing to cut at below it. What follows
    the first line after it that starts with a letter at the margin (where, brackets apart,
    a declaration begins) is read again as declarations: (its first line, its text)."""
    opened = next((d.span.line for d in found if d.code == "E006" and d.span), None)
    if opened is None:
        return None
    lines = text.split("\n")
    for i in range(max(1, opened - line + 1), len(lines)):
        if lines[i][:1].isascii() and lines[i][:1].isalpha():
            return line + i, "\n".join(lines[i:])
    return None


def _parse(source: str, path: str, start: str) -> Tuple[Optional[object], List[Diagnostic]]:
    if len(source.encode("utf-8", "replace")) > MAX_SOURCE_BYTES:
        return None, [Diagnostic("E001", f"the file is larger than {MAX_SOURCE_BYTES // 1024} KiB",
                                 A.Span(path, 1, 1, 1, 2))]
    deep = _too_deep(source)
    if deep:
        return None, [Diagnostic("E005", f"nesting deeper than {MAX_NESTING} levels",
                                 A.Span(path, deep, 1, deep, 2), "split the rule into procedures or functions")]
    text = source if source.endswith("\n") else source + "\n"
    try:
        tree = _parser(start).parse(text)
    except (UnexpectedInput, DedentError) as err:
        return None, [_syntax_diagnostic(err, source, path)]
    except RecursionError:
        return None, [Diagnostic("E005", "the rule text is nested too deeply to read", A.Span(path, 1, 1, 1, 2))]
    deep = _tree_too_deep(tree)
    if deep:
        return None, [Diagnostic("E005", f"an expression nested deeper than {MAX_TREE_DEPTH} levels",
                                 A.Span(path, deep, 1, deep, 2), "split it with 'let' or functions")]
    to_ast = ToAst(path)
    try:
        result = to_ast.transform(tree)
    except VisitError as err:
        inner = err.orig_exc
        if isinstance(inner, NotCallable):
            return None, [Diagnostic("E003", "only a named function or procedure can be called", inner.span)]
        if isinstance(inner, NumberTooLarge):
            tok = inner.tok
            span = A.Span(path, tok.line, tok.column, tok.end_line or tok.line,
                          min(tok.end_column or tok.column + 1, tok.column + 40))
            return None, [Diagnostic("E010", f"a number larger than {MAX_NUMBER:,}", span,
                                     "rules count with smaller numbers")]
        raise
    diags: List[Diagnostic] = list(to_ast.diags)
    result = finish_calls(result, diags)
    return result, diags
