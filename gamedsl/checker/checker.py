"""The static checker: names, types, declarations and flow of a parsed game.

`check(game, sources)` runs a plain list of ``check_*(globals) -> diagnostics``
functions in order (like beancount's validations) and never raises: every mistake is
collected. It also gives the type of every expression node (`CheckResult.types`), which
the engine uses to know what a value is (a player, a component, a number...).

Modules: checker_scope (names, scopes), checker_exprs (expression types), checker_stmts
(statements), checker_tables (tables), checker_decls (declarations), checker_flow
(blocks, phases, warnings). Codes are documented in docs/diagnostics.md.
"""

from __future__ import annotations

import re
from typing import Callable, Dict, List, Optional

import attrs

from gamedsl.syntax import ast as A
from gamedsl.checker.decls import (build_globals,
                                   check_defs,
                                   check_duplicates,
                                   check_kinds,
                                   check_options,
                                   check_players,
                                   check_tables,
                                   check_vars,
                                   check_words,
                                   check_zones)
from gamedsl.checker.display import check_display
from gamedsl.checker.flow import check_flow, check_procedures, check_scoring, check_setup, check_unused
from gamedsl.checker.scope import Globals
from gamedsl.diagnostics import Diagnostic, sort_key

CHECKS: List[Callable[[Globals], List[Diagnostic]]] = [
    check_duplicates,
    check_players,
    check_options,
    check_tables,
    check_words,
    check_kinds,
    check_zones,
    check_vars,
    check_defs,
    check_procedures,
    check_setup,
    check_flow,
    check_scoring,
    check_display,
    check_unused,  # last: it needs every use seen
]


@attrs.define
class CheckResult:
    diagnostics: List[Diagnostic]
    types: Dict[object, object]  # expression node -> its Type (see gamedsl.checker.types)

    @property
    def errors(self) -> List[Diagnostic]:
        return [d for d in self.diagnostics if d.is_error]

    @property
    def warnings(self) -> List[Diagnostic]:
        return [d for d in self.diagnostics if not d.is_error]

    @property
    def ok(self) -> bool:
        return not self.errors


def check(game: A.GameFile, sources: Optional[Dict[str, str]] = None) -> CheckResult:
    """Check a parsed game. `sources` (path -> text) lets diagnostics point inside
    declarations and supplies CSV tables; without it they point at the declaration."""
    g = build_globals(game, sources)
    diags: List[Diagnostic] = []
    for fn in CHECKS:
        diags.extend(fn(g))
    unique = list(dict.fromkeys(diags))
    if game.unparsed:
        unique = [d for d in unique if not _may_follow_from(d, game.unparsed)]
    unique.sort(key=sort_key)
    return CheckResult(unique, g.types)


# With declarations that could not be read (syntax errors), whatever is about the game as a
# whole may only be missing what they hold: that it has no turn, no players line, a phase
# never reached, a name never used.
_WHOLE_GAME = ("E302", "E401", "E402", "E403")
_WORD = re.compile(r"[A-Za-z_]\w*")
_QUOTED = re.compile(r"'([^']*)'")
_DECLARES = re.compile(r"^(?:player\s+)?(?:var|zone|kind|def|procedure|table|enum|option|phase|"
                       r"result|public|words)\s+([A-Za-z_]\w*)", re.M)


def _may_follow_from(d: Diagnostic, unparsed) -> bool:
    """Whether a diagnostic may be only the echo of a declaration that could not be read:
    a warning, a word about the whole game, one quoting a name written in such a declaration
    (a table's column read by a kind: "unknown name 'rank'"), or one naming, quoted or not,
    what it declares ('zone deck cannot refill from x'; where its first line is too broken
    to say, any name on that line). Cautious: a real mistake may go unreported until the
    syntax is mended, an echo never is."""
    if not d.is_error or d.code in _WHOLE_GAME:
        return True
    written, declared = set(), set()
    for text in unparsed:
        written |= set(_WORD.findall(text))
        found = {m.group(1) for m in _DECLARES.finditer(text)}
        first = next((ln for ln in text.splitlines() if ln[:1].isalpha()), "")
        declared |= found or set(_WORD.findall(first.split("#", 1)[0]))
    quoted = {w for q in _QUOTED.findall(d.message) for w in _WORD.findall(q)}
    return bool(quoted & written) or bool(set(_WORD.findall(d.message)) & declared)
