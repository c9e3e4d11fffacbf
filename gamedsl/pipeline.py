"""Loading a game: read the file (and the files it extends), parse, merge variants, check, compile.

Rule files are untrusted: a game may read only files beside it (no absolute
paths, no '..'), and everything wrong is reported as diagnostics.
"""

from __future__ import annotations

from pathlib import Path
from typing import Dict, List, Optional, Tuple

import attrs

from gamedsl.syntax import ast as A
from gamedsl.diagnostics import Diagnostic
from gamedsl.errors import GameError
from gamedsl.files import FileRefused, identity, read_bytes
from gamedsl.errors import RuleError
from gamedsl.language import MAX_SOURCE_BYTES
from gamedsl.syntax.cache import parse
from gamedsl.syntax.tablefiles import parse_csv
from gamedsl.runtime.wordlists import Folding, option_in_name, word_list
from gamedsl.checker.checker import check
from gamedsl.compiler.compiler import Compiler
from gamedsl.runtime.game import Game

MAX_EXTENDS = 10

# Declarations a variant replaces by name; the others (game, players, setup, turn,
# score, tiebreak) there is one of, and a variant's replaces the base's.
_NAMED = (A.OptionDecl, A.EnumDecl, A.TableDecl, A.KindDecl, A.ZoneDecl, A.VarDecl, A.DefDecl,
          A.ProcDecl, A.PhaseDecl, A.ResultDecl, A.PublicDecl, A.WordsDecl)


def _key(decl):
    if isinstance(decl, _NAMED):
        return (type(decl).__name__, decl.name)
    return (type(decl).__name__, None)


def read_text(path: Path, span: Optional[A.Span] = None, checked: Optional["Checked"] = None) -> str:
    """A rule file's or a table's text. A file named in a rule file comes `checked` (see
    `beside`): the file opened must be that one, and lie in the game's folder."""
    try:
        raw = read_bytes(path, MAX_SOURCE_BYTES, *(checked or ()))
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise GameError([Diagnostic("E001", f"'{path}' is not UTF-8 text", span)]) from None
    except FileRefused as err:
        raise GameError([Diagnostic("E001", f"'{path}' {err}", span)]) from None
    except OSError as err:
        raise GameError([Diagnostic("E001", f"cannot read '{path}': {err.strerror or err}", span)]) from None


# What a file named in a rule file was found to be: (its identity, the game's real folder).
Checked = Tuple[Tuple[int, int], Path]


def checked_beside(base: Path, name: str, span: Optional[A.Span]) -> Tuple[Path, Checked]:
    """`beside`, and what the file it names must still be when it is opened."""
    path = beside(base, name, span)
    try:
        return path, (identity(path), base.parent.resolve())
    except OSError as err:
        raise GameError([Diagnostic("E001", f"cannot read '{name}': {err.strerror or err}", span)]) from None


def beside(base: Path, name: str, span: Optional[A.Span]) -> Path:
    """A file named in a rule file: only beside it (or below it), never elsewhere."""
    if "\x00" in name:  # no file is called that (and the system refuses to look)
        raise GameError([Diagnostic("E001", "a file name cannot hold a NUL character", span)])
    rel = Path(name)
    if rel.is_absolute() or ".." in rel.parts or name.startswith("~") or "\\" in name:
        raise GameError([Diagnostic("E007", f"'{name}': a game may only name files beside it "
                                    "(no absolute paths, no '..')", span)])
    path = base.parent / rel
    # A symbolic link (the file, or a folder on the way) may still lead out of the folder:
    # where it really leads must be inside the folder the game really lies in.
    try:
        inside = path.resolve().is_relative_to(base.parent.resolve())
    except (OSError, RuntimeError):  # a loop of links, or a path the system cannot resolve
        inside = False
    if not inside:
        raise GameError([Diagnostic("E007", f"'{name}': a game may only name files beside it "
                                    "(this one is a link leading outside its folder)", span)])
    return path


def merge(base: List, variant: List) -> List:
    """A variant's declarations over its base's: one of the same kind and name replaces the
    base's in place; new ones follow. A top-level `turn:` is the one phase of a simple game:
    a variant that declares phases drops it, and a variant's `turn:` drops the base's phases."""
    replaced = {_key(d): d for d in variant}
    out = [replaced.pop(_key(d), d) for d in base]
    out += [d for d in variant if _key(d) in replaced]
    if any(isinstance(d, A.PhaseDecl) for d in variant) and not any(isinstance(d, A.TurnDecl) for d in variant):
        out = [d for d in out if not isinstance(d, A.TurnDecl)]
    elif any(isinstance(d, A.TurnDecl) for d in variant):
        out = [d for d in out if not isinstance(d, A.PhaseDecl) or d in variant]
    return out


def read_table_file(decl: A.TableDecl, sources: Dict[str, str], diags: List[Diagnostic]) -> A.TableDecl:
    """A `table T from "file.csv"`, with the file's columns and rows read into the node."""
    line = sources.get(decl.span.file, "").splitlines()[decl.span.line - 1:decl.span.line]
    col = (line[0].find('"' + decl.source) + 1) if line else decl.span.col
    span = A.Span(decl.span.file, decl.span.line, col or decl.span.col, decl.span.line,
                  (col or decl.span.col) + len(decl.source) + 2)
    try:
        path, checked = checked_beside(Path(decl.span.file), decl.source, span)
        text = read_text(path, span, checked)
    except GameError as err:
        diags.extend(err.diagnostics)
        return decl
    columns, rows = parse_csv(text, str(path))
    if not columns:
        diags.append(Diagnostic("E001", f"'{decl.source}' has no header row naming the columns", span))
    return attrs.evolve(decl, columns=columns, rows=rows)


def _fold_table(name: str, decls: List) -> Dict[str, str]:
    """A fold table as letter -> letter. The first column is the key, whatever the columns are
    named; rows that are not two one-letter texts are left out (the checker reports them, and
    a game with errors is not played)."""
    table = next((d for d in decls if isinstance(d, A.TableDecl) and d.name == name), None)
    out: Dict[str, str] = {}
    for row in (table.rows if table is not None else ()):
        if len(row) == 2 and all(c.kind in ("word", "text") and len(str(c.value)) == 1 for c in row):
            out.setdefault(str(row[0].value), str(row[1].value))
    return out


def words_folding(decl: A.WordsDecl, decls: List) -> Folding:
    """The letters a `words` block makes equal. Several `fold` tables apply in the order
    written, each to what the one before made of a letter: they are composed here into one
    letter -> letter table."""
    tables = [_fold_table(f.value, decls) for f in decl.folds]
    composed: Dict[str, str] = {}
    for letter in dict.fromkeys(k for t in tables for k in t):
        folded = letter
        for t in tables:
            folded = t.get(folded, folded)
        if folded != letter:
            composed[letter] = folded
    pairs = list(composed.items())
    matches = tuple((m.value, m.letters) for m in decl.matches if len(m.value) == 1)
    wild = decl.wild.value if decl.wild is not None and len(decl.wild.value) == 1 else None
    return Folding(tuple(pairs), matches, wild)


def read_words_file(decl: A.WordsDecl, decls: List, diags: List[Diagnostic]) -> A.WordsDecl:
    """A `words W from "f_{option}.txt"`: one WordList per value of the option in the name
    (each file must be beside the game), read lazily on first use."""
    span = decl.span
    option = option_in_name(decl.source)
    values: List = [None]
    if option:
        opt = next((d for d in decls if isinstance(d, A.OptionDecl) and d.name == option), None)
        words = [a.word for a in opt.alternatives if isinstance(a, A.OptionWord)] if opt else []
        if opt is None or not words or len(words) != len(opt.alternatives):
            diags.append(Diagnostic("E009", f"'{{{option}}}' in a word list's file name must name an "
                                    "option whose values are words", span,
                                    f"declare it, e.g. option {option}: small | large = small"))
            return decl
        values = words
    folding = words_folding(decl, decls)
    lists = []
    for value in values:
        name = decl.source.replace("{" + option + "}", value) if option else decl.source
        try:
            path = beside(Path(decl.span.file), name, span)
            if not path.is_file():
                raise GameError([Diagnostic("E001", f"cannot read '{name}': no such file beside the game", span)])
            path, checked = checked_beside(Path(decl.span.file), name, span)
            lists.append((value, word_list(path, folding, checked)))
        except GameError as err:
            diags.extend(err.diagnostics)
        except OSError as err:
            diags.append(Diagnostic("E001", f"cannot read '{name}': {err.strerror or err}", span))
    return attrs.evolve(decl, lists=tuple(lists))


@attrs.define
class Loaded:
    game: Optional[A.GameFile]
    sources: Dict[str, str]
    diagnostics: List[Diagnostic]


def parse_with_extends(path: str, text: Optional[str] = None) -> Loaded:
    """Parse a file and, through `extends`, the drafts it builds on, merged into one GameFile."""
    sources: Dict[str, str] = {}
    diags: List[Diagnostic] = []
    chain: List[A.GameFile] = []
    current, current_text, seen = Path(path), text, set()
    span = None
    while True:
        key = str(current.resolve()) if current_text is None else str(current)
        if key in seen:
            diags.append(Diagnostic("E008", "these files extend each other in a circle", span))
            break
        seen.add(key)
        if len(chain) > MAX_EXTENDS:
            diags.append(Diagnostic("E008", f"more than {MAX_EXTENDS} files extend each other", span))
            break
        try:
            source = current_text if current_text is not None else read_text(current, span)
        except GameError as err:
            diags.extend(err.diagnostics)
            break
        name = str(current)
        sources[name] = source
        tree, errors = parse(source, name)
        diags.extend(errors)
        if tree is None:
            break
        chain.append(tree)
        ext = [d for d in tree.decls if isinstance(d, A.ExtendsDecl)]
        if not ext:
            break
        if len(ext) > 1:
            diags.append(Diagnostic("E008", "a file extends one other file at most", ext[1].span))
        span = ext[0].span
        try:
            current = beside(current, ext[0].path, span)
        except GameError as err:
            diags.extend(err.diagnostics)
            break
        current_text = None
    if any(d.is_error for d in diags) or not chain:
        return Loaded(None, sources, diags)
    decls = list(chain[-1].decls)
    for variant in reversed(chain[:-1]):  # from the base up, each variant over what it builds on
        decls = merge(decls, variant.decls)
    decls = [read_table_file(d, sources, diags) if isinstance(d, A.TableDecl) and d.source else d
             for d in decls if not isinstance(d, A.ExtendsDecl)]
    decls = [read_words_file(d, decls, diags) if isinstance(d, A.WordsDecl) else d for d in decls]
    game = A.GameFile(chain[0].span, tuple(decls))
    return Loaded(game, sources, diags)


def load(path: str, text: Optional[str] = None, max_steps: Optional[int] = None):
    """Read, check and compile a game. Raises GameError (with every diagnostic) if it has errors."""
    loaded = parse_with_extends(path, text)
    diags = list(loaded.diagnostics)
    if loaded.game is None:
        raise GameError(diags) from None
    result = check(loaded.game, loaded.sources)
    diags.extend(result.diagnostics)
    if any(d.is_error for d in diags):
        raise GameError(diags)
    try:
        program = Compiler(loaded.game, types=result.types).compile()
    except RuleError as err:
        raise GameError(diags + [err.diagnostic()]) from None
    kwargs = {"max_steps": max_steps} if max_steps else {}
    game = Game(program, path, loaded.sources, **kwargs)
    game.warnings = [d for d in diags if not d.is_error]
    return game


def check_files(paths: List[str]) -> Tuple[List[Diagnostic], Dict[str, str]]:
    """Every diagnostic of every file (for `gamedsl check`), and their sources for rendering."""
    all_diags: List[Diagnostic] = []
    sources: Dict[str, str] = {}
    for path in paths:
        try:
            game = load(path)
            all_diags.extend(game.warnings)
            sources.update(game.sources)
        except GameError as err:
            all_diags.extend(err.diagnostics)
            loaded = parse_with_extends(path) if Path(path).exists() else None
            if loaded:
                sources.update(loaded.sources)
    return all_diags, sources
