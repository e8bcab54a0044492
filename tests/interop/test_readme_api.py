"""The README's "API at a glance" runs as written, and a record turns back into the state."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import necropolis

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_api_at_a_glance_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    section = README.read_text().split("### API at a glance", 1)[1]
    (code,) = re.findall(r"```python\n(.*?)```", section, re.S)[:1]
    monkeypatch.chdir(tmp_path)
    scope: dict[str, object] = {}
    exec(compile(code, "README.md", "exec"), scope)
    final, state = scope["final"], scope["state"]
    assert isinstance(final, necropolis.State) and isinstance(state, necropolis.State)
    assert state.is_terminal()
    assert state.history() == final.history()
    assert state.view(None) == final.view(None)
    assert scope["position"] is not None
