"""The parse tree -> our AST: lark's tree becomes frozen gamedsl.syntax.ast nodes with Spans.

One method per grammar rule (the rule's name, or its `-> alias`); tokens keep their
positions so every node knows where it was written.
"""

from __future__ import annotations

import re

import attrs
from lark import Token, Transformer, v_args

from gamedsl.syntax import ast as A
from gamedsl.language import MAX_NUMBER
from gamedsl.diagnostics import Diagnostic


class NumberTooLarge(Exception):
    """A number written larger than the engine computes with (see builtins.MAX_NUMBER)."""

    def __init__(self, tok: Token):
        super().__init__(str(tok))
        self.tok = tok


def _num(tok: Token):
    text = str(tok)
    whole = text.split(".")[0].lstrip("0") or "0"
    # Checked on the digits first: Python refuses to read an int of more than 4300 digits.
    if len(whole) > len(str(MAX_NUMBER)) or int(whole) > MAX_NUMBER:
        raise NumberTooLarge(tok)
    return float(text) if "." in text else int(text)


def _split_choice(items) -> tuple:
    """A choice's (timer, alternatives, `on timeout:` blocks) from its parsed children."""
    timer = None
    if items and isinstance(items[0], tuple) and items[0][0] == "timer":
        timer, items = items[0][1], items[1:]
    alts = tuple(i for i in items if not isinstance(i, A.OnTimeout))
    return timer, alts, tuple(i for i in items if isinstance(i, A.OnTimeout))


def _unquote(tok: Token) -> str:
    body = str(tok)[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


class ToAst(Transformer):
    def __init__(self, path: str):
        super().__init__(visit_tokens=False)
        self.path = path
        self.diags = []  # what the grammar allows but the language does not (a second `copies`)

    def _once(self, meta, owner: str, seen: set, item: str):
        if item in seen:
            self.diags.append(Diagnostic("E301", f"this {owner} has more than one '{item}'", self._span(meta),
                                         "keep one, and delete or merge the others"))
        seen.add(item)

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
        faces: tuple = ()
        each: tuple = ()
        seen: set = set()
        for kind, value in items:
            if kind in ("from", "for", "copies", "show", "faces"):
                self._once(meta, f"kind '{name}'", seen, kind)
            if kind == "from":
                source = value
            elif kind == "for":
                each = value
            elif kind == "copies":
                copies, per_player = value
            elif kind == "show":
                show = value
            elif kind == "faces":
                faces = value
            elif kind == "attr":
                attrs_.append(value)
            else:
                states.append(value)
        return A.KindDecl(self._span(meta), str(name), source, copies, per_player, show,
                          tuple(attrs_), tuple(states), faces, each)

    def kind_from(self, c):
        return ("from", str(c[0]))

    def kind_for(self, c):
        return ("for", tuple(c))

    @v_args(meta=True)
    def kind_each(self, meta, c):
        return A.KindEach(self._span(meta), str(c[0]), c[1])

    def kind_copies(self, c):
        return ("copies", (c[0], False))

    def kind_copies_per_player(self, c):
        return ("copies", (c[0], True))

    def kind_show(self, c):
        return ("show", c[0])

    @v_args(meta=True)
    def kind_attr(self, meta, c):
        return ("attr", A.KindAttr(self._span(meta), str(c[0]), c[1]))

    def kind_faces(self, c):
        return ("faces", tuple(A.Name(self._tok_span(t), str(t)) for t in c))

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
        family = next((f for f in rest if isinstance(f, A.ZoneFamily)), None)
        return A.ZoneDecl(self._span(meta), str(name), scope == "player", kinds, flags, family)

    @v_args(meta=True)
    def zone_by_enum(self, meta, c):
        e = c[0]
        if isinstance(e, A.Call) and e.implicit and e.name == "range":  # `[1..n]` read as an interval
            return A.ZoneFamily(self._span(meta), None, e.args[0], e.args[1])
        return A.ZoneFamily(self._span(meta), e)

    @v_args(meta=True)
    def zone_by_range(self, meta, c):
        return A.ZoneFamily(self._span(meta), None, c[0], c[1])

    @v_args(meta=True)
    def zone_capacity(self, meta, c):
        return A.ZoneFlag(self._span(meta), "capacity", int(_num(c[0])))

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
        seen: set = set()
        words = {"begin": "on begin", "turn": "turn", "end_when": "end when", "then": "then"}
        for kind, value in items:
            self._once(meta, f"phase '{name}'", seen, words[kind])
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
        return A.ScoreDecl(self._span(meta), str(c[0]), c[1], lowest=len(c) > 2)

    def score_lowest(self, c):
        return "lowest"

    @v_args(meta=True)
    def shared_score_decl(self, meta, c):
        return A.ScoreDecl(self._span(meta), None, c[0])

    @v_args(meta=True)
    def cooperative_decl(self, meta, c):
        return A.CooperativeDecl(self._span(meta))

    @v_args(meta=True)
    def team_decl(self, meta, c):
        return A.TeamDecl(self._span(meta), str(c[0]), c[1])

    @v_args(meta=True)
    def heuristic_decl(self, meta, c):
        return A.HeuristicDecl(self._span(meta), str(c[0]), c[1])

    @v_args(meta=True)
    def tiebreak_decl(self, meta, c):
        return A.TiebreakDecl(self._span(meta), str(c[0]), c[1])

    @v_args(meta=True)
    def result_decl(self, meta, c):
        return A.ResultDecl(self._span(meta), str(c[0]), str(c[1]), c[2])

    # display: each line a (what, value) pair, gathered into one DisplayDecl
    @v_args(meta=True)
    def display_decl(self, meta, c):
        parts = {"hidden": [], "table": [], "mat": [], "reveal": []}
        header = None
        for what, value in c:
            if what == "header":
                if header is not None:
                    self.diags.append(Diagnostic("E301", "a second 'header' in 'display'", value.span,
                                                 "keep one: join the texts with +"))
                header = header or value
            else:
                parts[what] += value
        return A.DisplayDecl(self._span(meta), header, *(tuple(parts[k]) for k in ("hidden", "table", "mat", "reveal")))

    def display_header(self, c):
        return ("header", c[0])

    def _display_names(self, c):
        return [A.DisplayEntry(self._tok_span(t), str(t)) for t in c if isinstance(t, Token)]

    def display_hide(self, c):
        return ("hidden", self._display_names(c))

    def display_reveal(self, c):
        return ("reveal", self._display_names(c))

    def display_table(self, c):
        return ("table", list(c))

    def display_mat(self, c):
        return ("mat", list(c))

    def display_entry(self, c):
        label = next((_unquote(t) for t in c[1:] if isinstance(t, Token)), None)
        states = next((t for t in c[1:] if isinstance(t, tuple)), None)
        return A.DisplayEntry(self._tok_span(c[0]), str(c[0]), label, states)

    def display_states(self, c):
        return tuple(c)

    def display_state(self, c):
        return A.DisplayEntry(self._tok_span(c[0]), str(c[0]), _unquote(c[1]) if len(c) > 1 else None)

    @v_args(meta=True)
    def public_decl(self, meta, c):
        return A.PublicDecl(self._span(meta), str(c[0]), str(c[1]), c[2])

    @v_args(meta=True)
    def words_decl(self, meta, c):
        name, source, *items = c
        options = {"wild": None}
        matches, folds, seen = [], [], set()
        for item in items:
            if item.what == "fold" and any(f.value == item.value for f in folds):
                self.diags.append(Diagnostic("E301", f"word list '{name}' folds by table {item.value} "
                                             "twice", item.span, "keep one"))
                continue
            if item.what in ("match", "fold"):
                (matches if item.what == "match" else folds).append(item)
                continue
            if item.what in seen:
                self.diags.append(Diagnostic("E301", f"word list '{name}' has more than one "
                                             f"'{item.what}'", item.span, "keep one"))
            seen.add(item.what)
            options[item.what] = options[item.what] or item
        return A.WordsDecl(self._span(meta), str(name), _unquote(source), (), tuple(folds),
                           tuple(matches), options["wild"])

    def _line_span(self, meta, last: Token) -> A.Span:
        """A block line's span, without the line break the rule ends with."""
        end = self._tok_span(last)
        return A.Span(self.path, meta.line, meta.column, end.end_line, end.end_col)

    @v_args(meta=True)
    def words_fold(self, meta, c):
        return A.WordsOption(self._line_span(meta, c[0]), "fold", str(c[0]))

    @v_args(meta=True)
    def words_match(self, meta, c):
        return A.WordsOption(self._line_span(meta, c[1]), "match", _unquote(c[0]), _unquote(c[1]))

    @v_args(meta=True)
    def words_wild(self, meta, c):
        return A.WordsOption(self._line_span(meta, c[0]), "wild", _unquote(c[0]))

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
        place, dest, cell, *end = c[1]
        return A.Move(self._span(meta), c[0], dest, place, cell, end[0] if end else None)

    def dest_end(self, c):
        return ("end", c[0], None)

    def dest_top(self, c):
        return ("top", c[0], None)

    def dest_cell(self, c):
        return ("cell", c[0], c[1])

    def dest_position(self, c):
        return ("cell", c[0], c[1], str(c[2]))

    def zone_end(self, c):
        return str(c[0])

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

    @v_args(meta=True)
    def end_game_outcome(self, meta, c):
        return A.EndGame(self._span(meta), any(x == "after_round" for x in c), None, c[-1])

    def outcome_won(self, c):
        return "won"

    def outcome_lost(self, c):
        return "lost"

    @v_args(meta=True)
    def end_round_stmt(self, meta, c):
        return A.EndRound(self._span(meta))

    @v_args(meta=True)
    def leave_round_stmt(self, meta, c):
        return A.LeaveRound(self._span(meta), c[0] if c else None)

    def end_when(self, c):
        return "after_round"

    def end_winner(self, c):
        return ("winner", c[0])

    @v_args(meta=True)
    def say_stmt(self, meta, c):
        return A.Say(self._span(meta), c[0])

    @v_args(meta=True)
    def say_to_stmt(self, meta, c):
        return A.Say(self._span(meta), c[0], c[1])

    @v_args(meta=True)
    def show_stmt(self, meta, c):
        return A.Show(self._span(meta), c[0], c[1])

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
        timer, alts, timeouts = _split_choice(c[1:])
        return A.Choose(self._span(meta), c[0], alts, timer, timeouts)

    @v_args(meta=True)
    def secret_choose_stmt(self, meta, c):
        timer, alts, timeouts = _split_choice(c[2:])
        return A.SecretChoose(self._span(meta), str(c[0]), c[1], alts, timer, timeouts)

    def choose_timer(self, c):
        return ("timer", c[0])

    @v_args(meta=True)
    def alt_timeout(self, meta, c):
        return A.OnTimeout(self._span(meta), c[0])

    @v_args(meta=True)
    def alternative(self, meta, c):
        name, *rest = c
        params, template, guard, suggest, refusal, help_text = (), None, None, None, None, None
        body = rest.pop()
        for item in rest:
            if isinstance(item, tuple) and item and item[0] == "guard":
                guard, refusal = item[1], item[2]
            elif isinstance(item, tuple) and item and item[0] == "suggest":
                suggest = item[1]
            elif isinstance(item, tuple) and item and item[0] == "help":
                help_text = item[1]
            elif isinstance(item, tuple):
                params = item
            else:
                template = _unquote(item)
        return A.Alternative(self._span(meta), str(name), params, template, guard, body,
                             suggest, refusal, help_text)

    def alt_params(self, c):
        return tuple(c)

    @v_args(meta=True)
    def alt_param(self, meta, c):
        return A.AltParam(self._span(meta), str(c[0]), c[1])

    @v_args(meta=True)
    def alt_param_optional(self, meta, c):
        return A.AltParam(self._span(meta), str(c[0]), c[1], nobody=True)

    @v_args(meta=True)
    def alt_param_typed(self, meta, c):
        return A.AltParam(self._span(meta), str(c[0]), None, c[1])

    def alt_suggest(self, c):
        return ("suggest", c[0])

    def alt_help(self, c):
        return ("help", _unquote(c[0]))

    def alt_guard(self, c):
        return ("guard", c[0], c[1] if len(c) > 1 else None)

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
            raise NotCallable(self._span(meta))
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
        # `[e for x in A for y in B]` is `flatten([[e for y in B] for x in A])`: each later
        # `for` is a comprehension inside the earlier one's, so every stage reads one clause
        span, element, *clauses = self._span(meta), c[0], *c[1:]
        var, source, cond = clauses[-1]
        inner = A.Comprehension(span, element, var, source, cond)
        for var, source, cond in reversed(clauses[:-1]):
            inner = A.Call(span, "flatten", (A.Comprehension(span, inner, var, source, cond),), True)
        return inner

    def comp_for(self, c):
        return (str(c[0]), c[1], c[2] if len(c) > 2 else None)

    @v_args(meta=True)
    def interval(self, meta, c):
        return A.Call(self._span(meta), "range", (c[0], c[1]), True)

    @v_args(meta=True)
    def sort(self, meta, c):
        return A.Sort(self._span(meta), str(c[0]), c[1], c[2])

    def sort_keys(self, c):
        return tuple(k for k in c if isinstance(k, A.SortKey))

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
    def sc_view(self, meta, c):
        name = str(c[1]) if len(c) == 3 else f"{c[1]}[{_num(c[2]) if c[2].type == 'NUMBER' else c[2]}]"
        return A.ScView(self._span(meta), c[0], name, c[-1])

    def view_member(self, c):
        return c[0]

    @v_args(meta=True)
    def sc_random(self, meta, c):
        return A.ScRandom(self._span(meta), int(_num(c[0])))


class NotCallable(Exception):
    def __init__(self, span):
        self.span = span


def finish_calls(node, diags):
    """Replace the ("call_stmt", span, expr) placeholders by CallStmt nodes, recursively."""
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
        if attrs.has(type(value)):
            changes = {}
            for field in attrs.fields(type(value)):
                old = getattr(value, field.name)
                if isinstance(old, tuple) or attrs.has(type(old)):
                    new = fix(old)
                    if new is not old:
                        changes[field.name] = new
            return attrs.evolve(value, **changes) if changes else value
        return value

    return fix(node)
