"""The package's shape, enforced: the stages import one way, and nothing reaches inside.

- no import cycle between gamedsl's modules (each module's imports, at any depth, as written);
- runtime never imports the syntax, the checker or the compiler; the syntax never imports
  the runtime, the checker or the compiler; the checker never imports the compiler or the
  runtime; nothing outside the command line imports `gamedsl.cli`;
- imports of gamedsl modules sit at the top of a module, outside `gamedsl/cli/` (which keeps
  start-up short by importing a command's modules when it runs), but for the few below;
- no `_private` name of one gamedsl module is used by another module, test, benchmark or tool.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, Iterator, List, Set, Tuple

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "gamedsl"

# (importing module, imported module): imported inside a function on purpose.
LAZY_IMPORTS = {
    # the parser imports lark (~50 ms of a `gamedsl check` that finds its files in the cache)
    ("gamedsl.syntax.cache", "gamedsl.syntax.parser"),
    ("gamedsl.syntax.decl_cache", "gamedsl.syntax.parser"),
}

# stage -> the stages it may not import
FORBIDDEN = {
    "gamedsl.runtime": ("gamedsl.syntax", "gamedsl.checker", "gamedsl.compiler", "gamedsl.pipeline"),
    "gamedsl.syntax": ("gamedsl.runtime", "gamedsl.checker", "gamedsl.compiler", "gamedsl.pipeline"),
    "gamedsl.checker": ("gamedsl.runtime", "gamedsl.compiler", "gamedsl.pipeline"),
    "gamedsl.compiler": ("gamedsl.pipeline",),
    "gamedsl.bots": ("gamedsl.syntax", "gamedsl.checker", "gamedsl.compiler"),
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> Dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports_of(path: Path, known: Set[str]) -> Iterator[Tuple[str, bool, int]]:
    """(imported gamedsl module, at the top of the module?, line) for each import."""
    tree = ast.parse(path.read_text("utf-8"))
    top = {id(n) for n in tree.body}
    top |= {id(n) for n in tree.body for n in ast.walk(n) if isinstance(n, (ast.If, ast.Try))}

    def at_top(node) -> bool:
        return id(node) in top or node.col_offset == 0

    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if not node.module.startswith("gamedsl"):
                continue
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                yield (full if full in known else node.module), at_top(node), node.lineno
        elif isinstance(node, ast.ImportFrom) and node.level:
            raise AssertionError(f"{path}:{node.lineno}: a relative import; gamedsl imports by full name")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("gamedsl"):
                    yield alias.name, at_top(node), node.lineno


def graph() -> Dict[str, List[Tuple[str, bool, int]]]:
    mods = modules()
    known = set(mods)
    out = {}
    for name, path in mods.items():
        edges = []
        for target, top, line in imports_of(path, known):
            while target not in known and "." in target:
                target = target.rsplit(".", 1)[0]
            if target in known and target != name:
                edges.append((target, top, line))
        out[name] = edges
    return out


def cycles(edges: Dict[str, List[str]]) -> List[List[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    found: List[List[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def in_package(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_no_import_cycle():
    g = graph()
    # A package's __init__ importing its own modules is how a package exports; it is not a
    # cycle in the pipeline, so edges into a package's own __init__ from inside it are left out.
    edges = {m: [t for t, _, _ in ts if not (t in g and in_package(m, t))] for m, ts in g.items()}
    assert cycles(edges) == []


def test_stages_import_one_way():
    wrong = []
    for module, targets in graph().items():
        for stage, banned in FORBIDDEN.items():
            if in_package(module, stage):
                wrong += [f"{module}:{line} imports {t}" for t, _, line in targets
                          if any(in_package(t, b) for b in banned)]
        if not in_package(module, "gamedsl.cli") and module != "gamedsl.__main__":
            wrong += [f"{module}:{line} imports {t}" for t, _, line in targets if in_package(t, "gamedsl.cli")]
    assert wrong == []


def test_gamedsl_modules_are_imported_at_the_top():
    late = [f"{module}:{line} imports {t} inside a function"
            for module, targets in graph().items() if not in_package(module, "gamedsl.cli")
            for t, top, line in targets if not top and (module, t) not in LAZY_IMPORTS]
    assert late == []


def private_names_used_elsewhere(paths: List[Path]) -> List[str]:
    """`module._name` (or `from module import _name`) where the name is another gamedsl
    module's private one."""
    mods = modules()
    known = set(mods)
    wrong = []
    for path in paths:
        tree = ast.parse(path.read_text("utf-8"))
        aliases: Dict[str, str] = {}
        here = module_name(path) if path.is_relative_to(PACKAGE) else None
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("gamedsl"):
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    if full in known:
                        aliases[alias.asname or alias.name] = full
                    elif alias.name.startswith("_") and not alias.name.startswith("__") and node.module != here:
                        wrong.append(f"{_shown(path)}:{node.lineno}: {alias.name} from {node.module}")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in known:
                        aliases[alias.asname or alias.name] = alias.name
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in aliases and node.attr.startswith("_")
                    and not node.attr.startswith("__") and aliases[node.value.id] != here):
                wrong.append(f"{_shown(path)}:{node.lineno}: {node.value.id}.{node.attr}")
    return wrong


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def defined_private_names(tree) -> Set[str]:
    """The private names a file defines itself: its functions, classes and variables, and the
    attributes it sets (`self._x = ...`) or declares in `__slots__`."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.attr)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("_"):
            names.add(node.value)  # __slots__ entries, attrs' private fields named in strings
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {n for n in names if n.startswith("_")}


def private_attributes_of_others(paths: List[Path]) -> List[str]:
    """`thing._name` where no line of the file defines `_name` but a gamedsl module does: another
    module's private name. (Other libraries' private names are their own business.)"""
    ours = set().union(*(defined_private_names(ast.parse(p.read_text("utf-8"))) for p in python_files("gamedsl")))
    wrong = []
    for path in paths:
        tree = ast.parse(path.read_text("utf-8"))
        own = defined_private_names(tree)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                    and node.attr not in own and node.attr in ours):
                wrong.append(f"{_shown(path)}:{node.lineno}: .{node.attr}")
    return wrong


def python_files(*folders: str) -> List[Path]:
    return [p for f in folders for p in sorted((ROOT / f).rglob("*.py")) if "__pycache__" not in p.parts]


def test_no_private_name_is_used_across_modules():
    assert private_names_used_elsewhere(python_files("gamedsl", "tests", "benchmarks", "tools")) == []


def test_no_private_attribute_of_another_module_is_read():
    assert private_attributes_of_others(python_files("gamedsl", "tests", "benchmarks", "tools")) == []


def test_the_checks_find_what_they_look_for(tmp_path):
    # a cycle, and a private name taken from another module, are seen
    assert cycles({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) == [["a", "b", "c"]]
    user = tmp_path / "user.py"
    user.write_text("from gamedsl.runtime import rng\nfrom gamedsl.runtime.rng import _MASK\nrng._MASK\n")
    assert len(private_names_used_elsewhere([user])) == 2
    reader = tmp_path / "reader.py"
    reader.write_text("def f(game):\n    return game.machine._listed, game._made_up\n")
    assert private_attributes_of_others([reader]) == [f"{reader}:2: ._listed"]
