"""The web table's game catalogs agree with the games' table language.

Every message kind a game declares (``Game.messages``) and every kernel kind has a
template in English, Dutch and Italian (``web/src/i18n/games/<game>.<lang>.json``) that
uses exactly the parameters of the engine's English template, so that no sentence of any
language loses or invents a parameter; the English catalog is the engine's text itself;
no catalog keeps a kind the game no longer has; every language translates the same
terms; every language has the lobby's texts of each game (``lobby``: its title and
description, and a label and a help line for each of its options); and the English page,
writing a real match's texts from its catalog the way ``web/src/lib`` does (terms for ids,
``number_terms`` for numbered places), writes what the server and the terminal write.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

import necropolis
from necropolis.engine.language import KERNEL_MESSAGES, render, template_fields
from necropolis.engine.protocol import sample_chance

CATALOGS = Path(__file__).resolve().parents[2] / "web" / "src" / "i18n" / "games"
GAMES = ("luxor2001", "luxor", "horus")
LANGUAGES = ("en", "nl", "it")
#: A catalog's keys that are not message kinds.
NOT_KINDS = frozenset({"terms", "number_terms", "lobby"})


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
    stale = sorted(k for k in catalog(game_id, lang) if k not in NOT_KINDS and k not in english)
    assert not stale, f"{game_id}.{lang}.json has kinds the game does not declare: {stale}"


@pytest.mark.parametrize("game_id", GAMES)
def test_english_catalog_is_the_engines_text(game_id: str) -> None:
    cat = catalog(game_id, "en")
    assert {k: v for k, v in cat.items() if k not in NOT_KINDS} == declared(game_id)


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
                if kind in NOT_KINDS:
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
        if kind in NOT_KINDS:
            continue
        for m in re.finditer(r"\{[a-z_]*seat\}", template):
            around = template[max(0, m.start() - 2) : m.end() + 1]
            if not label.search(around if m.start() >= 2 else template[: m.end() + 1]):
                wrong.append((kind, template))
    assert not wrong


@pytest.mark.parametrize("game_id", GAMES)
def test_numbered_places_are_the_same_in_every_language(game_id: str) -> None:
    # number_terms names, per parameter, the family of terms that writes its numbers: every
    # language uses the same families, and each family has its "#" form.
    families = catalog(game_id, "en").get("number_terms", {})
    for lang in LANGUAGES:
        cat = catalog(game_id, lang)
        assert cat.get("number_terms", {}) == families, f"{game_id}.{lang}"
        for family in set(families.values()):
            assert "#" in cat["terms"][family], f"{game_id}.{lang} {family}"


def page_text(cat: dict[str, Any], kind: str, params: dict[str, Any], viewer: int | None) -> str:
    """What web/src/lib/i18n.svelte.ts writes for a text in ``cat``'s language: string ids
    as terms, whole numbers of a ``number_terms`` parameter as that family's place."""
    terms: dict[str, str] = cat["terms"]
    families: dict[str, str] = cat.get("number_terms", {})
    words: dict[str, Any] = {}
    for name, value in params.items():
        family = families.get(name)
        if family is not None and isinstance(value, int) and not isinstance(value, bool):
            words[name] = terms.get(f"{family}.{value}") or terms[family].replace("#", str(value))
        elif isinstance(value, str) and not (name == "seat" or name.endswith("_seat")):
            words[name] = terms.get(value, value)
        else:
            words[name] = value
    template = cat.get(kind) or KERNEL_MESSAGES[kind]
    return render(template, words, viewer)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_english_page_writes_what_the_server_writes(game_id: str) -> None:
    # Every log entry, prompt and descriptor of a seeded random match, as the page renders
    # it from the English catalog, is the engine's own English text (luxor's places
    # included: "the stairs", "field 12", "the burial chamber", not a bare index).
    cat = catalog(game_id, "en")
    rng = random.Random(7)
    state = necropolis.load_game(game_id).new_initial_state()
    seen: set[str] = set()
    while not state.is_terminal() and len(state.history()) < 400:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        seat = state.current_player()
        if seat < 0:
            seat = state.acting_seats()[0]
        said = [state.prompt(seat)] + [state.action_info(a) for a in state.legal_actions(seat)]
        for text in said:
            if text is not None:
                seen.add(text["kind"])
                assert page_text(cat, text["kind"], text["params"], seat) == text["text"]
        state.apply_action(rng.choice(state.legal_actions(seat)))
    for entry in state.log(0):
        seen.add(entry["kind"])
        params = {"seat": entry["seat"], **entry["params"]}
        assert page_text(cat, entry["kind"], params, 0) == entry["text"]
    assert len(seen) > 10


# --- the rules panel ---------------------------------------------------------------------------


def rules_document(game_id: str, lang: str) -> str | None:
    """The rules summary a game ships in ``lang`` (``rules.<lang>.md``), None when not written."""
    from importlib import resources

    page = resources.files(f"necropolis.games.{game_id}") / f"rules.{lang}.md"
    return page.read_text(encoding="utf-8") if page.is_file() else None


def outline(markdown: str) -> list[tuple[str, list[str]]]:
    """A rules document's shape: each heading's level with, under it, one entry per block
    (a paragraph, or a list with its number of items), so that a translation that drops a
    section, a paragraph or a list item differs from the English one."""
    sections: list[tuple[str, list[str]]] = []
    for block in re.split(r"\n\s*\n", markdown.strip()):
        lines = block.splitlines()
        heading = re.match(r"(#+) ", lines[0])
        if heading:
            sections.append((heading.group(1), []))
            lines = lines[1:]
            if not lines:
                continue
        items = sum(1 for line in lines if re.match(r"(- |\d+\. )", line))
        if not sections:
            sections.append(("", []))
        sections[-1][1].append(f"list of {items}" if items else "paragraph")
    return sections


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_has_its_rules_in_every_language(game_id: str, lang: str) -> None:
    # The page's rules panel asks for the page's language: each game has its own document
    # in en, nl and it, laid out as the English one (the same headings, paragraphs and list
    # items in the same order), and the server hands it out as that language's.
    text = rules_document(game_id, lang)
    assert text is not None, f"{game_id} has no rules.{lang}.md"
    english = rules_document(game_id, "en")
    assert english is not None
    assert outline(text) == outline(english)
    game = necropolis.load_game(game_id)
    assert game.rules_summary(lang) == text
    if lang != "en":
        assert text != english
