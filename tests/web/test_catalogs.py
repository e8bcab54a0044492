"""The web table's game catalogs agree with the games' table language.

Every message kind a game declares (``Game.messages``) and every kernel kind has a
template in English, Dutch and Italian (``web/src/i18n/games/<game>.<lang>.json``) that
uses exactly the parameters of the engine's English template, so that no sentence of any
language loses or invents a parameter; the English catalog is the engine's text itself;
no catalog keeps a kind the game no longer has; every language translates the same
terms; and every language has the lobby's texts of each game (``lobby``: its title and
description, and a label and a help line for each of its options).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import necropolis
from necropolis.engine.language import KERNEL_MESSAGES, template_fields

CATALOGS = Path(__file__).resolve().parents[2] / "web" / "src" / "i18n" / "games"
GAMES = ("luxor2001", "luxor", "horus")
LANGUAGES = ("en", "nl", "it")
#: The sections of a catalog that are not message kinds.
SECTIONS = ("terms", "lobby")


def catalog(game_id: str, lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (CATALOGS / f"{game_id}.{lang}.json").read_text(encoding="utf-8")
    )
    return data


def declared(game_id: str) -> dict[str, str]:
    return {**KERNEL_MESSAGES, **dict(necropolis.load_game(game_id).messages)}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game_id", GAMES)
def test_every_kind_has_a_template_with_the_english_parameters(game_id: str, lang: str) -> None:
    english = declared(game_id)
    cat = catalog(game_id, lang)
    missing = sorted(k for k in english if not isinstance(cat.get(k), str) or not cat[k].strip())
    assert not missing, f"{game_id}.{lang}.json lacks templates for {missing}"
    wrong = {
        kind: (sorted(template_fields(cat[kind])), sorted(template_fields(template)))
        for kind, template in english.items()
        if template_fields(cat[kind]) != template_fields(template)
    }
    assert not wrong, f"{game_id}.{lang}.json: parameters differ from English: {wrong}"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game_id", GAMES)
def test_no_stale_kinds(game_id: str, lang: str) -> None:
    english = declared(game_id)
    stale = sorted(k for k in catalog(game_id, lang) if k not in SECTIONS and k not in english)
    assert not stale, f"{game_id}.{lang}.json has kinds the game does not declare: {stale}"


@pytest.mark.parametrize("game_id", GAMES)
def test_english_catalog_is_the_engines_text(game_id: str) -> None:
    cat = catalog(game_id, "en")
    assert {k: v for k, v in cat.items() if k not in SECTIONS} == declared(game_id)


@pytest.mark.parametrize("lang", ("nl", "it"))
@pytest.mark.parametrize("game_id", GAMES)
def test_every_language_translates_the_same_terms(game_id: str, lang: str) -> None:
    english = catalog(game_id, "en")["terms"]
    terms = catalog(game_id, lang)["terms"]
    assert sorted(terms) == sorted(english)
    assert all(isinstance(v, str) and v.strip() for v in terms.values())


def lobby_keys(game_id: str) -> list[str]:
    """The lobby texts a game needs: the players option is the page's own."""
    keys = ["title", "description"]
    for option in type(necropolis.load_game(game_id)).declared_options():
        if option.name != "players":
            keys += [f"option.{option.name}", f"option.{option.name}.help"]
    return sorted(keys)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game_id", GAMES)
def test_every_language_has_the_lobby_texts(game_id: str, lang: str) -> None:
    lobby = catalog(game_id, lang).get("lobby", {})
    assert sorted(lobby) == lobby_keys(game_id)
    assert all(isinstance(v, str) and v.strip() for v in lobby.values())
    assert all("{" not in v for v in lobby.values()), "lobby texts take no parameters"


@pytest.mark.parametrize("game_id", GAMES)
def test_english_lobby_is_the_games_own_title_and_description(game_id: str) -> None:
    game = type(necropolis.load_game(game_id))
    lobby = catalog(game_id, "en")["lobby"]
    assert (lobby["title"], lobby["description"]) == (game.title, game.description)


@pytest.mark.parametrize("lang", ("nl", "it"))
@pytest.mark.parametrize("game_id", GAMES)
def test_descriptions_are_translated(game_id: str, lang: str) -> None:
    english = catalog(game_id, "en")["lobby"]
    lobby = catalog(game_id, lang)["lobby"]
    assert lobby["description"] != english["description"]
    helps = [k for k in english if k.endswith(".help")]
    assert all(lobby[k] != english[k] for k in helps)


def test_plural_forms_are_well_formed() -> None:
    # "{n|one|other}" needs exactly two forms; a stray "|" would silently print raw text.
    for game_id in GAMES:
        for lang in LANGUAGES:
            for kind, template in catalog(game_id, lang).items():
                if kind in SECTIONS:
                    continue
                depth = 0
                for ch in template:
                    depth += {"{": 1, "}": -1}.get(ch, 0)
                    assert 0 <= depth <= 1, f"{game_id}.{lang} {kind}: unbalanced braces"
                assert depth == 0, f"{game_id}.{lang} {kind}: unbalanced braces"


@pytest.mark.parametrize("game_id", GAMES)
def test_italian_seats_stand_as_labels(game_id: str) -> None:
    # Italian conjugates for "tu" and for "Giocatore 2" differently and one template serves
    # both, so a seat is never a verb's subject or object: it opens the sentence before a
    # colon, or follows a colon, an opening bracket or a guillemet ("{seat}: pescata una carta",
    # "vittima: {victim_seat}").
    label = re.compile(r"(^\{[a-z_]*seat\}:)|((: |\(|«)\{[a-z_]*seat\})")
    wrong = []
    for kind, template in catalog(game_id, "it").items():
        if kind in SECTIONS:
            continue
        for m in re.finditer(r"\{[a-z_]*seat\}", template):
            around = template[max(0, m.start() - 2) : m.end() + 1]
            if not label.search(around if m.start() >= 2 else template[: m.end() + 1]):
                wrong.append((kind, template))
    assert not wrong
