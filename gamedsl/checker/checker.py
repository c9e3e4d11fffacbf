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
    unique.sort(key=sort_key)
    return CheckResult(unique, g.types)
