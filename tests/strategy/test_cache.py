"""Tables saved on disk: found again, and never trusted when stale or damaged."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from games.engine.rules import FREE_JOKER, OFFICIAL, Rules
from games.strategy import Strategy, load
from games.strategy import cache as strategy_cache_module


@pytest.fixture
def computes(monkeypatch: pytest.MonkeyPatch, official: Strategy) -> list[Rules]:
    """Make computing a table instant (it hands back the session's) and record each call."""
    calls: list[Rules] = []

    def compute(cls: type[Strategy], rules: Rules, *, threads: int | None = None) -> Strategy:
        calls.append(rules)
        return official

    monkeypatch.setattr(Strategy, "compute", classmethod(compute))
    return calls


def test_a_saved_table_loads_back_the_same(official: Strategy, tmp_path: Path) -> None:
    path = strategy_cache_module.write(OFFICIAL, tmp_path, official.arrays())
    assert path is not None
    assert path.parent == tmp_path

    arrays = strategy_cache_module.read(OFFICIAL, tmp_path)
    assert arrays is not None
    again = Strategy.from_arrays(OFFICIAL, arrays)

    np.testing.assert_array_equal(again.table, official.table)
    assert again.expected_score == official.expected_score
    for name, array in official.arrays().items():
        np.testing.assert_array_equal(again.arrays()[name], array)


def test_load_reads_the_file_instead_of_computing(
    official: Strategy, tmp_path: Path, computes: list[Rules]
) -> None:
    strategy_cache_module.write(OFFICIAL, tmp_path, official.arrays())

    loaded = load(OFFICIAL, cache_dir=tmp_path)

    assert computes == []
    assert loaded.expected_score == official.expected_score
    assert load("official", cache_dir=tmp_path) is loaded  # Then from memory.


def test_load_computes_and_saves_when_there_is_no_file(
    tmp_path: Path, computes: list[Rules]
) -> None:
    load(OFFICIAL, cache_dir=tmp_path / "new")

    assert computes == [OFFICIAL]
    assert strategy_cache_module.read(OFFICIAL, tmp_path / "new") is not None


@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty"])
def test_a_damaged_file_is_computed_again_and_replaced(
    official: Strategy, tmp_path: Path, computes: list[Rules], damage: str
) -> None:
    path = strategy_cache_module.write(OFFICIAL, tmp_path, official.arrays())
    assert path is not None
    whole = path.read_bytes()
    path.write_bytes(
        {"garbage": b"not a table" * 100, "truncated": whole[: len(whole) // 2], "empty": b""}[
            damage
        ]
    )

    loaded = load(OFFICIAL, cache_dir=tmp_path)

    assert computes == [OFFICIAL]
    assert loaded.expected_score == official.expected_score
    assert path.read_bytes() == whole


def test_a_file_that_does_not_fit_the_game_is_computed_again(
    official: Strategy, tmp_path: Path, computes: list[Rules]
) -> None:
    arrays = official.arrays()
    arrays["values"] = arrays["values"][:-1]
    strategy_cache_module.write(OFFICIAL, tmp_path, arrays)

    load(OFFICIAL, cache_dir=tmp_path)

    assert computes == [OFFICIAL]


def test_a_file_made_for_other_rules_is_ignored_and_removed(
    official: Strategy, tmp_path: Path, computes: list[Rules], monkeypatch: pytest.MonkeyPatch
) -> None:
    # As if games/engine/rules.py (or the solver) changed: the key is different.
    real_key = strategy_cache_module.table_key
    monkeypatch.setattr(strategy_cache_module, "table_key", lambda rules, kind="": "0" * 64)
    stale = strategy_cache_module.write(OFFICIAL, tmp_path, official.arrays())
    assert stale is not None
    monkeypatch.setattr(strategy_cache_module, "table_key", real_key)
    # Even under the current name, a file whose recorded key differs is not used.
    current = strategy_cache_module.table_path(OFFICIAL, tmp_path)
    current.write_bytes(stale.read_bytes())

    load(OFFICIAL, cache_dir=tmp_path)

    assert computes == [OFFICIAL]
    assert not stale.exists()
    assert strategy_cache_module.read(OFFICIAL, tmp_path) is not None


def test_the_key_follows_the_rules_and_the_preset() -> None:
    assert strategy_cache_module.table_key(OFFICIAL) == strategy_cache_module.table_key(OFFICIAL)
    assert strategy_cache_module.table_key(OFFICIAL) != strategy_cache_module.table_key(FREE_JOKER)
    changed = Rules("official", "Official", forced_joker=False)
    assert strategy_cache_module.table_key(changed) != strategy_cache_module.table_key(OFFICIAL)


@pytest.mark.parametrize("kind", ["", "odds"])
def test_the_key_covers_every_module_the_solver_imports(kind: str) -> None:
    from tests.test_architecture import import_graph

    graph = import_graph()
    hashed = {
        f"games.strategy.{Path(name).stem}"
        for name in strategy_cache_module._SOLVER_SOURCES
        + strategy_cache_module._KIND_SOURCES.get(kind, ())
    }
    reached, todo = set(hashed), list(hashed)
    while todo:
        for module in graph[todo.pop()] - reached:
            reached.add(module)
            todo.append(module)
    engine = {f"games.engine.{Path(name).stem}" for name in strategy_cache_module._ENGINE_SOURCES}
    # Not this module (a change of the files' layout is FORMAT's), nor the packages' docstrings.
    reached -= {"games.strategy.cache", "games.engine", "games.strategy"}
    assert reached == hashed | engine


def test_an_unwritable_cache_still_gives_a_strategy(tmp_path: Path, computes: list[Rules]) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")

    loaded = load(OFFICIAL, cache_dir=blocker / "cache")

    assert computes == [OFFICIAL]
    assert loaded.expected_score > 0


def test_where_the_cache_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YAHTZEE_STRATEGY_CACHE", str(tmp_path / "from-env"))
    assert strategy_cache_module.cache_dir(tmp_path / "given") == tmp_path / "given"
    assert strategy_cache_module.cache_dir() == tmp_path / "from-env"

    monkeypatch.delenv("YAHTZEE_STRATEGY_CACHE")
    project_var = Path(strategy_cache_module.__file__).resolve().parents[2] / "var"
    assert project_var.is_dir()  # A checkout: the cache goes in its var/, never committed.
    assert strategy_cache_module.cache_dir() == project_var / "strategy"
