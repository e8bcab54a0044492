"""Loading one of the repository's scripts as a module, for their tests: the tools of
``scripts/`` (benchmarks) and the research of ``research/`` (fits, tunings, screens) are
files to run, not a package to import."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "scripts"
RESEARCH = ROOT / "research"


def load_script(name: str, folder: Path = SCRIPTS) -> ModuleType:
    """``<folder>/<name>.py`` as the module ``name`` (registered, so that the processes
    of a pool it starts can find its functions)."""
    spec = importlib.util.spec_from_file_location(name, folder / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
