"""A Pygments lexer for .game and .scenario files (aliases `game`, `gamedsl`).

Registered through the `pygments.lexers` entry point in pyproject.toml, so any
Pygments user (mkdocs code blocks, `pygmentize -l game`) highlights rule files.
The keywords are read from the grammar itself (grammar/gamedsl.lark), so a keyword
the language gains is highlighted at once; tools/textmate_grammar.py writes the
editors' TextMate grammar from the same lists.
"""

import re

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text, Whitespace

from gamedsl.language import grammar_text

__all__ = ["GameLexer"]  # pygments loads lexer modules through __all__

# Words that open or shape declarations and statements (the grammar adds any new ones).
_KNOWN_KEYWORDS = (
    "game", "extends", "players", "option", "enum", "table", "by", "from", "kind", "copies", "per",
    "player", "show", "state", "zone", "of", "sorted", "grid", "refill", "var", "def", "procedure",
    "setup", "turn", "phase", "on", "begin", "end", "when", "then", "score", "tiebreak", "result",
    "public", "list", "let", "move", "to", "top", "at", "draw", "shuffle", "next", "after", "round",
    "winner", "say", "break", "return", "pass", "if", "elif", "else", "for", "in", "while", "repeat",
    "times", "choose", "secretly", "each", "sort", "most", "fewest", "cooperative", "team", "won", "lost",
    # scenario files
    "scenario", "seed", "given", "refuse", "because", "expect", "play", "random", "moves",
)
WORD_OPERATORS = ("and", "or", "not")
CONSTANTS = ("true", "false", "none")


def _grammar_words() -> set:
    """Every word the grammar spells out in quotes ("choose", "secretly", ...)."""
    try:
        return set(re.findall(r'"([a-z_]+)"', grammar_text()))
    except (ImportError, OSError):  # pragma: no cover — the lexer still works with the known words
        return set()


KEYWORDS = tuple(sorted((set(_KNOWN_KEYWORDS) | _grammar_words()) - set(WORD_OPERATORS) - set(CONSTANTS),
                        key=lambda w: (-len(w), w)))
# Names the engine gives every game (docs/language.md, "Built-in names").
BUILTIN_NAMES = ("current", "players", "start_player", "player_count", "in_round")


class GameLexer(RegexLexer):
    name = "gamedsl"
    aliases = ["game", "gamedsl"]
    filenames = ["*.game", "*.scenario"]
    mimetypes = ["text/x-gamedsl"]

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"#.*?$", Comment.Single),
            (r'"', String.Double, "string"),
            (r"\|", Punctuation),
            (r"[0-9]+(\.[0-9]+)?", Number),
            # a call (`len(`, `play(c in ...)`) is a name, even when it is also a keyword elsewhere
            (r"([^\W\d]\w*)(\()", bygroups(Name.Function, Punctuation)),
            (words(CONSTANTS, suffix=r"\b"), Keyword.Constant),
            (words(WORD_OPERATORS, suffix=r"\b"), Operator.Word),
            (words(KEYWORDS, suffix=r"\b"), Keyword),
            (words(BUILTIN_NAMES, suffix=r"\b"), Name.Builtin),
            (r"[^\W\d]\w*", Name),
            (r"\.\.|==|!=|<=|>=|\+=|-=|\*=|//|[-+*/%<>=?]", Operator),
            (r"[()\[\],:.]", Punctuation),
            (r"\\\n", Text),
        ],
        "string": [
            (r"\{\w+\}", String.Interpol),
            (r'\\.', String.Escape),
            (r'[^"\\{\n]+', String.Double),
            (r"\{", String.Double),
            (r'"', String.Double, "#pop"),
            (r"\n", String.Double, "#pop"),  # an unclosed text ends at the line (the checker reports it)
        ],
    }
