"""The worked examples in examples/ run, with tiny budgets, as a reader would run them."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_maskable_ppo_trains_and_writes_its_curve(tmp_path: Path) -> None:
    out = tmp_path / "curve.json"
    args = ["--steps", "64", "--eval-every", "32", "--eval-matches", "2", "--n-steps", "32"]
    curve = example("train_maskable_ppo").main([*args, "--out", str(out)])
    assert [row["steps"] for row in curve] == [0, 32, 64]
    for row in curve:
        for opponent in ("random", "easy"):
            assert 0 <= row[opponent]["share"] <= 1
    written = json.loads(out.read_text())
    assert written["curve"] == curve and written["settings"]["game"] == "luxor2001"


def test_openspiel_mcts_and_ismcts_play_necropolis_bots() -> None:
    figures = example("openspiel_bots").main(["--matches", "2", "--simulations", "3"])
    assert set(figures) == {"ismcts", "mcts"}
    for share, half in figures.values():
        assert 0 <= share <= 1 and half >= 0
