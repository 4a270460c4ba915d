"""Boundaries the design depends on."""

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.interpreter import printed

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "module",
    [
        # Whole packages: every module in them is imported (below), so a new one is covered.
        "games.engine",
        "games.strategy",
        "games.wire",
        "games.insight",
        # Not games.web.charts: its words go through Django's translations (issue 31).
    ],
)
def test_pure_modules_import_without_django(module: str) -> None:
    # A fresh interpreter in which Django cannot be imported at all (in this one
    # pytest-django has imported it already); a package is imported module by module.
    script = (
        "import sys, pkgutil, importlib;"
        "sys.modules.update({'django': None, 'channels': None});"
        f"top = importlib.import_module('{module}');"
        "[importlib.import_module(m.name)"
        " for m in pkgutil.iter_modules(getattr(top, '__path__', []), top.__name__ + '.')];"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in {'django', 'channels'}"
        " and sys.modules[m] is not None))"
    )
    assert printed(script) == "[]"


def test_a_server_starts_without_what_sends_push_notices() -> None:
    # pywebpush (with aiohttp, requests and py_vapid) is imported by the push sender when
    # it first has a notice to send (games.live.push.Sender): a third of a second of CPU
    # that every process paid at its start, Daphne and each test worker alike.
    script = (
        "import os, sys;"
        "os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'tests.settings');"
        "import django; django.setup();"
        "import yahtzee_site.asgi, games.live.push;"
        "print(sorted(m for m in ('pywebpush', 'aiohttp', 'requests', 'py_vapid')"
        " if m in sys.modules))"
    )
    assert printed(script) == "[]"


def test_the_consumer_leaves_the_database_to_the_services() -> None:
    tree = ast.parse((ROOT / "games" / "live" / "consumers.py").read_text())
    from_models = [
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "games.models"
        for alias in node.names
    ]
    managers = [node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)]
    assert from_models == ["room_group"]  # A name, not a model.
    assert not {"objects", "save", "delete", "refresh_from_db"} & set(managers)


def _modules() -> dict[str, Path]:
    """Every module of ``games/`` by its dotted name (a package by its ``__init__``).

    The migrations are left out: generated, each imports only what it was made with."""
    modules = {}
    for path in sorted((ROOT / "games").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if "migrations" in parts:
            continue
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _imported(path: Path, name: str, modules: dict[str, Path]) -> Iterator[str]:
    """The modules of ours that the module ``name`` at ``path`` imports, anywhere in it.

    Every ``import`` statement counts: at the top, inside a function (a lazy import is
    still an arrow, and hid a circle once) and under ``TYPE_CHECKING`` (a type is a
    dependency of the design even when it costs nothing at run time)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def ours(dotted: str) -> str | None:
        while dotted and dotted not in modules:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from games.engine import rules`` imports games.engine.rules, not games.engine.
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            found = ours(target)
            if found is not None and found != name:
                yield found


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of ``games/`` it imports, read from the source (nothing runs)."""
    modules = _modules()
    return {name: set(_imported(path, name, modules)) for name, path in modules.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of imports, as the modules in order with the first repeated, or None."""
    done: set[str] = set()
    for start in sorted(graph):
        if start in done:
            continue
        # Depth first, iteratively; ``path`` is the chain of modules being followed.
        path, on_path = [start], {start}
        stack = [iter(sorted(graph[start]))]
        while stack:
            following = next(stack[-1], None)
            if following is None:
                stack.pop()
                finished = path.pop()
                on_path.discard(finished)
                done.add(finished)
                continue
            if following in on_path:
                return [*path[path.index(following) :], following]
            if following not in done:
                path.append(following)
                on_path.add(following)
                stack.append(iter(sorted(graph[following])))
    return None


def test_the_import_graph_of_games_has_no_cycle() -> None:
    cycle = find_cycle(import_graph())

    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


#: Which package of games/ may import which: the arrows point one way, down. A module
#: at the top of games/ (models, apps, admin, urls...) is in the package ``games``.
#: A package not named here may import anything; one named imports only what it lists.
MAY_IMPORT: dict[str, set[str]] = {
    "games.engine": set(),
    "games.strategy": {"games.engine"},
    "games.wire": {"games.engine"},
    # The analysis, the review, the chances and the coach: pure, over the strategy.
    "games.insight": {"games.engine", "games.strategy", "games.wire"},
    "games.live": {"games.engine", "games.strategy", "games.wire", "games.insight", "games"},
    "games.web": {
        "games.engine",
        "games.strategy",
        "games.wire",
        "games.insight",
        "games.live",
        "games",
    },
}
#: The models stand on the engine alone (the record is its game, the log its events).
MODELS_MAY_IMPORT = {"games.engine"}


def package_of(module: str) -> str:
    """The package of ``games`` a module belongs to: ``games.engine.rules`` -> ``games.engine``."""
    return ".".join(module.split(".")[:2]) if module.count(".") >= 2 else _top(module)


def _top(module: str) -> str:
    # games.strategy is a package; games.models a module at the top of games/.
    return module if module in MAY_IMPORT else "games"


def crossings(graph: dict[str, set[str]]) -> list[str]:
    """Every import from one package to another that :data:`MAY_IMPORT` does not allow."""
    wrong = []
    for module, imported in sorted(graph.items()):
        source = package_of(module)
        if source not in MAY_IMPORT:
            continue
        for target in sorted(imported):
            destination = package_of(target)
            if destination != source and destination not in MAY_IMPORT[source]:
                wrong.append(f"{module} -> {target}")
    return wrong


def test_each_package_imports_only_the_layers_below_it() -> None:
    assert crossings(import_graph()) == []


def test_the_models_stand_on_the_engine_alone() -> None:
    imported = {package_of(module) for module in import_graph()["games.models"]}

    assert imported <= MODELS_MAY_IMPORT


def test_nothing_of_games_imports_the_pages() -> None:
    # Only the site's URLconf (yahtzee_site/urls.py) and the audit_games command do.
    importers = {
        module
        for module, imported in import_graph().items()
        if package_of(module) != "games.web" and any(package_of(t) == "games.web" for t in imported)
    }

    assert importers == {"games.management.commands.audit_games"}


def test_a_crossing_is_named() -> None:
    graph = {"games.engine.rules": {"games.models"}, "games.models": {"games.engine.rules"}}

    assert crossings(graph) == ["games.engine.rules -> games.models"]


def test_the_cycle_finder_names_a_circle_and_passes_a_tree() -> None:
    circle = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    tree = {"a": {"b", "c"}, "b": {"c"}, "c": set()}

    assert find_cycle(circle) == ["a", "b", "c", "a"]
    assert find_cycle(tree) is None


def test_the_graph_reads_lazy_and_type_checking_imports() -> None:
    graph = import_graph()

    assert "games.engine.events" in graph["games.engine.rules"]
    assert "games.engine.boxes" in graph["games.engine.events"]
    assert "games.live.bots" in graph["games.apps"]  # Inside ready(): a function-level import.
