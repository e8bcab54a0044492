/**
 * The games' catalogs from the page's side: every language has a template for every kind
 * the English catalog lists (which tests/web/test_catalogs.py ties to the engine's own
 * kinds), with exactly the English parameters, the same terms and the same lobby texts;
 * and the words the boards ask for exist as terms in every language.
 */
import { describe, expect, test } from "vitest";
import { loadEveryText, say, type Lang } from "../lib/i18n.svelte";
import { templateFields } from "../lib/template";

// The page fetches a game's texts when it shows the game: `say` reads them once here.
await loadEveryText();

type Catalog = Record<string, unknown> & { terms: Record<string, string>; lobby: Record<string, string> };
const files = import.meta.glob<Catalog>("../i18n/games/*.json", { eager: true, import: "default" });
const BOARDS = import.meta.glob<string>("./*Board.svelte", { eager: true, query: "?raw", import: "default" });

function catalog(game: string, lang: string): Catalog {
  const c = files[`../i18n/games/${game}.${lang}.json`];
  expect(c, `${game}.${lang}.json`).toBeTruthy();
  return c;
}
const sorted = (s: Set<string>) => [...s].sort();
const GAMES = { luxor2001: "Luxor2001Board", luxor: "LuxorBoard", horus: "HorusBoard" } as const;
/** A catalog's keys that are not message kinds: its terms and how it writes numbered places. */
const NOT_KINDS = new Set(["terms", "number_terms", "lobby"]);

describe("game catalogs", () => {
  for (const game of Object.keys(GAMES)) {
    const en = catalog(game, "en");
    const kinds = Object.keys(en).filter((k) => !NOT_KINDS.has(k));
    for (const lang of ["nl", "it"]) {
      test(`${game}.${lang}: every kind, with the English parameters`, () => {
        const cat = catalog(game, lang);
        expect(Object.keys(cat).filter((k) => !NOT_KINDS.has(k)).sort()).toEqual([...kinds].sort());
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

describe("luxor's places", () => {
  // The engine sends a place as a path index (0 the stairs, 42 the burial chamber); the page
  // writes it as the terminal does, in the reader's language, never as a bare number.
  const reader = { game: "luxor", viewer: 0 };
  const moved = (origin: number, field: number, lang: Lang) =>
    say({ kind: "moved", seat: 1, params: { origin, steps: 2, field } }, reader, lang);
  test("in English, as the server's own text", () => {
    expect(moved(0, 3, "en")).toBe("Player 2 moved an adventurer 2 tiles from the stairs to field 3");
    expect(moved(40, 42, "en")).toBe("Player 2 moved an adventurer 2 tiles from field 40 to the burial chamber");
    expect(say({ kind: "move_from", params: { origin: 0 } }, reader, "en")).toBe("Move an adventurer from the stairs");
  });
  test("in Dutch", () => {
    expect(moved(0, 3, "nl")).toBe("Speler 2 zette een avonturier 2 tegels van de trap naar veld 3");
    expect(moved(40, 42, "nl")).toBe("Speler 2 zette een avonturier 2 tegels van veld 40 naar de grafkamer");
    expect(say({ kind: "move_from", params: { origin: 0 } }, reader, "nl")).toBe("Verzet een avonturier vanaf de trap");
  });
  test("in Italian", () => {
    expect(moved(0, 3, "it")).toBe("Giocatore 2: un avventuriero avanza dalla scala di 2 caselle fino alla casella 3");
    expect(moved(40, 42, "it")).toBe("Giocatore 2: un avventuriero avanza dalla casella 40 di 2 caselle fino alla camera sepolcrale");
    expect(say({ kind: "osiris_push", params: { landing: 9, field: 12 } }, reader, "it")).toBe(
      "La tessera Osiride sulla casella 9 ha portato l'avventuriero fino alla casella 12",
    );
  });
  test("other numbers stay digits", () => {
    expect(say({ kind: "die_rolled", seat: 0, params: { roll: 3 } }, reader, "en")).toBe("You rolled 3");
  });
});
