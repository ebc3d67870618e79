"""The shape of the codebase, read from its source (issue 38, "the house"): import cycles with
the imports inside functions and under ``TYPE_CHECKING`` counted, game names tested in ``if``s
outside the game's own folder, lists of games, loose modules at the top of ``controller/``,
the longest function and the widest class. ``tests/test_architecture.py`` holds the figures to
ceilings that may only come down; ``bench/house_figures.py`` prints them, before and after each
step of the redesign. Pure reading (``ast``): nothing here imports the project."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROJECT = ("controller", "drivers", "firmware")

GAME_NAMES = frozenset({"damath", "dadama", "dam", "mathchess", "english", "italian"})
"""The games' names as the code spells them (a registry key, a record's game, a profile's)."""

FIRMWARE_PAIR = frozenset({"firmware"})
"""The Pico's MicroPython modules import each other as MicroPython loads them (flat, on the
device's file system): their cycle is the device's, not the host's, and is left out."""


@dataclass(frozen=True)
class Import:
    """One project module imported by a file: where, and how (at the top of the module, inside
    a function, or only for the type checker)."""

    line: int
    module: str
    how: str  # "top", "function" or "type_checking"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def is_module(name: str) -> bool:
    base = ROOT.joinpath(*name.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def project_files(tops: Iterable[str] = PROJECT) -> list[Path]:
    return sorted(p for top in tops for p in (ROOT / top).rglob("*.py"))


@cache
def _parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def _tree(path: Path, source: str | None) -> ast.Module:
    """The file's syntax tree (each file parsed once), or the tree of ``source`` in its place."""
    return _parsed(path) if source is None else ast.parse(source, str(path))


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _statements(tree: ast.Module) -> Iterator[tuple[ast.stmt, str]]:
    """Every statement of ``tree`` (imports are statements: expressions are not entered) with
    how an import there would run."""
    todo: list[tuple[ast.AST, str]] = [(tree, "top")]
    while todo:
        node, how = todo.pop()
        blocks = [getattr(node, f, None) for f in ("body", "orelse", "finalbody", "handlers")]
        blocks.append([case for case in getattr(node, "cases", ())])
        for block in blocks:
            if not isinstance(block, list):
                continue
            for child in block:
                inner = how
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                    inner = "function" if how == "top" else how
                elif isinstance(child, ast.If) and _is_type_checking(child.test):
                    inner = "type_checking"
                if isinstance(child, ast.stmt):
                    yield child, inner
                todo.append((child, inner))


def imports_of(path: Path, source: str | None = None) -> list[Import]:
    """Every project module ``path`` imports; relative imports resolved against the file's
    package, and ``from pkg import mod`` read as importing ``pkg.mod``."""
    tree = _tree(path, source)
    package = (
        module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    )
    found: list[Import] = []
    for node, how in _statements(tree):
        if isinstance(node, ast.Import):
            found += [Import(node.lineno, alias.name, how) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = parts[: len(parts) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                found.append(Import(node.lineno, sub if is_module(sub) else module, how))
    return [i for i in found if i.module.split(".")[0] in PROJECT]


# ---------------------------------------------------------------------------- import cycles


def import_graph(files: Iterable[Path]) -> dict[str, set[str]]:
    """Module -> the project modules it imports, by any route (top, function, type checker)."""
    graph: dict[str, set[str]] = {}
    for path in files:
        graph.setdefault(module_name(path), set()).update(i.module for i in imports_of(path))
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles: each strongly connected set of two or more modules (Tarjan's
    algorithm, iterative), sorted; the firmware's pair left out."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                members: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    members.append(member)
                    if member == node:
                        break
                if len(members) > 1 and not {m.split(".")[0] for m in members} <= FIRMWARE_PAIR:
                    found.append(sorted(members))
    return sorted(found)


# ---------------------------------------------------------------------------- games in ifs


def _game_name(node: ast.AST) -> str | None:
    """The game a node spells: a string (``"dam"``), a game's constant (``DAMATH``), a game
    module's name (``dadama.GAME``) or a rule set's (``draughts.DAM.name``)."""
    if isinstance(node, ast.Constant) and node.value in GAME_NAMES:
        return str(node.value)
    if isinstance(node, ast.Name) and node.id.isupper() and node.id.lower() in GAME_NAMES:
        return node.id.lower()
    if isinstance(node, ast.Attribute):
        owner = node.value
        owner_name = (
            owner.id
            if isinstance(owner, ast.Name)
            else owner.attr
            if isinstance(owner, ast.Attribute)
            else ""
        )
        if node.attr == "GAME" and owner_name in GAME_NAMES:
            return owner_name
        if node.attr == "name" and owner_name.isupper() and owner_name.lower() in GAME_NAMES:
            return owner_name.lower()
    return None


def _games_in(node: ast.expr) -> set[str]:
    """The games a test compares with: ``x == "dam"``, ``x in ("dadama", "dam")``,
    ``name == dadama.GAME``."""
    names: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Compare):
            for operand in (sub.left, *sub.comparators):
                names |= {n for leaf in ast.walk(operand) if (n := _game_name(leaf)) is not None}
    return names


def own_game(path: Path) -> str | None:
    """The game whose folder ``path`` is in (``controller/games/<name>/``), or whose rules it
    is in the rules engine (``controller/rules/<name>.py``, ``<name>_*.py``, ``<name>/``: its
    readers check that a position or record is of their own game), if any."""
    parts = path.relative_to(ROOT).parts
    if len(parts) > 3 and parts[:2] == ("controller", "games"):
        return parts[2]
    if len(parts) > 2 and parts[:2] == ("controller", "rules"):
        name = parts[2].removesuffix(".py").split("_")[0]
        return name if name in GAME_NAMES else None
    return None


def game_ifs(path: Path, source: str | None = None) -> list[str]:
    """Each place a test (an ``if``, a conditional expression, a ``while``, a ``match``'s
    case, a comprehension's ``if``) names a game other than the folder's own: ``file:line
    names``."""
    rel = path.relative_to(ROOT)
    if rel.parts[:2] == ("controller", "i18n"):
        return []  # "english" is a language there, not the game
    tree = _tree(path, source)
    own = own_game(path)
    found: list[str] = []
    for node in ast.walk(tree):
        tests: list[ast.expr] = []
        if isinstance(node, ast.If | ast.IfExp | ast.While):
            tests = [node.test]
        elif isinstance(node, ast.comprehension):
            tests = list(node.ifs)
        elif isinstance(node, ast.match_case):
            pattern_names = {
                str(p.value.value)
                for p in ast.walk(node.pattern)
                if isinstance(p, ast.MatchValue)
                and isinstance(p.value, ast.Constant)
                and p.value.value in GAME_NAMES
            }
            names = pattern_names - {own}
            if names:
                found.append(f"{rel}:{node.pattern.lineno} {','.join(sorted(names))}")
        for test in tests:
            names = _games_in(test) - {own}
            if names:
                found.append(f"{rel}:{test.lineno} {','.join(sorted(names))}")
    return found


# ---------------------------------------------------------------------------- lists of games


def game_lists(path: Path) -> list[str]:
    """Module-level values that spell three or more games (by name or by their constants: a
    dict's keys, a tuple's items, a comprehension over them): each is a list of the games that
    must agree with the others."""
    tree = _parsed(path)
    rel = path.relative_to(ROOT)
    found: list[str] = []
    for node in tree.body:
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
        if value is None:
            continue
        names = {name for sub in ast.walk(value) if (name := _game_name(sub)) is not None}
        if len(names) >= 3:
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            label = target.id if isinstance(target, ast.Name) else ast.unparse(target)
            found.append(f"{rel}:{node.lineno} {label}")
    return found


# ---------------------------------------------------------------------------- sizes


@dataclass(frozen=True)
class Size:
    where: str
    name: str
    lines: int
    public: int = 0  # a class's public members (methods and properties)


def functions(path: Path) -> list[Size]:
    tree = _parsed(path)
    rel = path.relative_to(ROOT)
    return [
        Size(f"{rel}:{node.lineno}", node.name, (node.end_lineno or node.lineno) - node.lineno + 1)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]


def classes(path: Path) -> list[Size]:
    tree = _parsed(path)
    rel = path.relative_to(ROOT)
    found: list[Size] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            public = sum(
                1
                for item in node.body
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
                and not item.name.startswith("_")
            )
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            found.append(Size(f"{rel}:{node.lineno}", node.name, lines, public))
    return found


def loose_modules() -> list[str]:
    """The modules at the top of ``controller/`` (not in a package)."""
    return sorted(p.stem for p in (ROOT / "controller").glob("*.py") if p.stem != "__init__")


def in_function_imports(files: Iterable[Path]) -> list[str]:
    """Project imports inside functions: each a dependency the layer test reads but a reader
    of the module's head does not see."""
    return [
        f"{path.relative_to(ROOT)}:{i.line} {i.module}"
        for path in files
        for i in imports_of(path)
        if i.how == "function"
    ]


def type_checking_imports(files: Iterable[Path]) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{i.line} {i.module}"
        for path in files
        for i in imports_of(path)
        if i.how == "type_checking"
    ]
