"""The boards speak in pictures, seen in a real Chromium: no codes, a legend, sentences.

The vitest tests (web/src/boards/boards.test.ts) check the boards' drawing in jsdom from
fixtures; here each game's board is opened as a person opens it, halfway into a match
(the record written before the server loads it, as ``test_undo.prepare`` does), in Dutch:

- no text drawn on the board (outside its legend) is a code: one letter, three letters,
  a letter and a digit ("V2"), the old temple abbreviations;
- every kind of symbol drawn (each ``data-glyph``) has an entry in the board's legend;
- the tooltips (SVG ``title``) read as Dutch sentences: no catalog keys, no glued words
  ("PillarCamel"), nothing left empty after a colon, and the game's own phrases are there
  ("Zuil: kameel").
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web.conftest import Fresh
from tests.web.people import new_person, page_errors
from tests.web.test_layout import mid_game
from tests.web.test_undo import prepare

#: What the board draws, outside its legend: the texts written (an SVG text's own words,
#: not its tooltip; the HTML's text nodes), the kinds of glyph, the legend's glyphs and
#: the tooltips.
READ_BOARD = """() => {
  const board = document.querySelector('[data-testid=board]');
  const legend = board.querySelector('details.legend');
  const outside = (e) => !legend || !legend.contains(e);
  const texts = [];
  const walker = document.createTreeWalker(board, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const parent = n.parentElement;
    if (!outside(parent) || parent.closest('title, style, script')) continue;
    const s = n.textContent.trim();
    if (s) texts.push(s);
  }
  const glyphs = [...board.querySelectorAll('[data-glyph]')].filter(outside)
    .map(e => e.dataset.glyph);
  const legendGlyphs = legend
    ? [...legend.querySelectorAll('[data-glyph]')].map(e => e.dataset.glyph) : [];
  const titles = [...board.querySelectorAll('title')].filter(outside)
    .map(e => e.textContent.trim());
  return {texts, glyphs: [...new Set(glyphs)], legend: [...new Set(legendGlyphs)], titles};
}"""

#: A code instead of a picture: one to three capitals or a capital and up to two small
#: letters ("C", "Cam", "TUN"), a letter and a digit ("V2"), the old luxor abbreviations.
CODE = re.compile(r"^([A-Z]{1,3}|[A-Z][a-z]{1,2}\.?|[A-Z]\d|S/W|H\d/\d)$")
#: Not a sentence: a catalog key ("legend_mummy", "term.walking"), words glued together
#: ("PillarCamel"), a placeholder left over, or nothing after a colon.
NOT_A_SENTENCE = re.compile(r"\w_\w|\bterm\.|[a-z][A-Z]|[{}]|:\s*$")

#: Sentences each board's tooltips must hold in Dutch (one matching each pattern).
DUTCH: dict[str, list[str]] = {
    "horus": [
        r"^Mummie \w+: (loopt naar het (noorden|oosten|zuiden|westen)|liggend)$",
        r"^Sarcofaag van \w+: (dicht|open)",
        r"^Cobranest: vak \d+$",
    ],
    "luxor": [
        r"^Veld \d+: (Vaas|Standbeeld|Juwelen), \d punten?, \d avonturiers? nodig$",
        r"^Tempelsymbool: (cobra|valk|leeuw|scarabee|\w+)$",
    ],
    "luxor2001": [
        r"^Zuil: kameel$",
        r"^(Kameel|Muilezel|Slang|Nijlpaard|Ibis|Krokodil|Kat), kijkt naar (links|rechts)$",
        r"^Sarcofaag met \d ogen?$",
    ],
}


def read_board(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(READ_BOARD)
    return found


def codes(found: dict[str, Any]) -> list[str]:
    return [text for text in found["texts"] if CODE.match(text)]


@pytest.mark.parametrize("game", sorted(DUTCH))
def test_the_board_speaks_in_pictures_and_dutch_sentences(
    browser: Browser, fresh: Fresh, shots: Path, game: str
) -> None:
    prepared = prepare(fresh, game, mid_game(game))
    ctx = browser.new_context(viewport={"width": 1366, "height": 768}, locale="nl")
    try:
        page = new_person(ctx)
        page.goto(prepared.link(prepared.tokens[prepared.seat]))
        expect(page.locator("main[data-playing=false] [data-testid=prompt].mine")).to_be_visible()
        expect(page.locator("[data-testid=board] details.legend")).to_have_count(1)
        # the game's Dutch texts come in a file of their own: wait for the first sentence
        first = re.compile(DUTCH[game][0])
        page.wait_for_function(
            "re => [...document.querySelectorAll('[data-testid=board] title')]"
            ".some(e => new RegExp(re).test(e.textContent.trim()))",
            arg=first.pattern,
        )
        found = read_board(page)
        page.screenshot(path=str(shots / f"glyphs-{game}-nl.png"))

        assert found["texts"], "the board writes something (numbers, names)"
        assert codes(found) == [], f"{game}: codes on the board: {codes(found)}"
        assert found["glyphs"], "the board draws glyphs"
        missing = sorted(set(found["glyphs"]) - set(found["legend"]))
        assert missing == [], f"{game}: symbols without a legend entry: {missing}"
        titles = found["titles"]
        bad = sorted({t for t in titles if not t or NOT_A_SENTENCE.search(t)})
        assert bad == [], f"{game}: tooltips that are no sentence: {bad}"
        for pattern in DUTCH[game]:
            assert any(re.match(pattern, t) for t in titles), f"{game}: no tooltip {pattern}"

        # The check sees a code when there is one: one drawn on the board is found.
        page.evaluate(
            "() => { const svg = document.querySelector('[data-testid=board] svg');"
            " const t = document.createElementNS('http://www.w3.org/2000/svg', 'text');"
            " t.textContent = 'Cam'; svg.appendChild(t); }"
        )
        assert codes(read_board(page)) == ["Cam"]
        assert page_errors(page) == []
    finally:
        ctx.close()
