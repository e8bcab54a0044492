"""What the balance report tests share: a small plan per game and a "what if" edit of
its component data file, and the files that must repeat from a seed."""

from __future__ import annotations

from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "src" / "necropolis" / "games"

# Per game: a "what if" edit of its data file, and a plan small enough for the suite.
# luxor2001 shows three levels side by side; its variants are
# covered by the Ray test below.
CASES = {
    "horus": (
        ("mummy_step_minimum = 4", "mummy_step_minimum = 5"),
        ["--bots", "random,heuristic", "-p", "2", "-p", "3", "-n", "8"],
    ),
    "luxor": (
        ("sarcophagi = [5, 3]", "sarcophagi = [8, 5]"),
        ["--bots", "random", "-n", "16"],
    ),
    "luxor2001": (
        ("pharaoh_bonus = 7", "pharaoh_bonus = 0"),
        [
            *("--bots", "random,heuristic,medium", "-p", "2", "-n", "4"),
            *("-o", "curse=false", "-o", "sphinx=false", "-o", "pillar_order="),
        ],
    ),
}


def changed_file(game: str, folder: Path) -> Path:
    """The game's data file with the case's one edit (which must be there to make)."""
    (before, after), _ = CASES[game]
    text = (GAMES / game / f"{game}.toml").read_text(encoding="utf-8")
    assert before in text, f"{game}.toml no longer has {before!r}: update the test's edit"
    path = folder / f"{game}-changed.toml"
    path.write_text(text.replace(before, after), encoding="utf-8")
    return path


def figures(folder: Path) -> dict[str, bytes]:
    """The report's numbers and pictures, everything that must repeat from a seed."""
    found = {p.name: p.read_bytes() for p in sorted(folder.glob("*.png"))}
    found["summary.json"] = (folder / "summary.json").read_bytes()
    return found
