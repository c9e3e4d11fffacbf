"""Loading a game: read the file (and the files it extends), parse, merge variants, check, compile.

Rule files are untrusted: a game may read only files beside it (no absolute
paths, no '..'), and everything wrong is reported as diagnostics.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

import attrs

from gamedsl.syntax import ast as A
from gamedsl.diagnostics import Diagnostic
from gamedsl.errors import GameError
from gamedsl.errors import RuleError, UsageError
from gamedsl.files import FileRefused, identity, read_bytes
from gamedsl.language import MAX_SOURCE_BYTES
from gamedsl.syntax.cache import parse
from gamedsl.syntax.cache_store import Kept
from gamedsl.syntax.tablefiles import parse_csv
from gamedsl.runtime.wordlists import Folding, option_in_name, word_list
from gamedsl.checker.checker import CheckResult, check
from gamedsl.compiler import backend as generated
from gamedsl.compiler import codecache, copier, listing
from gamedsl.compiler.compiler import Compiler
from gamedsl.runtime.game import Game

MAX_EXTENDS = 10
# where word lists keep their indexes between runs (the private cache folder)
_WORD_INDEXES = Kept(".words")

# Declarations a variant replaces by name; the others (game, players, setup, turn,
# score, tiebreak) there is one of, and a variant's replaces the base's.
_NAMED = (A.OptionDecl, A.EnumDecl, A.TableDecl, A.KindDecl, A.ZoneDecl, A.VarDecl, A.DefDecl,
          A.ProcDecl, A.PhaseDecl, A.ResultDecl, A.PublicDecl, A.WordsDecl)


def _key(decl):
    if isinstance(decl, _NAMED):
        return (type(decl).__name__, decl.name)
    return (type(decl).__name__, None)


def read_text(path: Path, span: Optional[A.Span] = None, checked: Optional["FoundFile"] = None) -> str:
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
FoundFile = Tuple[Tuple[int, int], Path]


def checked_beside(base: Path, name: str, span: Optional[A.Span]) -> Tuple[Path, FoundFile]:
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
            lists.append((value, word_list(path, folding, checked, _WORD_INDEXES)))
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


def parse_with_extends(path: str, text: Optional[str] = None,
                       parse_text: Optional[Callable[[str, str], tuple]] = None) -> Loaded:
    """Parse a file and, through `extends`, the drafts it builds on, merged into one GameFile.
    `parse_text(source, path)` parses the given text instead of the cache (an editor's server
    keeps the declarations of the file being edited in memory); the files it extends are
    read and parsed as usual."""
    sources: Dict[str, str] = {}
    diags: List[Diagnostic] = []
    chain: List[A.GameFile] = []
    recovered: List[Diagnostic] = []  # syntax errors of files otherwise read
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
        tree, errors = (parse_text or parse)(source, name) if not chain else parse(source, name)
        diags.extend(errors)
        if tree is None:
            break
        if tree.unparsed:  # syntax errors, the rest read: the checker may still speak
            recovered.extend(errors)
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
    if not chain or any(d.is_error and not any(d is r for r in recovered) for d in diags):
        return Loaded(None, sources, diags)
    decls = list(chain[-1].decls)
    for variant in reversed(chain[:-1]):  # from the base up, each variant over what it builds on
        decls = merge(decls, variant.decls)
    decls = [read_table_file(d, sources, diags) if isinstance(d, A.TableDecl) and d.source else d
             for d in decls if not isinstance(d, A.ExtendsDecl)]
    decls = [read_words_file(d, decls, diags) if isinstance(d, A.WordsDecl) else d for d in decls]
    game = A.GameFile(chain[0].span, tuple(decls), tuple(t for tree in chain for t in tree.unparsed))
    return Loaded(game, sources, diags)


BACKENDS = ("compiled", "interpreter")


@attrs.define
class Checked:
    """A game file checked as `gamedsl check` checks it: every diagnostic (of reading,
    parsing, checking and compiling), the merged syntax tree and what the checker knows of
    it (None where the file did not get that far), and the program when there is no error."""

    game: Optional[A.GameFile]
    sources: Dict[str, str]
    diagnostics: List[Diagnostic]
    result: Optional[CheckResult] = None
    program: object = None
    compiler: object = None


def check_text(path: str, text: Optional[str] = None,
               parse_text: Optional[Callable[[str, str], tuple]] = None) -> Checked:
    """Read (or take `text`), parse, check and compile a game; never raises for its mistakes."""
    loaded = parse_with_extends(path, text, parse_text)
    diags = list(loaded.diagnostics)
    if loaded.game is None:
        return Checked(None, loaded.sources, diags)
    result = check(loaded.game, loaded.sources)
    diags.extend(used_by_scenarios(path, result.diagnostics) if text is None else result.diagnostics)
    checked = Checked(loaded.game, loaded.sources, diags, result)
    if any(d.is_error for d in diags):
        return checked
    try:
        checked.compiler = Compiler(loaded.game, types=result.types, codes=codecache.for_game(path))
        checked.program = checked.compiler.compile()
    except RuleError as err:
        diags.append(err.diagnostic())
    return checked


def load(path: str, text: Optional[str] = None, max_steps: Optional[int] = None, backend: str = "compiled"):
    """Read, check and compile a game. Raises GameError (with every diagnostic) if it has errors.

    `backend`: "compiled" runs the rules as Python generated for this game
    (gamedsl.compiler.backend); "interpreter" walks the compiled statements one by one (the
    reference the compiled one is tested against, move for move)."""
    if backend not in BACKENDS:
        raise UsageError(f"unknown back end {backend!r}: one of {', '.join(BACKENDS)}")
    checked = check_text(path, text)
    if checked.program is None:
        raise GameError(checked.diagnostics) from None
    program = checked.program
    kwargs = {"max_steps": max_steps} if max_steps else {}
    codes = kwargs["codes"] = checked.compiler.codes
    if backend == "compiled":
        kwargs["blocks"] = generated.factory(program, codes)
        kwargs["listing"] = listing.factory(program, codes)
        kwargs["copier"] = copier.copier(program, codes)
    game = Game(program, path, checked.sources, snippets=checked.compiler.snippets(program), **kwargs)
    game.warnings = [d for d in checked.diagnostics if not d.is_error]
    return game


SCENARIO_FOLDER = "scenarios"
_SCENARIO_GAME = re.compile(r'^\s*game\s*"([^"\n]*)"', re.M)
_SCENARIO_NOISE = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*')  # texts and comments
_UNUSED = re.compile(r"^[\w ]+ '(\w+)' is never used$")


def scenarios_of(path: str) -> List[Path]:
    """The scenario files that test a game: beside it or under `scenarios/` beside it, and
    naming it (`game "..."`, relative to the scenario file)."""
    game = Path(path)
    try:
        target = game.resolve()
        found = sorted(game.parent.glob("*.scenario"))
        if (game.parent / SCENARIO_FOLDER).is_dir():
            found += sorted((game.parent / SCENARIO_FOLDER).rglob("*.scenario"))
    except (OSError, RuntimeError):
        return []
    out = []
    for f in found[:200]:  # (a folder of thousands is no game's)
        try:
            m = _SCENARIO_GAME.search(f.read_text("utf-8")[:4096])
            if m and (f.parent / m.group(1)).resolve() == target:
                out.append(f)
        except (OSError, UnicodeDecodeError, RuntimeError, ValueError):
            continue
    return out


def used_by_scenarios(path: str, diags: List[Diagnostic]) -> List[Diagnostic]:
    """`diags` without W101 for what a scenario of the game uses (a def written only for a
    scenario's `expect`); the W101 left say where a scenario must lie to count."""
    if not any(d.code == "W101" for d in diags):
        return diags
    words = set()
    for f in scenarios_of(path):
        try:
            words |= set(re.findall(r"[A-Za-z_]\w*", _SCENARIO_NOISE.sub(" ", f.read_text("utf-8"))))
        except (OSError, UnicodeDecodeError):
            continue
    out = []
    for d in diags:
        m = _UNUSED.match(d.message) if d.code == "W101" else None
        if m and m.group(1) in words:
            continue
        if m:
            d = attrs.evolve(d, hint=f"use it or remove it (a scenario counts when it lies beside the game "
                                     f"or in {SCENARIO_FOLDER}/ beside it, naming it)")
        out.append(d)
    return out


def check_files(paths: List[str]) -> Tuple[List[Diagnostic], Dict[str, str]]:
    """Every diagnostic of every file (for `gamedsl check`), and their sources for rendering."""
    all_diags: List[Diagnostic] = []
    sources: Dict[str, str] = {}
    for path in paths:
        checked = check_text(path)
        all_diags.extend(checked.diagnostics)
        sources.update(checked.sources)
    return all_diags, sources
