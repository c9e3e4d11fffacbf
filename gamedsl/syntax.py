"""Syntax: text -> frozen AST (gamedsl.ast), with parse errors a designer can read.

Lark types stop here: the tree is converted to our own nodes with Spans, and
lark's exceptions become Diagnostics that say what was expected (in words, not
token names) and which block is still open.
"""

from __future__ import annotations

import functools
import re
from importlib import resources
from pathlib import Path
from typing import List, Optional, Tuple

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import (UnexpectedCharacters, UnexpectedEOF, UnexpectedInput,
                             UnexpectedToken, VisitError)
from lark.indenter import DedentError, Indenter

from . import ast as A
from .diagnostics import Diagnostic

MAX_SOURCE_BYTES = 4 * 1024 * 1024
MAX_NESTING = 60  # indentation levels and brackets: deeper input is refused, not recursed into


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


def grammar_text() -> str:
    """The grammar, from the installed package data or, in a checkout, from grammar/."""
    try:
        return resources.files("gamedsl.grammar").joinpath("gamedsl.lark").read_text("utf-8")
    except (ModuleNotFoundError, FileNotFoundError, OSError):
        here = Path(__file__).resolve().parent.parent / "grammar" / "gamedsl.lark"
        return here.read_text("utf-8")


@functools.lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(
        grammar_text(), parser="lalr", start=["game_file", "scenario_file"],
        postlex=_Indenter(), propagate_positions=True, maybe_placeholders=False,
        cache=False,
    )


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


def _describe_expected(expected) -> str:
    expected = set(expected)
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


# ---------------------------------------------------------------- tree -> AST


def _num(tok: Token):
    text = str(tok)
    return float(text) if "." in text else int(text)


def _unquote(tok: Token) -> str:
    body = str(tok)[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


class _ToAst(Transformer):
    def __init__(self, path: str):
        super().__init__(visit_tokens=False)
        self.path = path

    def _span(self, meta) -> A.Span:
        if getattr(meta, "empty", True):
            return A.Span(self.path, 0, 0, 0, 0)
        return A.Span(self.path, meta.line, meta.column, meta.end_line, meta.end_column)

    def _tok_span(self, tok: Token) -> A.Span:
        return A.Span(self.path, tok.line, tok.column, tok.end_line or tok.line,
                      tok.end_column or tok.column + len(tok))

    # files ----------------------------------------------------------
    @v_args(meta=True)
    def game_file(self, meta, children):
        return A.GameFile(self._span(meta), tuple(children))

    @v_args(meta=True)
    def scenario_file(self, meta, children):
        game = None
        if children and isinstance(children[0], str):
            game = children.pop(0)
        return A.ScenarioFile(self._span(meta), game, tuple(children))

    def game_ref(self, children):
        return _unquote(children[0])

    # declarations ---------------------------------------------------
    @v_args(meta=True)
    def game_decl(self, meta, c):
        return A.GameDecl(self._span(meta), _unquote(c[0]))

    @v_args(meta=True)
    def extends_decl(self, meta, c):
        return A.ExtendsDecl(self._span(meta), _unquote(c[0]))

    @v_args(meta=True)
    def players_decl(self, meta, c):
        low = int(_num(c[0]))
        high = int(_num(c[1])) if len(c) > 1 else low
        return A.PlayersDecl(self._span(meta), low, high)

    @v_args(meta=True)
    def option_decl(self, meta, c):
        name, *alts, default = c
        return A.OptionDecl(self._span(meta), str(name), tuple(alts), default)

    @v_args(meta=True)
    def option_word(self, meta, c):
        return A.OptionWord(self._span(meta), str(c[0]))

    @v_args(meta=True)
    def option_range(self, meta, c):
        return A.OptionRange(self._span(meta), int(_num(c[0])), int(_num(c[1])))

    @v_args(meta=True)
    def enum_decl(self, meta, c):
        return A.EnumDecl(self._span(meta), str(c[0]),
                          tuple(A.Name(self._tok_span(t), str(t)) for t in c[1:]))

    def table_key(self, c):
        return str(c[0])

    @v_args(meta=True)
    def table_decl(self, meta, c):
        name = str(c[0])
        key = c[1] if len(c) > 1 and isinstance(c[1], str) and not isinstance(c[1], Token) else None
        rows = [r for r in c[1:] if isinstance(r, tuple)]
        header, body = (rows[0], rows[1:]) if rows else ((), [])
        columns = []
        for cell in header:
            if isinstance(cell, A.Column):
                columns.append(cell)
            else:
                columns.append(A.Column(cell.span, str(cell.value), None))
        return A.TableDecl(self._span(meta), name, key, tuple(columns), tuple(body), None)

    @v_args(meta=True)
    def table_file(self, meta, c):
        name = str(c[0])
        key = c[1] if len(c) > 2 else None
        return A.TableDecl(self._span(meta), name, key, (), (), _unquote(c[-1]))

    def table_row(self, c):
        return tuple(c)

    @v_args(meta=True)
    def cell_typed_header(self, meta, c):
        return A.Column(self._span(meta), str(c[0]), c[1])

    @v_args(meta=True)
    def cell_word(self, meta, c):
        return A.Cell(self._span(meta), "word", str(c[0]))

    @v_args(meta=True)
    def cell_number(self, meta, c):
        return A.Cell(self._span(meta), "number", _num(c[0]))

    @v_args(meta=True)
    def cell_negative(self, meta, c):
        return A.Cell(self._span(meta), "number", -_num(c[0]))

    @v_args(meta=True)
    def cell_at_least(self, meta, c):
        return A.Cell(self._span(meta), "at_least", _num(c[0]))

    @v_args(meta=True)
    def cell_range(self, meta, c):
        return A.Cell(self._span(meta), "range", (_num(c[0]), _num(c[1])))

    @v_args(meta=True)
    def cell_text(self, meta, c):
        return A.Cell(self._span(meta), "text", _unquote(c[0]))

    @v_args(meta=True)
    def cell_true(self, meta, c):
        return A.Cell(self._span(meta), "bool", True)

    @v_args(meta=True)
    def cell_false(self, meta, c):
        return A.Cell(self._span(meta), "bool", False)

    @v_args(meta=True)
    def cell_empty(self, meta, c):
        return A.Cell(self._span(meta), "empty", None)

    @v_args(meta=True)
    def kind_decl(self, meta, c):
        name, *items = c
        source = copies = show = None
        per_player = False
        attrs_, states = [], []
        for kind, value in items:
            if kind == "from":
                source = value
            elif kind == "copies":
                copies, per_player = value
            elif kind == "show":
                show = value
            elif kind == "attr":
                attrs_.append(value)
            else:
                states.append(value)
        return A.KindDecl(self._span(meta), str(name), source, copies, per_player, show,
                          tuple(attrs_), tuple(states))

    def kind_from(self, c):
        return ("from", str(c[0]))

    def kind_copies(self, c):
        return ("copies", (c[0], False))

    def kind_copies_per_player(self, c):
        return ("copies", (c[0], True))

    def kind_show(self, c):
        return ("show", c[0])

    @v_args(meta=True)
    def kind_attr(self, meta, c):
        return ("attr", A.KindAttr(self._span(meta), str(c[0]), c[1]))

    @v_args(meta=True)
    def kind_state(self, meta, c):
        return ("state", A.KindState(self._span(meta), str(c[0]), c[1], c[2]))

    def player_scope(self, c):
        return "player" if c else "shared"

    @v_args(meta=True)
    def zone_decl(self, meta, c):
        scope, name, *rest = c
        kinds = tuple(A.Name(self._tok_span(t), str(t)) for t in rest if isinstance(t, Token))
        flags = tuple(f for f in rest if isinstance(f, A.ZoneFlag))
        return A.ZoneDecl(self._span(meta), str(name), scope == "player", kinds, flags)

    @v_args(meta=True)
    def zone_word(self, meta, c):
        return A.ZoneFlag(self._span(meta), str(c[0]), None)

    @v_args(meta=True)
    def zone_sorted(self, meta, c):
        return A.ZoneFlag(self._span(meta), "sorted", str(c[0]))

    @v_args(meta=True)
    def zone_grid(self, meta, c):
        size = (int(_num(c[0])), int(_num(c[1]))) if c else None
        return A.ZoneFlag(self._span(meta), "grid", size)

    @v_args(meta=True)
    def zone_refill(self, meta, c):
        return A.ZoneFlag(self._span(meta), "refill", str(c[0]))

    @v_args(meta=True)
    def var_decl(self, meta, c):
        scope, name, type_, init, *flags = c
        return A.VarDecl(self._span(meta), str(name), scope == "player", type_, init,
                         tuple(A.Name(self._tok_span(t), str(t)) for t in flags))

    @v_args(meta=True)
    def def_decl(self, meta, c):
        name, *rest = c
        params = rest[0] if len(rest) == 2 else ()
        return A.DefDecl(self._span(meta), str(name), params, rest[-1])

    @v_args(meta=True)
    def proc_decl(self, meta, c):
        name, *rest = c
        params = rest[0] if len(rest) == 2 else ()
        return A.ProcDecl(self._span(meta), str(name), params, rest[-1])

    def params(self, c):
        return tuple(c)

    @v_args(meta=True)
    def param(self, meta, c):
        return A.Param(self._span(meta), str(c[0]), c[1])

    @v_args(meta=True)
    def setup_decl(self, meta, c):
        return A.SetupDecl(self._span(meta), c[0])

    @v_args(meta=True)
    def turn_decl(self, meta, c):
        return A.TurnDecl(self._span(meta), c[0])

    @v_args(meta=True)
    def phase_decl(self, meta, c):
        name, *items = c
        begin, turn, end_when, then = (), (), None, None
        for kind, value in items:
            if kind == "begin":
                begin = value
            elif kind == "turn":
                turn = value
            elif kind == "end_when":
                end_when = value
            else:
                then = value
        return A.PhaseDecl(self._span(meta), str(name), begin, turn, end_when, then)

    def phase_begin(self, c):
        return ("begin", c[0])

    def phase_turn(self, c):
        return ("turn", c[0])

    def phase_end_when(self, c):
        return ("end_when", c[0])

    def phase_then(self, c):
        return ("then", A.Name(self._tok_span(c[0]), str(c[0])))

    @v_args(meta=True)
    def score_decl(self, meta, c):
        return A.ScoreDecl(self._span(meta), str(c[0]), c[1])

    @v_args(meta=True)
    def tiebreak_decl(self, meta, c):
        return A.TiebreakDecl(self._span(meta), str(c[0]), c[1])

    @v_args(meta=True)
    def result_decl(self, meta, c):
        return A.ResultDecl(self._span(meta), str(c[0]), str(c[1]), c[2])

    @v_args(meta=True)
    def type_name(self, meta, c):
        return A.TypeName(self._span(meta), str(c[0]))

    @v_args(meta=True)
    def type_optional(self, meta, c):
        inner = A.TypeName(self._tok_span(c[0]), str(c[0]))
        return A.TypeOptional(self._span(meta), inner)

    @v_args(meta=True)
    def type_list(self, meta, c):
        return A.TypeList(self._span(meta), c[0])

    # statements -----------------------------------------------------
    def block(self, c):
        return tuple(c)

    @v_args(meta=True)
    def let_stmt(self, meta, c):
        return A.Let(self._span(meta), str(c[0]), c[1])

    @v_args(meta=True)
    def assign_stmt(self, meta, c):
        return A.Assign(self._span(meta), c[0], str(c[1]), c[2])

    def assign_op(self, c):
        return str(c[0])

    @v_args(meta=True)
    def call_stmt(self, meta, c):
        return ("call_stmt", self._span(meta), c[0])

    @v_args(meta=True)
    def move_stmt(self, meta, c):
        place, dest, cell = c[1]
        return A.Move(self._span(meta), c[0], dest, place, cell)

    def dest_end(self, c):
        return ("end", c[0], None)

    def dest_top(self, c):
        return ("top", c[0], None)

    def dest_cell(self, c):
        return ("cell", c[0], c[1])

    @v_args(meta=True)
    def draw_stmt(self, meta, c):
        return A.Draw(self._span(meta), c[0], c[1], c[2])

    @v_args(meta=True)
    def shuffle_stmt(self, meta, c):
        return A.Shuffle(self._span(meta), c[0])

    @v_args(meta=True)
    def next_turn_stmt(self, meta, c):
        return A.NextTurn(self._span(meta), c[0])

    @v_args(meta=True)
    def end_game_stmt(self, meta, c):
        after = any(x == "after_round" for x in c)
        winner = next((x[1] for x in c if isinstance(x, tuple)), None)
        return A.EndGame(self._span(meta), after, winner)

    def end_when(self, c):
        return "after_round"

    def end_winner(self, c):
        return ("winner", c[0])

    @v_args(meta=True)
    def say_stmt(self, meta, c):
        return A.Say(self._span(meta), c[0])

    @v_args(meta=True)
    def break_stmt(self, meta, c):
        return A.Break(self._span(meta))

    @v_args(meta=True)
    def return_stmt(self, meta, c):
        return A.Return(self._span(meta))

    @v_args(meta=True)
    def pass_stmt(self, meta, c):
        return A.Pass(self._span(meta))

    @v_args(meta=True)
    def if_stmt(self, meta, c):
        branches = [A.IfBranch(self._span(meta), c[0], c[1])]
        orelse = ()
        for extra in c[2:]:
            if isinstance(extra, A.IfBranch):
                branches.append(extra)
            else:
                orelse = extra[1]
        return A.If(self._span(meta), tuple(branches), orelse)

    @v_args(meta=True)
    def elif_clause(self, meta, c):
        return A.IfBranch(self._span(meta), c[0], c[1])

    def else_clause(self, c):
        return ("else", c[0])

    @v_args(meta=True)
    def for_stmt(self, meta, c):
        return A.For(self._span(meta), str(c[0]), c[1], c[2])

    @v_args(meta=True)
    def while_stmt(self, meta, c):
        return A.While(self._span(meta), c[0], c[1])

    @v_args(meta=True)
    def repeat_times(self, meta, c):
        return A.Repeat(self._span(meta), c[0], c[1])

    @v_args(meta=True)
    def repeat_forever(self, meta, c):
        return A.Repeat(self._span(meta), None, c[0])

    @v_args(meta=True)
    def choose_stmt(self, meta, c):
        return A.Choose(self._span(meta), c[0], tuple(c[1:]))

    @v_args(meta=True)
    def secret_choose_stmt(self, meta, c):
        return A.SecretChoose(self._span(meta), str(c[0]), c[1], tuple(c[2:]))

    @v_args(meta=True)
    def alternative(self, meta, c):
        name, *rest = c
        params, template, guard = (), None, None
        body = rest.pop()
        for item in rest:
            if isinstance(item, tuple) and item and item[0] == "guard":
                guard = item[1]
            elif isinstance(item, tuple):
                params = item
            else:
                template = _unquote(item)
        return A.Alternative(self._span(meta), str(name), params, template, guard, body)

    def alt_params(self, c):
        return tuple(c)

    @v_args(meta=True)
    def alt_param(self, meta, c):
        return A.AltParam(self._span(meta), str(c[0]), c[1])

    def alt_guard(self, c):
        return ("guard", c[0])

    # expressions ----------------------------------------------------
    @v_args(meta=True)
    def conditional(self, meta, c):
        return A.Conditional(self._span(meta), c[1], c[0], c[2])

    @v_args(meta=True)
    def or_op(self, meta, c):
        return A.Or(self._span(meta), c[0], c[1])

    @v_args(meta=True)
    def and_op(self, meta, c):
        return A.And(self._span(meta), c[0], c[1])

    @v_args(meta=True)
    def not_op(self, meta, c):
        return A.Not(self._span(meta), c[0])

    @v_args(meta=True)
    def compare(self, meta, c):
        return A.Compare(self._span(meta), c[1], c[0], c[2])

    @v_args(meta=True)
    def contains(self, meta, c):
        return A.Compare(self._span(meta), "in", c[0], c[1])

    @v_args(meta=True)
    def not_contains(self, meta, c):
        return A.Compare(self._span(meta), "not in", c[0], c[1])

    def comp_op(self, c):
        return str(c[0])

    add_op = mul_op = comp_op

    @v_args(meta=True)
    def binop(self, meta, c):
        return A.BinOp(self._span(meta), c[1], c[0], c[2])

    @v_args(meta=True)
    def negate(self, meta, c):
        return A.Negate(self._span(meta), c[0])

    @v_args(meta=True)
    def attribute(self, meta, c):
        return A.Attribute(self._span(meta), c[0], str(c[1]))

    @v_args(meta=True)
    def index(self, meta, c):
        return A.Index(self._span(meta), c[0], c[1])

    @v_args(meta=True)
    def call(self, meta, c):
        func = c[0]
        args = c[1] if len(c) > 1 else ()
        if not isinstance(func, A.Name):
            raise _NotCallable(self._span(meta))
        return A.Call(self._span(meta), func.name, args)

    def args(self, c):
        return tuple(c)

    @v_args(meta=True)
    def name(self, meta, c):
        return A.Name(self._span(meta), str(c[0]))

    @v_args(meta=True)
    def number(self, meta, c):
        return A.Number(self._span(meta), _num(c[0]))

    @v_args(meta=True)
    def text(self, meta, c):
        return A.Text(self._span(meta), _unquote(c[0]))

    @v_args(meta=True)
    def true(self, meta, c):
        return A.Bool(self._span(meta), True)

    @v_args(meta=True)
    def false(self, meta, c):
        return A.Bool(self._span(meta), False)

    @v_args(meta=True)
    def none(self, meta, c):
        return A.NoneLit(self._span(meta))

    @v_args(meta=True)
    def tuple(self, meta, c):
        return A.TupleExpr(self._span(meta), tuple(c))

    @v_args(meta=True)
    def list(self, meta, c):
        return A.ListExpr(self._span(meta), tuple(c))

    @v_args(meta=True)
    def comprehension(self, meta, c):
        cond = c[3] if len(c) > 3 else None
        return A.Comprehension(self._span(meta), c[0], str(c[1]), c[2], cond)

    @v_args(meta=True)
    def sort(self, meta, c):
        return A.Sort(self._span(meta), str(c[0]), c[1], c[2])

    def sort_keys(self, c):
        return tuple(c)

    @v_args(meta=True)
    def sort_key(self, meta, c):
        return A.SortKey(self._span(meta), c[0], c[1])

    def sort_dir(self, c):
        return str(c[0])

    @v_args(meta=True)
    def lit_word(self, meta, c):
        return A.Name(self._span(meta), str(c[0]))

    @v_args(meta=True)
    def lit_number(self, meta, c):
        return A.Number(self._span(meta), _num(c[0]))

    @v_args(meta=True)
    def lit_negative(self, meta, c):
        return A.Number(self._span(meta), -_num(c[0]))

    @v_args(meta=True)
    def lit_text(self, meta, c):
        return A.Text(self._span(meta), _unquote(c[0]))

    @v_args(meta=True)
    def lit_true(self, meta, c):
        return A.Bool(self._span(meta), True)

    @v_args(meta=True)
    def lit_false(self, meta, c):
        return A.Bool(self._span(meta), False)

    # scenarios ------------------------------------------------------
    @v_args(meta=True)
    def scenario(self, meta, c):
        return A.Scenario(self._span(meta), _unquote(c[0]), tuple(c[1:]))

    @v_args(meta=True)
    def sc_players(self, meta, c):
        return A.ScPlayers(self._span(meta), int(_num(c[0])))

    @v_args(meta=True)
    def sc_seed(self, meta, c):
        return A.ScSeed(self._span(meta), int(_num(c[0])))

    @v_args(meta=True)
    def sc_option(self, meta, c):
        return A.ScOption(self._span(meta), str(c[0]), c[1])

    @v_args(meta=True)
    def sc_given(self, meta, c):
        return A.ScGiven(self._span(meta), c[0])

    @v_args(meta=True)
    def sc_move(self, meta, c):
        return A.ScMove(self._span(meta), _unquote(c[0]), c[1] if len(c) > 1 else None)

    @v_args(meta=True)
    def sc_refuse(self, meta, c):
        text = _unquote(c[0])
        by = because = None
        for item in c[1:]:
            if isinstance(item, Token):
                because = _unquote(item)
            else:
                by = item
        return A.ScRefuse(self._span(meta), text, by, because)

    def move_by(self, c):
        return c[0]

    @v_args(meta=True)
    def sc_expect(self, meta, c):
        return A.ScExpect(self._span(meta), c[0])

    @v_args(meta=True)
    def sc_random(self, meta, c):
        return A.ScRandom(self._span(meta), int(_num(c[0])))


class _NotCallable(Exception):
    def __init__(self, span):
        self.span = span


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


def parse(source: str, path: str = "<text>", start: str = "game_file") -> Tuple[Optional[object], List[Diagnostic]]:
    """Parse rule (or scenario) text. Returns (tree or None, diagnostics)."""
    if len(source.encode("utf-8", "replace")) > MAX_SOURCE_BYTES:
        return None, [Diagnostic("E001", f"the file is larger than {MAX_SOURCE_BYTES // 1024} KiB",
                                 A.Span(path, 1, 1, 1, 2))]
    deep = _too_deep(source)
    if deep:
        return None, [Diagnostic("E005", f"nesting deeper than {MAX_NESTING} levels",
                                 A.Span(path, deep, 1, deep, 2), "split the rule into procedures or functions")]
    text = source if source.endswith("\n") else source + "\n"
    try:
        tree = _parser().parse(text, start=start)
    except (UnexpectedInput, DedentError) as err:
        return None, [_syntax_diagnostic(err, source, path)]
    except RecursionError:
        return None, [Diagnostic("E005", "the rule text is nested too deeply to read", A.Span(path, 1, 1, 1, 2))]
    try:
        result = _ToAst(path).transform(tree)
    except VisitError as err:
        inner = err.orig_exc
        if isinstance(inner, _NotCallable):
            return None, [Diagnostic("E003", "only a named function or procedure can be called", inner.span)]
        raise
    diags: List[Diagnostic] = []
    result = _finish_calls(result, diags)
    return result, diags


def _finish_calls(node, diags):
    """Replace the ("call_stmt", span, expr) placeholders by CallStmt nodes, recursively."""
    import attrs as _attrs

    def fix(value):
        if isinstance(value, tuple) and len(value) == 3 and value and value[0] == "call_stmt":
            _, span, expr = value
            if isinstance(expr, A.Call):
                return A.CallStmt(span, expr)
            diags.append(Diagnostic("E003", "this line does nothing: a statement is a call, an "
                                    "assignment, 'let', 'move', 'if', 'choose', ...", span,
                                    "to change a value write 'x = ...' or 'x += ...'"))
            return A.Pass(span)
        if isinstance(value, tuple):
            return tuple(fix(v) for v in value)
        if _attrs.has(type(value)):
            changes = {}
            for field in _attrs.fields(type(value)):
                old = getattr(value, field.name)
                if isinstance(old, tuple) or _attrs.has(type(old)):
                    new = fix(old)
                    if new is not old:
                        changes[field.name] = new
            return _attrs.evolve(value, **changes) if changes else value
        return value

    return fix(node)
