"""Write the English game catalogs of the web table from the engine's own templates.

``web/src/i18n/games/<game>.en.json`` holds, at its top level, every message kind the game
declares (``Game.messages``) and the kernel's kinds (``KERNEL_MESSAGES``) with their English
templates, exactly as the engine has them, and under ``terms`` the English words of the
data file's ids and of the board's labels, under ``number_terms`` the terms numbered
parameters are written with (luxor's places), and under ``lobby`` the lobby's texts of the
game: its title and description (the engine's) and each option's label and help line.
This script rewrites the templates, the title and the description, and keeps the terms,
number terms and option texts already in the file (they are written by hand, as are the
Dutch and Italian catalogs). Run it from the repository root after a game's messages change:
``.venv/bin/python web/scripts/catalogs.py``; tests/web/test_catalogs.py checks that the
catalogs agree with the engine.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import necropolis
from necropolis.engine.language import KERNEL_MESSAGES

CATALOGS = Path(__file__).resolve().parent.parent / "src" / "i18n" / "games"
GAMES = ("luxor2001", "luxor", "horus")


def english(game_id: str) -> dict[str, Any]:
    game = necropolis.load_game(game_id)
    path = CATALOGS / f"{game_id}.en.json"
    old: dict[str, Any] = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    catalog: dict[str, Any] = {**KERNEL_MESSAGES, **dict(game.messages)}
    catalog["terms"] = old.get("terms", {})
    cls = type(game)
    catalog["lobby"] = {
        **old.get("lobby", {}),
        "title": cls.title,
        "description": cls.description,
    }
    if "number_terms" in old:  # written by hand too: kept, like the terms
        catalog["number_terms"] = old["number_terms"]
    return catalog


def main() -> int:
    CATALOGS.mkdir(parents=True, exist_ok=True)
    for game_id in GAMES:
        path = CATALOGS / f"{game_id}.en.json"
        text = json.dumps(english(game_id), ensure_ascii=False, indent=1) + "\n"
        path.write_text(text, encoding="utf-8")
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
