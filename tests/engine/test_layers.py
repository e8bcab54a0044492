"""The layers of architecture.md: an import only ever points down the list.

engine, games, bots, interop, analysis, server, cli: a module of one layer may import
its own layer and those listed before it, never one after it (the kernel knows no game,
the games know no bot, and so on). The analysis comes before the server, whose bot
workers explain a finished match and give hints with it (architecture.md lists it after;
nothing in it serves tables). Every module's source is read and its imports walked,
those inside functions too, so a late import cannot hide an arrow pointing up. The top
package ``necropolis`` is the public facade over every layer, so it counts as the top.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import necropolis

LAYERS = ("engine", "games", "bots", "interop", "analysis", "server", "cli")
ROOT = Path(necropolis.__file__).parent


def imported_modules(tree: ast.AST, module: str, is_package: bool) -> list[tuple[int, str]]:
    """Every module name ``tree`` imports, relative imports resolved, with its line."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = module.split(".")
                anchor = parts if is_package else parts[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from necropolis import games`` imports the submodule (or the facade's
            # name): either way it is what the layer reaches for.
            found.extend((node.lineno, f"{base}.{alias.name}") for alias in node.names)
    return sorted(found)


def layer_of(name: str) -> int | None:
    """The rank of the layer a module name belongs to (past the last for the facade)."""
    parts = name.split(".")
    if parts[0] != "necropolis":
        return None
    if len(parts) == 1 or parts[1] not in LAYERS:
        return len(LAYERS)  # the facade (or one of its names): above every layer
    return LAYERS.index(parts[1])


def upward_imports(layer: str) -> list[str]:
    """``path:line imports name`` for each import in ``layer`` of a layer above it."""
    rank = LAYERS.index(layer)
    folder = ROOT / layer
    problems = []
    for path in sorted(folder.rglob("*.py")):
        relative = path.relative_to(ROOT.parent).with_suffix("")
        is_package = relative.name == "__init__"
        module = ".".join(relative.parts[:-1] if is_package else relative.parts)
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, name in imported_modules(tree, module, is_package):
            target = layer_of(name)
            if target is not None and target > rank:
                problems.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    return problems


@pytest.mark.parametrize("layer", LAYERS)
def test_no_layer_imports_a_layer_above_it(layer: str) -> None:
    assert upward_imports(layer) == []


def test_the_walk_sees_imports_in_functions_and_relative_ones() -> None:
    source = (
        "from necropolis.engine.errors import NecropolisError\n"
        "def late():\n"
        "    from necropolis.games import load_game\n"
        "from ..bots import RandomBot\n"
        "from . import options\n"
    )
    found = imported_modules(ast.parse(source), "necropolis.engine.record", False)
    names = [name for _, name in found]
    assert names == [
        "necropolis.engine.errors.NecropolisError",
        "necropolis.games.load_game",
        "necropolis.bots.RandomBot",
        "necropolis.engine.options",
    ]
    assert [layer_of(n) for n in names] == [0, 1, 2, 0]
    assert layer_of("necropolis.load_game") == len(LAYERS)
    assert layer_of("json") is None


class _LoadTime(ast.NodeTransformer):
    """Keeps what a module imports as it loads: drops ``if TYPE_CHECKING:`` blocks (imports
    for annotations) and function bodies (imports deferred to a call)."""

    def visit_If(self, node: ast.If) -> ast.AST | None:
        if isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            return None
        return self.generic_visit(node)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST | None:
        return None


def _game_module_imports(game: str) -> dict[str, set[str]]:
    """Each module of the game package ``game`` and the modules of that package it imports
    as it loads (a ``from package import name`` counts when the name is a module)."""
    folder = ROOT / "games" / game
    prefix = f"necropolis.games.{game}"
    modules = {path.stem for path in folder.glob("*.py") if path.stem != "__init__"}
    graph: dict[str, set[str]] = {}
    for name in sorted(modules):
        path = folder / f"{name}.py"
        tree = _LoadTime().visit(ast.parse(path.read_text(encoding="utf-8")))
        targets: set[str] = set()
        for _, imported in imported_modules(tree, f"{prefix}.{name}", False):
            parts = imported.removeprefix(prefix + ".").split(".")
            if imported.startswith(prefix + ".") and parts[0] in modules:
                targets.add(parts[0])
        graph[name] = targets - {name}
    return graph


@pytest.mark.parametrize(
    "game",
    sorted(
        p.name for p in (ROOT / "games").iterdir() if p.is_dir() and (p / "__init__.py").exists()
    ),
)
def test_no_module_of_a_game_imports_one_that_imports_it_back(game: str) -> None:
    """A game's modules import each other one way only as they load (the rules' parts as
    much as the rest): a cycle means two of them share a role and one fact may end up in
    both (horus's round and its actions did, before their effects got a module)."""
    graph = _game_module_imports(game)
    cycles = []
    for start in graph:
        todo, seen = list(graph[start]), set()
        while todo:
            node = todo.pop()
            if node == start:
                cycles.append(start)
                break
            if node not in seen:
                seen.add(node)
                todo.extend(graph.get(node, ()))
    assert cycles == []
