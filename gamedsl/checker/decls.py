"""Declarations: building the global names, and the checks of options, enums, tables,
kinds, zones, variables and defs. Each ``check_*(g)`` returns its diagnostics."""

from __future__ import annotations

import re
from typing import List

from gamedsl.syntax import ast as A
from gamedsl.checker import types as T
from gamedsl.checker.exprs import def_result, expect_type, infer, kind_env, member_type
from gamedsl.checker.scope import Env, FuncInfo, Globals, KindInfo, Member, WHAT, head_span, unknown
from gamedsl.checker.tables import build_table
from gamedsl.diagnostics import Diagnostic, did_you_mean
from gamedsl.language import MAX_FAMILY
from gamedsl.checker.signatures import BUILTIN_NAMES, BUILTINS

MAX_GRID_CELLS = 100_000
MAX_PLAYERS = 100  # a table, not a stadium: every state holds a list per player
ZONE_WORDS = ("public", "hidden", "owner", "others", "grid")
VISIBILITY = ("public", "hidden", "owner", "others")
VAR_FLAGS = ("secret", "counter")

_KEYWORD = {A.EnumDecl: "enum", A.OptionDecl: "option", A.TableDecl: "table",
            A.KindDecl: "kind", A.ZoneDecl: "zone", A.VarDecl: "var", A.DefDecl: "def",
            A.ProcDecl: "procedure", A.PhaseDecl: "phase", A.ResultDecl: "result",
            A.PublicDecl: "public", A.WordsDecl: "words"}


def name_span(g: Globals, decl) -> A.Span:
    """Where a declaration's name is written (its keyword's place if the text is unknown)."""
    kw = _KEYWORD.get(type(decl), "")
    span = g.locate(decl.span, r"\b" + kw + r"\s+(" + re.escape(decl.name) + r")\b")
    return span if span is not decl.span else head_span(decl.span, len(kw) or 1)


def option_type(decl: A.OptionDecl):
    words = any(isinstance(a, A.OptionWord) for a in decl.alternatives)
    ranges = any(isinstance(a, A.OptionRange) for a in decl.alternatives)
    if words and ranges:
        return T.OptionMix(decl.name)
    return T.Enum(decl.name) if words else T.NUMBER


# ---------------------------------------------------------------- building the globals


def build_globals(game: A.GameFile, sources=None) -> Globals:
    g = Globals(game, sources)
    for d in g.of(A.EnumDecl):
        g.declare(d.name, "enum", d)
        g.type_scope.setdefault(d.name, T.Enum(d.name))
        if d.name not in g.enum_values:
            g.enum_values[d.name] = [v.name for v in d.values]
            for v in d.values:
                g.words.setdefault(v.name, []).append(d.name)
    for d in g.of(A.OptionDecl):
        g.declare(d.name, "option", d, option_type(d))
        if d.name not in g.enum_values:
            words = [a.word for a in d.alternatives if isinstance(a, A.OptionWord)]
            g.enum_values[d.name] = words
            for w in dict.fromkeys(words):
                g.words.setdefault(w, []).append(d.name)
    for d in g.of(A.WordsDecl):
        g.declare(d.name, "words", d, T.Words(d.name))
    for d in g.of(A.KindDecl):
        g.declare(d.name, "kind", d, T.List(T.kind(d.name)))
        g.type_scope.setdefault(d.name, T.kind(d.name))
    for d in g.of(A.TableDecl):
        if g.declare(d.name, "table", d, T.Table(d.name)).decl is d:
            g.tables[d.name] = build_table(g, d)
    for d in g.of(A.KindDecl):
        if g.symbols[d.name].decl is d:
            g.kinds[d.name] = _build_kind(g, d)
    for d in g.of(A.ZoneDecl):
        sym = g.declare(d.name, "player zone" if d.per_player else "zone", d, g.zone_symbol_type(d))
        if sym.decl is d:
            g.zones[d.name] = d
            if d.per_player:
                g.player_members[d.name] = sym
    for d in g.of(A.VarDecl):
        type_, _ = T.parse_type(d.type, g.type_scope)
        sym = g.declare(d.name, "player var" if d.per_player else "var", d, type_)
        if sym.decl is d and d.per_player:
            g.player_members[d.name] = sym
    for d in g.of(A.DefDecl) + g.of(A.ProcDecl):
        what = "def" if isinstance(d, A.DefDecl) else "procedure"
        if g.declare(d.name, what, d).decl is d:
            params = [(p.name, T.parse_type(p.type, g.type_scope)[0]) for p in d.params]
            g.funcs[d.name] = FuncInfo(d, params)
    for d in g.of(A.PhaseDecl):
        g.phases.setdefault(d.name, d)
    return g


def _build_kind(g: Globals, d: A.KindDecl) -> KindInfo:
    info = KindInfo(d, {})
    if d.source_table is not None:
        table = g.tables.get(d.source_table)
        if table is None:
            span = g.locate(d.span, r"^\s*from\s+(" + re.escape(d.source_table) + r")\b")
            info.diags.append(unknown("E106", "table", d.source_table, g.tables, span))
        else:
            g.use(d.source_table)
            info.open = table.columns is None
            for col in (table.decl.columns if table.columns is not None else ()):
                info.members.setdefault(col.name, Member(col.name, "column", col,
                                                         table.columns.get(col.name, T.ANY)))
            if table.columns is not None and not table.decl.columns:  # from a CSV file
                for name, t in table.columns.items():
                    info.members.setdefault(name, Member(name, "column", None, t))
    if d.per_player:
        info.members["owner"] = Member("owner", "owner", None, T.PLAYER)
    items = [(e.name, "each", e, None) for e in d.each] + \
            [(a.name, "attr", a, None) for a in d.attrs] + \
            [(s.name, "state", s, T.parse_type(s.type, g.type_scope, g.use)[0]) for s in d.states]
    for name, what, node, t in items:
        old = info.members.get(name)
        if old is not None:
            where = {"column": f"a column of table {d.source_table}",
                     "owner": f"the player of each component of {d.name} ('copies N per "
                              "player')"}.get(old.what, f"already an attribute of {d.name}")
            info.diags.append(Diagnostic("E301", f"'{name}' is {where}", node.span,
                                         "choose another name"))
            continue
        info.members[name] = Member(name, what, node, t)
    return info


# ---------------------------------------------------------------- checks


def check_duplicates(g: Globals) -> List[Diagnostic]:
    diags: List[Diagnostic] = []
    seen = {}
    singles = {A.GameDecl: "game", A.PlayersDecl: "players", A.SetupDecl: "setup",
               A.TurnDecl: "turn", A.ScoreDecl: "score", A.TiebreakDecl: "tiebreak",
               A.HeuristicDecl: "heuristic", A.CooperativeDecl: "cooperative", A.TeamDecl: "team"}
    results, phases, publics = {}, {}, {}
    for d in g.decls:
        if type(d) in singles:
            word = singles[type(d)]
            if word in seen:
                diags.append(Diagnostic("E301", f"a second '{word}' (the first is at line "
                                        f"{seen[word].span.line})", head_span(d.span, len(word))))
            seen.setdefault(word, d)
            continue
        if isinstance(d, (A.PhaseDecl, A.ResultDecl, A.PublicDecl)):
            table = {A.PhaseDecl: phases, A.ResultDecl: results, A.PublicDecl: publics}[type(d)]
            if d.name in table:
                diags.append(Diagnostic("E301", f"two {_KEYWORD[type(d)]}s named '{d.name}' "
                                        f"(the first is at line {table[d.name].span.line})",
                                        name_span(g, d)))
            table.setdefault(d.name, d)
            continue
        if not hasattr(d, "name") or isinstance(d, A.ExtendsDecl):
            continue
        sym = g.symbols.get(d.name)
        if d.name in BUILTINS or d.name in BUILTIN_NAMES:
            what = "a built-in function" if d.name in BUILTINS else "a built-in name"
            diags.append(Diagnostic("E301", f"'{d.name}' is {what}", name_span(g, d),
                                    "choose another name"))
        elif sym is not None and sym.decl is not d:
            diags.append(Diagnostic("E301", f"'{d.name}' is already declared as "
                                    f"{WHAT[sym.what]} (line {sym.decl.span.line})",
                                    name_span(g, d)))
    first_enum = {}
    for d in g.of(A.EnumDecl):
        diags += _check_enum_values(g, d, first_enum)
    return diags


def _check_enum_values(g: Globals, d: A.EnumDecl, first_enum: dict) -> List[Diagnostic]:
    diags, seen = [], set()
    for v in d.values:
        g.types[v] = T.Enum(d.name)
        if v.name in seen:
            diags.append(Diagnostic("E301", f"'{v.name}' is twice in enum {d.name}", v.span))
            continue
        seen.add(v.name)
        sym = g.symbols.get(v.name)
        if sym is not None or v.name in BUILTIN_NAMES or v.name in BUILTINS:
            what = WHAT[sym.what] if sym else "a built-in name"
            diags.append(Diagnostic("E301", f"'{v.name}' is already {what}", v.span))
        elif v.name in first_enum:
            diags.append(Diagnostic("E301", f"'{v.name}' is already a value of enum "
                                    f"{first_enum[v.name]}", v.span))
        first_enum.setdefault(v.name, d.name)
    return diags


def check_players(g: Globals) -> List[Diagnostic]:
    decls = g.of(A.PlayersDecl)
    if not decls:
        return [Diagnostic("E302", "the game does not say how many players it takes",
                           A.Span(g.file, 1, 1, 1, 2), "add a line such as 'players 2..4'")]
    d = decls[0]
    if d.low < 1 or d.low > d.high or d.high > MAX_PLAYERS:
        return [Diagnostic("E303", f"'players {d.low}..{d.high}' is not a range of player "
                           f"counts (from 1 to {MAX_PLAYERS})", d.span if d.span.line == d.span.end_line
                           else head_span(d.span, 7), "write 'players LOW..HIGH' with "
                           f"1 <= LOW <= HIGH <= {MAX_PLAYERS}")]
    return []


def check_options(g: Globals) -> List[Diagnostic]:
    diags = []
    for d in g.of(A.OptionDecl):
        words, before = [], len(diags)
        for alt in d.alternatives:
            if isinstance(alt, A.OptionRange):
                if alt.low > alt.high:
                    diags.append(Diagnostic("E305", f"the range {alt.low}..{alt.high} is empty",
                                            alt.span, "write the smaller number first"))
            elif alt.word in words:
                diags.append(Diagnostic("E305", f"'{alt.word}' is twice among the "
                                        f"alternatives of option {d.name}", alt.span))
            else:
                words.append(alt.word)
        if len(diags) == before:  # a default among broken alternatives says nothing more
            diags += _check_option_default(g, d, words)
        else:
            g.types[d.default] = T.ANY
    return diags


def _check_option_default(g: Globals, d: A.OptionDecl, words) -> List[Diagnostic]:
    v = d.default
    ranges = [a for a in d.alternatives if isinstance(a, A.OptionRange)]
    choices = ", ".join(words + [f"{r.low}..{r.high}" for r in ranges])
    if isinstance(v, A.Name) and v.name in words:
        g.types[v] = T.Enum(d.name)
        return []
    if isinstance(v, A.Number) and any(r.low <= v.value <= r.high for r in ranges):
        g.types[v] = T.NUMBER
        return []
    g.types[v] = T.ANY
    shown = v.name if isinstance(v, A.Name) else getattr(v, "value", "?")
    if isinstance(v, A.Text):
        shown = f'"{shown}"'
    elif isinstance(v, A.Bool):
        shown = "true" if v.value else "false"
    close = did_you_mean(str(shown), words) if isinstance(v, A.Name) else None
    return [Diagnostic("E304", f"the default {shown} of option {d.name} is not one of its "
                       f"alternatives: {choices}" + (f" ({close})" if close else ""), v.span)]


def check_tables(g: Globals) -> List[Diagnostic]:
    return [diag for info in g.tables.values() for diag in info.diags]


def check_kinds(g: Globals) -> List[Diagnostic]:
    diags: List[Diagnostic] = []
    for info in g.kinds.values():
        d = info.decl
        for name, m in info.members.items():
            if m.what in ("each", "attr"):
                member_type(g, info, name)
        if d.copies is not None:
            env = kind_env(g, info, info.diags, "copies", "in 'copies'")
            expect_type(d.copies, env, T.NUMBER, "the number of copies")
        if d.show is not None:
            infer(d.show, kind_env(g, info, info.diags, "show", "in 'show'"))
        for f in d.faces:
            if f.name not in info.members and not info.open:
                info.diags.append(unknown("E102", "attribute", f.name, info.members, f.span,
                                          "a face shows one of the kind's columns or attributes",
                                          of=f" of {d.name}"))
        for s in d.states:
            stype, tdiags = T.parse_type(s.type, g.type_scope)
            info.diags.extend(tdiags)
            env = kind_env(g, info, info.diags, "attr", "in a state's first value")
            expect_type(s.init, env, stype, f"the first value of state '{s.name}'")
        diags += info.diags
    return diags


def check_zones(g: Globals) -> List[Diagnostic]:
    diags: List[Diagnostic] = []
    for d in g.of(A.ZoneDecl):
        for k in d.kinds:
            g.types[k] = T.kind(k.name) if k.name in g.kinds else T.ANY
            if k.name in g.kinds:
                g.use(k.name)
            else:
                diags.append(unknown("E106", "kind", k.name, g.kinds, k.span))
        diags += _check_zone_flags(g, d)
        if d.family is not None:
            diags += _check_family(g, d)
    return diags


def _check_family(g: Globals, d: A.ZoneDecl) -> List[Diagnostic]:
    """`zone pile[colour]`: an enum's name; `zone row[1..player_count + 1]`: two whole
    numbers that may count the players but read nothing else (the zones exist from the start)."""
    diags: List[Diagnostic] = []
    fam = d.family
    if fam.enum is not None:
        g.types[fam.enum] = T.ANY  # (the enum's name, not a value)
        if not isinstance(fam.enum, A.Name):
            infer(fam.enum, Env(g, []))
            diags.append(Diagnostic("E313", f"zone family {d.name} is indexed by an enum's name "
                                    "or by a range of numbers", fam.enum.span,
                                    f"write 'zone {d.name}[COLOUR]' or 'zone {d.name}[1..4]'"))
        elif g.symbols.get(fam.enum.name) is None or g.symbols[fam.enum.name].what != "enum":
            enums = [n for n, s in g.symbols.items() if s.what == "enum"]
            diags.append(unknown("E106", "enum", fam.enum.name, enums, fam.enum.span,
                                 f"a zone family has one zone per word of an enum, or per number "
                                 f"of a range: 'zone {d.name}[1..4]'"))
        else:
            g.use(fam.enum.name)
            g.types[fam.enum] = T.Enum(fam.enum.name)
        return diags
    for bound in (fam.low, fam.high):
        env = Env(g, diags, pure="in the size of a zone family")
        expect_type(bound, env, T.NUMBER, f"an end of zone family {d.name}")
        bad = _not_constant(bound)
        if bad is not None:
            diags.append(Diagnostic("E313", f"the ends of zone family {d.name} may use numbers and "
                                    "player_count only", bad.span,
                                    "the zones exist from the start, so their number cannot "
                                    "depend on the play"))
    if isinstance(fam.low, A.Number) and isinstance(fam.high, A.Number):
        if fam.high.value - fam.low.value + 1 > MAX_FAMILY or fam.high.value < fam.low.value:
            diags.append(Diagnostic("E313", f"zone family {d.name} must have 1 to {MAX_FAMILY} "
                                    "zones", fam.span))
    return diags


def _not_constant(e):
    """The first part of a family's end that is not a number, player_count or arithmetic."""
    if isinstance(e, A.Number) or (isinstance(e, A.Name) and e.name == "player_count"):
        return None
    if isinstance(e, A.BinOp):
        return _not_constant(e.left) or _not_constant(e.right)
    if isinstance(e, A.Negate):
        return _not_constant(e.operand)
    return e


def _check_zone_flags(g: Globals, d: A.ZoneDecl) -> List[Diagnostic]:
    diags, seen = [], {}
    zone = g.zone_type(d)
    for f in d.flags:
        if f.word not in ZONE_WORDS + ("sorted", "refill", "capacity"):
            diags.append(unknown("E310", "zone flag", f.word, ZONE_WORDS + ("sorted", "refill", "capacity"),
                                 f.span, "zone flags are public, hidden, owner, others, grid W by H, "
                                 "sorted by ATTRIBUTE, refill from ZONE, capacity N"))
            continue
        if f.word in seen or (f.word in VISIBILITY and any(v in seen for v in VISIBILITY)):
            other = f.word if f.word in seen else next(v for v in VISIBILITY if v in seen)
            diags.append(Diagnostic("E313", f"'{f.word}' conflicts with '{other}' on zone "
                                    f"{d.name}", f.span))
            continue
        seen[f.word] = f
        if f.word in ("owner", "others") and not d.per_player:
            diags.append(Diagnostic("E313", f"'{f.word}' is for player zones; zone {d.name} "
                                    "belongs to nobody", f.span,
                                    f"declare it 'player zone {d.name} ...'"))
        elif f.word == "grid" and isinstance(f.arg, tuple) and min(f.arg) < 1:
            diags.append(Diagnostic("E313", f"a grid of {f.arg[0]} by {f.arg[1]} has no cells",
                                    f.span))
        elif f.word == "grid" and isinstance(f.arg, tuple) and f.arg[0] * f.arg[1] > MAX_GRID_CELLS:
            # cells(), empty_cells() and lines() list every cell: a board this large would stall them
            diags.append(Diagnostic("E313", f"a grid of {f.arg[0]} by {f.arg[1]} has more than "
                                    f"{MAX_GRID_CELLS:,} cells", f.span))
        elif f.word == "sorted":
            _check_sorted_by(g, d, zone, f, diags)
        elif f.word == "refill":
            _check_refill(g, d, zone, f, diags)
        elif f.word == "capacity" and f.arg < 1:
            diags.append(Diagnostic("E313", f"zone {d.name} cannot hold at most {f.arg}: a "
                                    "capacity is 1 or more", f.span))
    if "grid" in seen and ("sorted" in seen or "refill" in seen or "capacity" in seen):
        other = seen.get("sorted") or seen.get("refill") or seen["capacity"]
        diags.append(Diagnostic("E313", f"a grid zone cannot be '{other.word}'", other.span))
    return diags


def _check_sorted_by(g: Globals, d, zone: T.Zone, f: A.ZoneFlag, diags) -> None:
    span = A.Span(f.span.file, f.span.end_line, f.span.end_col - len(f.arg), f.span.end_line,
                  f.span.end_col)
    types = []
    for k in sorted(zone.kinds):
        info = g.kinds[k]
        if info.open:
            continue
        if f.arg not in info.members:
            diags.append(unknown("E311", "attribute", f.arg, info.members, span,
                                 hint=f"zone {d.name} is sorted by an attribute of its kinds",
                                 of=f" of {k}"))
            return
        types.append(member_type(g, info, f.arg))
    t = T.join_all(types)
    g.types[f] = t  # (an enum's values are kept in the order the enum declares them)
    if types and (t is None or not T.orderable(t) and T.unwrap(t) != T.ANY):
        diags.append(Diagnostic("E311", f"zone {d.name} cannot be sorted by '{f.arg}': it is "
                                f"{T.render(t) if t else 'of different types'}, not a number "
                                "or a text", span))


def _check_refill(g: Globals, d, zone: T.Zone, f: A.ZoneFlag, diags) -> None:
    span = A.Span(f.span.file, f.span.end_line, f.span.end_col - len(f.arg), f.span.end_line,
                  f.span.end_col)
    other = g.zones.get(f.arg)
    if other is None:
        diags.append(unknown("E106", "zone", f.arg, g.zones, span))
        return
    if d.family is not None or other.family is not None:
        diags.append(Diagnostic("E313", f"zone {d.name} cannot refill from {f.arg}: a zone family "
                                "neither refills nor is refilled from", span))
        return
    if other is d:
        diags.append(Diagnostic("E313", f"zone {d.name} cannot refill from itself", span))
        return
    if other.per_player and not d.per_player:
        diags.append(Diagnostic("E313", f"shared zone {d.name} cannot refill from the player "
                                f"zone {f.arg}: whose?", span))
        return
    extra = g.zone_type(other).kinds - zone.kinds
    if extra:
        diags.append(Diagnostic("E206", f"zone {d.name} cannot refill from {f.arg}: "
                                f"{', '.join(sorted(extra))} do not belong in {d.name}", span))


def check_vars(g: Globals) -> List[Diagnostic]:
    diags: List[Diagnostic] = []
    counters: List[str] = []
    for d in g.of(A.VarDecl):
        vtype, tdiags = T.parse_type(d.type, g.type_scope, g.use)
        diags += tdiags
        env = Env(g, diags, pure="in a variable's first value")
        expect_type(d.init, env, vtype, f"the first value of '{d.name}'")
        for flag in d.flags:
            if flag.name not in VAR_FLAGS:
                diags.append(unknown("E312", "variable flag", flag.name, VAR_FLAGS, flag.span,
                                     "the flags are 'secret' (on a player var) and 'counter' "
                                     "(a number the header shows)"))
            elif flag.name == "counter":
                if d.per_player or vtype != T.NUMBER:
                    diags.append(Diagnostic("E312", f"'counter' is for a game's number variable (the "
                                            f"header shows it instead of the round): '{d.name}' is "
                                            + ("a player's" if d.per_player else "not a number"), flag.span))
                elif counters:
                    diags.append(Diagnostic("E312", f"one variable is the header's counter: '{counters[0]}' "
                                            f"already is, so '{d.name}' cannot be", flag.span))
                else:
                    counters.append(d.name)
            elif not d.per_player:
                diags.append(Diagnostic("E312", f"'secret' is for player variables: '{d.name}' "
                                        "belongs to nobody", flag.span))
    return diags


def check_defs(g: Globals) -> List[Diagnostic]:
    diags: List[Diagnostic] = []
    for name, f in g.funcs.items():
        if isinstance(f.decl, A.DefDecl):
            for p in f.decl.params:
                diags += T.parse_type(p.type, g.type_scope, g.use)[1]
            def_result(g, name)
            diags += f.diags
    return diags


def check_words(g: Globals) -> List[Diagnostic]:
    diags: List[Diagnostic] = []
    for d in g.of(A.WordsDecl):
        for fold in d.folds:
            _check_fold_table(g, fold, diags)
        seen = {}
        for m in d.matches:
            if _one_letter(m, m.value, "a letter matched", diags) and m.value in seen:
                diags.append(Diagnostic("E301", f"'{m.value}' is matched twice (the first is at "
                                        f"line {seen[m.value].span.line})", m.span, "keep one"))
            seen.setdefault(m.value, m)
            if not m.letters:
                diags.append(Diagnostic("E317", f"'{m.value}' is matched with no letter",
                                        m.span, f'list the letters it stands for: match "{m.value}" as "abc"'))
        if d.wild is not None:
            _one_letter(d.wild, d.wild.value, "the wild mark", diags)
    return diags


def _one_letter(item: A.WordsOption, text: str, what: str, diags) -> bool:
    if len(text) == 1:
        return True
    diags.append(Diagnostic("E317", f"{what} must be one letter, not \"{text}\"", item.span,
                            "words are compared letter by letter"))
    return False


def _check_fold_table(g: Globals, fold: A.WordsOption, diags) -> None:
    """A fold table: two columns of one-letter texts, the first the key, whatever their names."""
    name = fold.value
    span = A.Span(fold.span.file, fold.span.end_line, fold.span.end_col - len(name),
                  fold.span.end_line, fold.span.end_col)
    info = g.tables.get(name)
    if info is None:
        diags.append(unknown("E106", "table", name, g.tables, span))
        return
    g.use(name)
    if info.columns is None:  # its CSV file was not read: reported where the table is declared
        return
    columns = info.decl.columns
    if len(columns) != 2 or any(T.unwrap(info.columns.get(c.name)) != T.TEXT for c in columns):
        types = ", ".join(f"{c.name}: {T.render(info.columns.get(c.name, T.ANY))}" for c in columns)
        diags.append(Diagnostic("E316", f"table {name} cannot fold letters: it needs exactly two "
                                f"columns of letters (texts), and it has {types}", span,
                                "write | letter | as | and one row per letter: the letter, then "
                                "the letter it counts as"))
        return
    keys: dict = {}
    rows = [r for r in info.decl.rows if len(r) == 2]
    for row in rows:
        for cell in row:
            if cell.kind not in ("word", "text") or len(str(cell.value)) != 1:
                shown = "-" if cell.value is None else str(cell.value)
                diags.append(Diagnostic("E316", f"'{shown}' in table {name} is not one letter: "
                                        "a fold table pairs single letters", cell.span))
        key, value = (str(c.value) for c in row)
        if key in keys and keys[key] != value:
            diags.append(Diagnostic("E316", f"table {name} folds '{key}' twice: as "
                                    f"'{keys[key]}' and as '{value}'", row[0].span))
        keys.setdefault(key, value)
    for row in rows:
        key, value = (str(c.value) for c in row)
        if value in keys and value != key:
            diags.append(Diagnostic("W105", f"'{key}' folds to '{value}', which folds to "
                                    f"'{keys[value]}' in its turn, but folding is applied once: "
                                    f"'{key}' stays '{value}'", row[1].span,
                                    f"write '{key}' -> '{keys[value]}' if that is meant"))
