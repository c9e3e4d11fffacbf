"""Tables read from CSV files beside a game: text -> the same nodes a literal table has.

The first line names the columns (`name` or `name: type`); cells are read like a
literal table's: numbers, `12+`, `3..5`, `true`/`false`, `-` or empty (none), words, texts.
"""

from __future__ import annotations

import csv
import io
import re

from gamedsl.syntax import ast as A


def parse_csv(text: str, path: str) -> tuple:
    """CSV text -> (columns, rows) as the table nodes a literal table would have."""
    records = [r for r in csv.reader(io.StringIO(text)) if any(c.strip() for c in r)]
    if not records:
        return (), ()
    columns = []
    for i, head in enumerate(records[0]):
        name, _, type_name = head.partition(":")
        span = A.Span(path, 1, i + 1, 1, i + 2)
        type_ref = A.TypeName(span, type_name.strip()) if type_name.strip() else None
        columns.append(A.Column(span, name.strip(), type_ref))
    rows = []
    for n, record in enumerate(records[1:], 2):
        rows.append(tuple(csv_cell(value.strip(), A.Span(path, n, i + 1, n, i + 2))
                          for i, value in enumerate(record)))
    return tuple(columns), tuple(rows)


def csv_cell(value: str, span: A.Span) -> A.Cell:
    if value in ("", "-"):
        return A.Cell(span, "empty", None)
    if value in ("true", "false"):
        return A.Cell(span, "bool", value == "true")
    if re.fullmatch(r"-?\d+", value):
        return A.Cell(span, "number", int(value))
    if re.fullmatch(r"-?\d+\.\d+", value):
        return A.Cell(span, "number", float(value))
    m = re.fullmatch(r"(\d+)\+", value)
    if m:
        return A.Cell(span, "at_least", int(m.group(1)))
    m = re.fullmatch(r"(\d+)\.\.(\d+)", value)
    if m:
        return A.Cell(span, "range", (int(m.group(1)), int(m.group(2))))
    return A.Cell(span, "word" if re.fullmatch(r"[^\W\d]\w*", value) else "text", value)
