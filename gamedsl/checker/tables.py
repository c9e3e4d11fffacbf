"""Tables: column types from the cells, row widths, keys, and tables read from CSV files.

A column's type comes from its cells: numbers -> number, words and texts -> text (or the
enum named in the header, `| suit: suit |`), `true`/`false` -> bool; a `-` cell makes
it optional. Ranges (`3..5`) and `12+` are key cells only.
"""

from __future__ import annotations

import bisect

import re
from typing import Dict, List, Tuple

from gamedsl.syntax import ast as A
from gamedsl.checker import types as T
from gamedsl.checker.scope import Globals, TableInfo, unknown
from gamedsl.diagnostics import Diagnostic

_KIND_TYPE = {"number": T.NUMBER, "at_least": T.NUMBER, "range": T.NUMBER, "word": T.TEXT,
              "text": T.TEXT, "bool": T.BOOL}


def build_table(g: Globals, decl: A.TableDecl) -> TableInfo:
    diags: List[Diagnostic] = []
    columns, rows = decl.columns, decl.rows
    if decl.source is not None and not columns:
        # The loader reads a table's CSV file into the node; without it, nothing is known.
        return TableInfo(decl, None, T.ANY, diags)
    info = TableInfo(decl, {}, T.ANY, diags)
    seen: Dict[str, A.Column] = {}
    for col in columns:
        if not _written_name(col):
            diags.append(Diagnostic("E309", "the header row names the columns: this cell is "
                                    "no name", col.span,
                                    "the first row of a table is its column names"))
        elif col.name in seen:
            diags.append(Diagnostic("E301", f"table {decl.name} has two columns named "
                                    f"'{col.name}'", col.span))
        seen.setdefault(col.name, col)
    typed = [c for row in rows for c in row if isinstance(c, A.Column)]
    for cell in typed:
        diags.append(Diagnostic("E309", "only the header row gives a column its type ('name: type')",
                                cell.span, "write the value alone in the rows below the header"))
    if typed:
        rows = [row for row in rows if not any(isinstance(c, A.Column) for c in row)]
    for row in rows:
        if len(row) != len(columns) and row:
            diags.append(Diagnostic(
                "E306", f"this row has {len(row)} cell{'s' if len(row) != 1 else ''}, but "
                f"table {decl.name} has {len(columns)} column{'s' if len(columns) != 1 else ''}",
                row[0].span, "write '-' for an empty cell"))
    for i, col in enumerate(columns):
        if col.name in info.columns:
            continue
        cells = [row[i] for row in rows if i < len(row)]
        info.columns[col.name] = _column_type(g, decl, col, cells, col.name == decl.key, diags)
    if decl.key is not None:
        if decl.key not in info.columns:
            span = g.locate(decl.span, r"\bby\s+(" + re.escape(decl.key) + r")\b")
            diags.append(unknown("E307", "key column", decl.key, info.columns, span,
                                 "the key names a column of the header row",
                                 of=f" in table {decl.name}"))
        else:
            info.key_type = T.unwrap(info.columns[decl.key])
            key_index = [c.name for c in columns].index(decl.key)
            _check_keys(decl, [row[key_index] for row in rows if key_index < len(row)], diags)
    return info


def _written_name(col: A.Column) -> bool:
    """Is a header cell a name? (the AST turns any header cell into a Column: '-' is 'None')"""
    if not re.fullmatch(r"[^\W\d]\w*", col.name):
        return False
    s = col.span
    return col.type is not None or s.line != s.end_line or s.end_col - s.col == len(col.name) \
        or s.file.endswith(".csv")


def _column_type(g: Globals, decl, col: A.Column, cells, is_key: bool, diags) -> object:
    declared = None
    if col.type is not None:
        declared, tdiags = T.parse_type(col.type, g.type_scope, g.use)
        diags.extend(tdiags)
        if declared not in (T.NUMBER, T.TEXT, T.BOOL, T.ANY) and not isinstance(declared, T.Enum):
            diags.append(Diagnostic("E309", f"a column's type must be number, text, bool or "
                                    f"an enum, not {T.render(declared)}", col.type.span))
            declared = T.ANY
    found, optional = None, False
    for cell in cells:
        if cell.kind == "empty":
            optional = True
            if is_key:
                diags.append(Diagnostic("E309", "a key cell cannot be empty", cell.span))
            continue
        if cell.kind in ("at_least", "range") and not is_key:
            diags.append(Diagnostic("E309", "a range or 'N+' cell is only allowed in the key "
                                    "column (after 'by')", cell.span))
            continue
        t = _KIND_TYPE[cell.kind]
        if declared is not None and declared != T.ANY:
            t = _typed_cell(g, cell, t, declared, col, diags)
            continue
        if found is None:
            found = t
        elif t != found:
            diags.append(Diagnostic("E309", f"column '{col.name}' mixes {T.render(found)} and "
                                    f"{T.render(t)} cells", cell.span,
                                    "write texts between double quotes in every cell"))
    base = declared if declared is not None else (found or T.ANY)
    return T.Optional(base) if optional and base != T.ANY else base


def _typed_cell(g: Globals, cell, t, declared, col, diags):
    if isinstance(declared, T.Enum):
        if cell.kind != "word" and cell.kind != "text" or \
                str(cell.value) not in g.enum_values.get(declared.name, ()):
            diags.append(unknown("E309", "value", str(cell.value),
                                 g.enum_values.get(declared.name, ()), cell.span,
                                 f"column '{col.name}' holds {declared.name} values",
                                 of=f" of {declared.name}"))
        return declared
    ok = t == declared or (declared == T.TEXT and cell.kind == "word")
    if not ok:
        diags.append(Diagnostic("E309", f"column '{col.name}' is {T.render(declared)}, but this "
                                f"cell is {T.render(t)}", cell.span))
    return declared


def _check_keys(decl: A.TableDecl, cells, diags) -> None:
    # Looked up, not compared pairwise: a CSV table may have 100,000 rows.
    texts: Dict[object, A.Cell] = {}      # a text, word or bool key -> its first cell
    points: Dict[object, A.Cell] = {}     # a number key -> its first cell
    numbers: List[object] = []            # the number keys, sorted
    spans: List[Tuple[object, object, A.Cell]] = []  # the range and N+ keys, in order
    for cell in cells:
        if cell.kind == "number":
            lo = hi = cell.value
        elif cell.kind == "at_least":
            lo, hi = cell.value, float("inf")
        elif cell.kind == "range":
            lo, hi = cell.value
        elif cell.kind in ("word", "text", "bool"):
            lo = hi = ("t", str(cell.value))
        else:
            continue
        found: List[A.Cell] = []
        if isinstance(lo, tuple):
            if lo in texts:
                found.append(texts[lo])
            else:
                texts[lo] = cell
        else:
            found += [other for olo, ohi, other in spans if lo <= ohi and olo <= hi]
            if lo == hi:
                if lo in points:
                    found.append(points[lo])
            else:
                found += [points[n] for n in numbers[bisect.bisect_left(numbers, lo):bisect.bisect_right(numbers, hi)]]
            if cell.kind == "number":
                if lo not in points:
                    points[lo] = cell
                    bisect.insort(numbers, lo)
            else:
                spans.append((lo, hi, cell))
        if found:
            other = min(found, key=lambda c: (c.span.line, c.span.col))  # the first row it meets
            same = _cell_text(cell) == _cell_text(other)
            what = "is already in" if same else f"overlaps key {_cell_text(other)} in"
            diags.append(Diagnostic(
                "E308", f"key {_cell_text(cell)} {what} table {decl.name} "
                f"(line {other.span.line})", cell.span, "each key may appear in one row"))


def _cell_text(cell: A.Cell) -> str:
    if cell.kind == "at_least":
        return f"{cell.value}+"
    if cell.kind == "range":
        return f"{cell.value[0]}..{cell.value[1]}"
    return str(cell.value)
