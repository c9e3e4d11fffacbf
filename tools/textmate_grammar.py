"""Write editors/gamedsl.tmLanguage.json from the Pygments lexer's word lists.

    python tools/textmate_grammar.py           print it
    python tools/textmate_grammar.py --write   write editors/gamedsl.tmLanguage.json

tests/syntax/test_highlighting.py fails when the file and the grammar's keywords disagree.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TARGET = ROOT / "editors" / "gamedsl.tmLanguage.json"


def _alternatives(words) -> str:
    return "|".join(sorted(words, key=lambda w: (-len(w), w)))


def grammar() -> dict:
    from gamedsl.pygments_lexer import BUILTIN_NAMES, CONSTANTS, KEYWORDS, WORD_OPERATORS

    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "gamedsl",
        "scopeName": "source.gamedsl",
        "fileTypes": ["game", "scenario"],
        "patterns": [{"include": f"#{name}"} for name in (
            "comment", "string", "table-row", "number", "call", "constant", "word-operator",
            "declaration", "keyword", "builtin", "operator")],
        "repository": {
            "comment": {"name": "comment.line.number-sign.gamedsl", "match": "#.*$"},
            "string": {"name": "string.quoted.double.gamedsl", "begin": "\"", "end": "\"|$",
                       "patterns": [{"name": "constant.character.escape.gamedsl", "match": "\\\\."},
                                    {"name": "variable.other.placeholder.gamedsl", "match": "\\{\\w+\\}"}]},
            "table-row": {"name": "punctuation.separator.table.gamedsl", "match": "\\|"},
            "number": {"name": "constant.numeric.gamedsl", "match": "\\b[0-9]+(\\.[0-9]+)?\\b"},
            "call": {"match": "\\b([^\\W\\d]\\w*)(?=\\()",
                     "captures": {"1": {"name": "entity.name.function.call.gamedsl"}}},
            "constant": {"name": "constant.language.gamedsl", "match": f"\\b({_alternatives(CONSTANTS)})\\b"},
            "word-operator": {"name": "keyword.operator.logical.gamedsl",
                              "match": f"\\b({_alternatives(WORD_OPERATORS)})\\b"},
            "declaration": {
                "match": "^\\s*(def|procedure|phase|kind|enum|table|option|zone|var|scenario)\\s+(?!of\\b)([^\\W\\d]\\w*)",
                "captures": {"1": {"name": "storage.type.gamedsl"}, "2": {"name": "entity.name.function.gamedsl"}}},
            "keyword": {"name": "keyword.control.gamedsl", "match": f"\\b({_alternatives(KEYWORDS)})\\b"},
            "builtin": {"name": "variable.language.gamedsl", "match": f"\\b({_alternatives(BUILTIN_NAMES)})\\b"},
            "operator": {"name": "keyword.operator.gamedsl",
                         "match": "\\.\\.|==|!=|<=|>=|\\+=|-=|\\*=|//|[-+*/%<>=?]"},
        },
    }


def text() -> str:
    return json.dumps(grammar(), indent=2, ensure_ascii=False) + "\n"


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["--write"]:
        TARGET.write_text(text(), "utf-8")
    else:
        sys.stdout.write(text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
