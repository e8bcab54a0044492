/**
 * The games' catalogs from the page's side: every language has a template for every kind
 * the English catalog lists (which tests/web/test_catalogs.py ties to the engine's own
 * kinds), with exactly the English parameters, the same terms and the same lobby texts;
 * and the words the boards ask for exist as terms in every language.
 */
import { describe, expect, test } from "vitest";
import { templateFields } from "../lib/template";

type Catalog = Record<string, unknown> & { terms: Record<string, string>; lobby: Record<string, string> };
/** The sections of a catalog that are not message kinds. */
const SECTIONS = ["terms", "lobby"];
const files = import.meta.glob<Catalog>("../i18n/games/*.json", { eager: true, import: "default" });
const BOARDS = import.meta.glob<string>("./*Board.svelte", { eager: true, query: "?raw", import: "default" });

function catalog(game: string, lang: string): Catalog {
  const c = files[`../i18n/games/${game}.${lang}.json`];
  expect(c, `${game}.${lang}.json`).toBeTruthy();
  return c;
}
const sorted = (s: Set<string>) => [...s].sort();
const GAMES = { luxor2001: "Luxor2001Board", luxor: "LuxorBoard", horus: "HorusBoard" } as const;

describe("game catalogs", () => {
  for (const game of Object.keys(GAMES)) {
    const en = catalog(game, "en");
    const kinds = Object.keys(en).filter((k) => !SECTIONS.includes(k));
    for (const lang of ["nl", "it"]) {
      test(`${game}.${lang}: every kind, with the English parameters`, () => {
        const cat = catalog(game, lang);
        expect(Object.keys(cat).filter((k) => !SECTIONS.includes(k)).sort()).toEqual([...kinds].sort());
        for (const kind of kinds) {
          const mine = cat[kind];
          expect(typeof mine, `${lang} ${kind}`).toBe("string");
          expect(sorted(templateFields(mine as string)), `${lang} ${kind}`).toEqual(sorted(templateFields(en[kind] as string)));
        }
      });
      test(`${game}.${lang}: the same terms as English`, () => {
        expect(Object.keys(catalog(game, lang).terms).sort()).toEqual(Object.keys(en.terms).sort());
      });
      test(`${game}.${lang}: the same lobby texts as English`, () => {
        const lobby = catalog(game, lang).lobby;
        expect(Object.keys(lobby).sort()).toEqual(Object.keys(en.lobby).sort());
        for (const v of Object.values(lobby)) expect(typeof v === "string" && v.trim() !== "").toBe(true);
      });
    }
  }

  test("every fixed word a board looks up is a term of its game", () => {
    for (const [game, board] of Object.entries(GAMES)) {
      const source = BOARDS[`./${board}.svelte`];
      const asked = new Set([...source.matchAll(/term\(t, "([^"]+)"\)/g)].map((m) => m[1]));
      expect(asked.size, board).toBeGreaterThan(3);
      const terms = catalog(game, "en").terms;
      expect([...asked].filter((id) => !(id in terms)), board).toEqual([]);
    }
  });
});
