"""Every page and panel of the web table in Dutch and in Italian, with no English left.

A person whose browser speaks Dutch (then Italian) walks the whole page in a real headless
Chromium: the lobby with each game's description and rules, the setup form with every
option's help and a refused set-up, a table of each game with its rules panel, prompt,
board and log while they play, a hot seat's hand-over, a match played to its summary, the
replay, the lobby's list of tables, and the texts of a table that does not exist, a link
without its key and a key that is wrong. At every stop the visible text (and the tooltips,
labels and the tab's title) is searched for the English catalogs' words: each English text
whose translation differs, cut at its parameters into the phrases that are written out.
An English phrase that is also a word of the language itself (``Horus``, ``ibis``, ``in``)
is not a leftover, nor is a text the language's catalog writes in full.
"""

from __future__ import annotations

import json
import random
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from necropolis import load_game
from tests.clients import Server
from tests.web.people import (
    VIEWPORT,
    WAIT,
    confirm_hand_over,
    create_table,
    finished,
    my_turn,
    new_person,
    page_errors,
    take_turn,
    wait_for_turn_or_end,
)

I18N = Path(__file__).resolve().parents[2] / "web" / "src" / "i18n"
GAMES = ("horus", "luxor", "luxor2001")
#: Seats of the tables played by a person: theirs and bots'.
PLAYED = {
    "horus": ["me", "bot:easy", "bot:easy"],
    "luxor": ["me", "bot:easy"],
    "luxor2001": ["me", "bot:easy"],
}
#: A help text that names the animals as the option must be typed: in English, on purpose.
ENGLISH_ON_PURPOSE = {("luxor2001", "option.pillar_order.help")}
PARAMETER = re.compile(r"\{[^{}]*\}")
WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")


def _json(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _texts(catalog: dict[str, Any]) -> dict[str, str]:
    """A catalog's texts by key: the page's keys, a game's kinds, ``term.<id>``, ``lobby.<key>``."""
    out: dict[str, str] = {}
    for key, value in catalog.items():
        if isinstance(value, str):
            out[key] = value
        elif key in ("terms", "lobby") and isinstance(value, dict):
            out.update({f"{key}.{k}": v for k, v in value.items() if isinstance(v, str)})
    return out


def catalogs(lang: str) -> dict[str, dict[str, str]]:
    """Every catalog of the page in ``lang``, by name ("page", or the game's id)."""
    out = {"page": _texts(_json(I18N / f"{lang}.json"))}
    for game in GAMES:
        out[game] = _texts(_json(I18N / "games" / f"{game}.{lang}.json"))
    return out


def phrases(template: str) -> list[str]:
    """The written-out phrases of a template: the text between its parameters, and the
    words of its plural forms ("{n|# action|# actions}" gives "action", "actions")."""
    out: list[str] = []
    for m in PARAMETER.finditer(template):
        for form in m.group(0)[1:-1].split("|")[1:]:
            out.append(form.replace("#", " "))
    out += PARAMETER.split(template)
    cleaned = []
    for p in out:
        p = p.strip(" \t\n.,:;!?()[]«»‘’'\"—–-·|/…")
        if sum(c.isalpha() for c in p) >= 3:
            cleaned.append(p)
    return cleaned


class Leftovers:
    """The English phrases to look for on a page in ``lang``, and what was found."""

    def __init__(self, lang: str) -> None:
        english, own = catalogs("en"), catalogs(lang)
        # Words of the language itself: a phrase made of them only is not English.
        vocabulary: set[str] = set()
        self.own_texts: list[str] = []
        for name, texts in own.items():
            for key, value in texts.items():
                if (name, key.removeprefix("lobby.")) in ENGLISH_ON_PURPOSE:
                    self.own_texts.append(value)
                    continue
                # The words it writes: its text and plural forms, not parameters' names.
                written = PARAMETER.sub(lambda m: " ".join(m.group(0)[1:-1].split("|")[1:]), value)
                vocabulary |= {w.lower() for w in WORD.findall(written)}
                if not PARAMETER.search(value):
                    self.own_texts.append(value)
        self.look_for: dict[str, str] = {}
        for name, texts in english.items():
            for key, value in texts.items():
                if own[name].get(key) == value:
                    continue
                for phrase in phrases(value):
                    words = [w.lower() for w in WORD.findall(phrase)]
                    if words and all(w in vocabulary for w in words):
                        continue
                    self.look_for.setdefault(phrase, f"{name}:{key}")
        self.own_texts.sort(key=len, reverse=True)
        self.patterns = [
            (re.compile(r"(?<![\w])" + re.escape(p) + r"(?![\w])"), p, where)
            for p, where in self.look_for.items()
        ]
        self.found: dict[str, str] = {}

    def check(self, text: str, stop: str) -> None:
        for own in self.own_texts:
            if len(own) > 12:
                text = text.replace(own, " ")
        for pattern, phrase, where in self.patterns:
            m = pattern.search(text)
            if m:
                around = text[max(0, m.start() - 40) : m.end() + 40].replace("\n", " ⏎ ")
                self.found.setdefault(f"{phrase!r} ({where})", f"{stop}: …{around}…")


SEEN = """(skip) => {
    const parts = [document.title];
    const body = document.body.cloneNode(true);
    // A luxor rules section explains the terminal's (English) board codes: not the page's.
    if (skip) for (const h of body.querySelectorAll('dialog.rules h3')) {
        if (h.textContent.trim() !== skip) continue;
        let n = h.nextElementSibling;
        while (n && n.tagName !== 'H3') { const next = n.nextElementSibling; n.remove(); n = next; }
        h.remove();
    }
    document.body.append(body);
    body.style.position = 'absolute';
    parts.push(body.innerText);
    body.remove();
    for (const el of document.querySelectorAll('[title],[aria-label],[placeholder],[alt]'))
        for (const a of ['title', 'aria-label', 'placeholder', 'alt']) {
            const v = el.getAttribute(a);
            if (v) parts.push(v);
        }
    for (const t of document.querySelectorAll('svg title')) parts.push(t.textContent);
    return parts.join('\\n');
}"""


def terminal_heading(lang: str) -> str:
    """The heading of luxor's section on the terminal's board in ``lang``'s rules."""
    text = load_game("luxor").rules_summary(lang)
    english = load_game("luxor").rules_summary("en")
    index = re.findall(r"^## (.*)$", english, re.M).index("Reading the terminal board")
    return str(re.findall(r"^## (.*)$", text, re.M)[index])


def look(page: Page, leftovers: Leftovers, stop: str, skip: str = "") -> None:
    page.wait_for_timeout(150)
    leftovers.check(page.evaluate(SEEN, skip), stop)


def rules_panel(page: Page, leftovers: Leftovers, stop: str, lang: str, game: str) -> None:
    """Open the rules from the button on the page, read them in ``lang``, close them."""
    page.get_by_role("button", name=_json(I18N / f"{lang}.json")["lobby.rules"]).click()
    dialog = page.locator("dialog.rules")
    expect(dialog).to_be_visible()
    # The panel shows the document in the page's language, not the English one.
    headings = re.findall(r"^## (.*)$", load_game(game).rules_summary(lang), re.M)
    expect(dialog.locator("h3").first).to_have_text(headings[0])
    look(page, leftovers, f"{stop} rules", terminal_heading(lang) if game == "luxor" else "")
    dialog.get_by_role("button").first.click()
    expect(dialog).to_be_hidden()


def finished_over_http(server: Server, table_id: str, token: str) -> bool:
    request = urllib.request.Request(
        f"{server.url}/api/tables/{table_id}", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return bool(json.load(answer)["status"] == "finished")


def play(page: Page, leftovers: Leftovers, stop: str, decisions: int, seed: int) -> None:
    """Make ``decisions`` decisions (or play to the end), reading the page after each."""
    rng = random.Random(seed)
    for n in range(decisions):
        acting = wait_for_turn_or_end([page])
        if acting is None:
            return
        if my_turn(page):
            take_turn(page, rng)
        look(page, leftovers, f"{stop} decision {n}")


@pytest.mark.parametrize("lang", ["nl", "it"])
def test_every_page_and_panel_speaks_the_language(
    browser: Browser, server: Server, shots: Path, lang: str
) -> None:
    leftovers = Leftovers(lang)
    page_texts = _json(I18N / f"{lang}.json")
    ctx = browser.new_context(viewport=VIEWPORT, locale=lang)
    stranger = browser.new_context(viewport=VIEWPORT, locale=lang)
    try:
        page = new_person(ctx)
        # The lobby: every description opened, every game's rules.
        page.goto(server.url + "/")
        page.wait_for_selector("[data-game]")
        for more in page.locator("button.more").all():
            more.click()
        look(page, leftovers, "lobby")
        for game in GAMES:
            card = page.locator(f"[data-game={game}]")
            card.get_by_role("button", name=page_texts["lobby.rules"]).click()
            expect(page.locator("dialog.rules h3").first).to_be_visible()
            skip = terminal_heading(lang) if game == "luxor" else ""
            look(page, leftovers, f"lobby {game} rules", skip)
            page.keyboard.press("Escape")
            # The setup form: the options and their help, the seats.
            page.get_by_test_id(f"choose-{game}").click()
            expect(page.locator("#setup")).to_be_visible()
            for i in range(2):
                page.get_by_test_id(f"seat-type-{i}").select_option("bot")
            look(page, leftovers, f"{game} setup")
        # A set-up the server refuses: a pillar order that is no order.
        page.get_by_test_id("choose-luxor2001").click()
        page.get_by_test_id("more-options").locator("summary").click()
        page.locator("#opt-pillar_order").fill("camel, camel")
        page.get_by_test_id("create").click()
        expect(page.locator("#setup .error")).to_be_visible()
        look(page, leftovers, "refused setup")
        page.screenshot(path=str(shots / f"languages-{lang}-refused-setup.png"))

        # A table of each game, played a little, with its rules panel.
        for game in GAMES:
            create_table(page, server.url, game, PLAYED[game])
            look(page, leftovers, f"{game} table")
            rules_panel(page, leftovers, f"{game} table", lang, game)
            play(page, leftovers, f"{game} table", 12, seed=len(game))
            page.screenshot(path=str(shots / f"languages-{lang}-{game}.png"))

        # A table with a friend's seat: the links to send, then the seat handed to a bot.
        page.goto(server.url + "/")
        page.get_by_test_id("choose-luxor2001").click()
        page.get_by_test_id("seat-type-1").select_option("link")
        page.get_by_test_id("create").click()
        expect(page.get_by_test_id("invite-1")).to_be_visible()
        look(page, leftovers, "links to send")
        page.get_by_test_id("open-table").click()
        page.wait_for_selector("main.table")
        page.locator(".tobot summary").click()
        look(page, leftovers, "absent friend")
        page.get_by_test_id("tobot-1").click()
        expect(page.locator("[data-testid=panel-1] .tobot")).to_have_count(0)
        look(page, leftovers, "friend's seat given to a bot")

        # A hot seat hands the device over.
        create_table(page, server.url, "luxor", ["hotseat", "hotseat"])
        look(page, leftovers, "hot seat")
        assert confirm_hand_over(page)
        look(page, leftovers, "hot seat, ready")

        # luxor2001 played to its end by a person: the summary and the replay.
        made = create_table(page, server.url, "luxor2001", ["me", "bot:easy"])
        play(page, leftovers, "luxor2001 match", 400, seed=3)
        assert finished(page), "the match ended"
        expect(page.locator(".summary")).to_be_visible()
        look(page, leftovers, "luxor2001 summary")
        page.screenshot(path=str(shots / f"languages-{lang}-summary.png"), full_page=True)
        expect(page.get_by_test_id("play-again")).to_be_visible()
        look(page, leftovers, "play again")
        page.get_by_test_id("replay").click()
        page.wait_for_selector("main.replay")
        for n in range(6):
            look(page, leftovers, f"replay step {n}")
            page.get_by_test_id("forward").click()
        page.get_by_role("button", name=page_texts["replay.last"]).click()
        look(page, leftovers, "replay, last step")
        page.get_by_test_id("replay-seat").select_option("1")
        look(page, leftovers, "replay, seen by the bot")
        page.screenshot(path=str(shots / f"languages-{lang}-replay.png"))

        # horus and luxor played by bots to the end, then watched: their summaries.
        for game, seats in (("horus", 2), ("luxor", 2)):
            watched = create_table(page, server.url, game, ["bot:easy"] * seats)
            token = watched.table_url.split("#", 1)[1]
            page.wait_for_function(
                "() => !!document.querySelector('main.table.finished')", timeout=WAIT * 5
            )
            assert finished_over_http(server, watched.table_id, token)
            expect(page.locator(".summary")).to_be_visible()
            look(page, leftovers, f"{game} summary")
            page.screenshot(path=str(shots / f"languages-{lang}-{game}-summary.png"))

        # The lobby's list of this person's tables, in play and finished.
        page.goto(server.url + "/")
        expect(page.locator("section.mine li").first).to_be_visible()
        look(page, leftovers, "my tables")

        assert page_errors(page) == []
        # Texts of tables that cannot be shown, to someone who holds none of their links.
        page = new_person(stranger)
        page.goto(f"{server.url}/t/no-such-table#not-a-key")
        expect(page.locator("main.problem .error")).to_be_visible()
        look(page, leftovers, "no such table")
        page.goto(f"{server.url}/t/{made.table_id}")
        expect(page.locator("main.problem .error")).to_be_visible()
        look(page, leftovers, "no key")
        page.goto(f"{server.url}/t/{made.table_id}#{'x' * 40}")
        expect(page.locator("main.problem .error")).to_be_visible()
        look(page, leftovers, "wrong key")
        page.goto(f"{server.url}/t/no-such-table?replay#not-a-key")
        expect(page.locator("main.replay .error, .error").first).to_be_visible()
        look(page, leftovers, "replay of no table")
        assert page_errors(page) == []
    finally:
        ctx.close()
        stranger.close()
    assert not leftovers.found, "English on the page:\n" + "\n".join(
        f"{k}: {v}" for k, v in sorted(leftovers.found.items())
    )


def _filled(template: str) -> str:
    """A template as a page might write it: numbers for parameters, plural forms chosen."""

    def one(m: re.Match[str]) -> str:
        forms = m.group(0)[1:-1].split("|")[1:]
        return forms[-1].replace("#", "2") if forms else "7"

    return PARAMETER.sub(one, template)


@pytest.mark.parametrize("lang", ["nl", "it"])
def test_the_search_finds_each_english_text_and_nothing_of_the_language(lang: str) -> None:
    # The search must not be blind (every English text with a phrase to look for is found
    # when shown) nor see English in the language's own texts, whichever they are.
    leftovers = Leftovers(lang)
    english, own = catalogs("en"), catalogs(lang)
    looked = 0
    for name, texts in english.items():
        for key, value in texts.items():
            if own[name].get(key) == value or not any(
                p in leftovers.look_for for p in phrases(value)
            ):
                continue
            looked += 1
            leftovers.check(_filled(value), f"{name}:{key}")
            assert leftovers.found, f"{name}:{key} {value!r} not found"
            leftovers.found.clear()
    assert looked > 300
    for name, texts in own.items():
        for key, value in texts.items():
            leftovers.check(_filled(value), f"{lang} {name}:{key}")
    assert not leftovers.found, leftovers.found
