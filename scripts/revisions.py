"""The source of another git revision, for the scripts that compare this checkout with
it: ``bench_table.py --reference REV`` runs that revision's server, ``same_play.py
--reference REV`` replays matches with its engine. Only ``src/`` is taken, with
``git archive`` (the revision must be in the local history), into a temporary directory
that goes when the caller is done.
"""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def reference_source(revision: str, prefix: str = "reference-") -> Iterator[Path]:
    """The ``src/`` directory of git revision ``revision``, in a temporary directory."""
    with tempfile.TemporaryDirectory(prefix=prefix) as where:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", revision, "src"],
            check=True,
            capture_output=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", where], input=archive, check=True)
        yield Path(where) / "src"
