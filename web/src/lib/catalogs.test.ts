import { describe, expect, it } from "vitest";
import { GAME_CATALOGS, givenName, LANGUAGES, loadEveryText, lobbyText, PAGE_CATALOGS, say, translator } from "./i18n.svelte";
import { templateFields } from "./template";
import { LEVELS } from "./protocol";

// The game catalogs come to a page one by one as it needs them: here, all of them first.
await loadEveryText();

// The page's own sources and the game catalog files, read as text by Vite.
const SOURCES = import.meta.glob(["../**/*.ts", "../**/*.svelte", "!../**/*.test.ts"], { query: "?raw", import: "default", eager: true }) as Record<string, string>;
const GAME_FILES = import.meta.glob("../i18n/games/*.json", { query: "?raw", import: "default", eager: true }) as Record<string, string>;

describe("page catalogs", () => {
  const en = PAGE_CATALOGS.en;
  for (const lang of LANGUAGES) {
    it(`${lang} has every key of English and no other, with the same parameters`, () => {
      const cat = PAGE_CATALOGS[lang];
      expect(Object.keys(cat).sort()).toEqual(Object.keys(en).sort());
      for (const [key, template] of Object.entries(en)) {
        expect([...templateFields(cat[key])].sort(), `${lang} ${key}`).toEqual([...templateFields(template)].sort());
        expect(cat[key].trim(), `${lang} ${key}`).not.toBe("");
      }
    });
  }

  it("has every key the page's code asks for", () => {
    const used = new Set<string>();
    for (const text of Object.values(SOURCES)) {
      for (const m of text.matchAll(/pageText\("([a-z_.]+)"/g)) used.add(m[1]);
    }
    expect(used.size).toBeGreaterThan(50);
    const missing = [...used].filter((k) => !(k in en));
    expect(missing).toEqual([]);
  });

  it("names every level, seat type, status, refusal and error code the protocol has", () => {
    const needed = [
      ...LEVELS.map((l) => `level.${l}`),
      ...["me", "link", "hotseat", "bot"].map((t) => `seat.type.${t}`),
      ...["playing", "finished"].map((s) => `status.${s}`),
      ...["stale_version", "not_your_turn", "illegal_action", "malformed", "too_large", "rate_limited", "seat_taken_by_bot", "finished"].map((c) => `refused.${c}`),
      ...["bad_token", "no_such_table", "hello_expected", "too_large", "too_many_connections", "link_replaced", "protocol"].map((c) => `error.${c}`),
      ...["action", "chance", "choose_action", "wait_for", "do", "score"].map((k) => `kernel.${k}`),
    ];
    expect(needed.filter((k) => !(k in en))).toEqual([]);
  });
});

describe("game catalogs", () => {
  it("are named <game>.<language>.json in a language the page speaks, and hold JSON objects", () => {
    for (const [path, text] of Object.entries(GAME_FILES)) {
      const name = path.slice(path.lastIndexOf("/") + 1);
      expect(name).toMatch(/^[a-z0-9_]+\.(en|nl|it)\.json$/);
      const data = JSON.parse(text);
      expect(typeof data === "object" && data !== null && !Array.isArray(data), name).toBe(true);
    }
  });
  for (const [game, byLang] of Object.entries(GAME_CATALOGS)) {
    const en = byLang.en;
    if (!en) continue;
    for (const lang of LANGUAGES) {
      it(`${game}.${lang} has every key of ${game}.en with the same parameters`, () => {
        const cat = byLang[lang];
        expect(cat, `${game}.${lang}.json is missing`).toBeDefined();
        const strings = (c: Record<string, unknown>) => Object.entries(c).filter(([, v]) => typeof v === "string") as [string, string][];
        expect(strings(cat!).map(([k]) => k).sort()).toEqual(strings(en).map(([k]) => k).sort());
        for (const [key, template] of strings(en)) {
          expect([...templateFields(cat![key] as string)].sort(), `${game}.${lang} ${key}`).toEqual([...templateFields(template)].sort());
        }
      });
    }
  }
});

describe("say", () => {
  const reader = { game: "nogame", viewer: 1, names: ["Ann", null, "Bo"], english: { took: "{seat} took {count|# scarab|# scarabs}" } };
  it("writes a kernel kind in the chosen language, seats as you or their names", () => {
    expect(say({ kind: "wait_for", params: { acting_seat: 0 } }, reader, "nl")).toBe("Wachten op Ann");
    expect(say({ kind: "wait_for", params: { acting_seat: 1 } }, reader, "it")).toBe("In attesa di tu");
    expect(say({ kind: "choose_action", params: {} }, reader, "en")).toBe("Choose your move");
  });
  it("renders a game kind from the server's English when no catalog has it, names included", () => {
    expect(say({ kind: "took", params: { seat: 2, count: 3 }, text: "Player 3 took 3 scarabs" }, reader, "en")).toBe("Bo took 3 scarabs");
  });
  it("takes a log entry's acting seat as its {seat}", () => {
    expect(say({ kind: "took", seat: 0, params: { count: 1 } }, reader, "en")).toBe("Ann took 1 scarab");
  });
  it("takes a seat without a name (null from the server) as no name", () => {
    expect(givenName(null)).toBeNull();
    expect(givenName(" ")).toBeNull();
    expect(givenName("Ann")).toBe("\u2068Ann\u2069");
  });
  it("writes a seat without a name in the reader's language", () => {
    const unnamed = { ...reader, viewer: null, names: [null, null] };
    expect(say({ kind: "wait_for", params: { acting_seat: 1 } }, unnamed, "nl")).toBe("Wachten op Speler 2");
    expect(say({ kind: "wait_for", params: { acting_seat: 1 } }, unnamed, "it")).toBe("In attesa di Giocatore 2");
  });
  it("calls the reader's own seat you when it views another's (a replay)", () => {
    const replaying = { ...reader, viewer: 2, you: 0 };
    expect(say({ kind: "took", seat: 2, params: { count: 1 } }, replaying, "en")).toBe("Bo took 1 scarab");
    expect(say({ kind: "wait_for", params: { acting_seat: 0 } }, replaying, "en")).toBe("Waiting for you");
    // A spectator's link plays no seat: nobody is you, whichever view it shows.
    const watching = { ...reader, viewer: 1, you: null, names: ["Ann", "Cy", "Bo"] };
    expect(say({ kind: "wait_for", params: { acting_seat: 1 } }, watching, "en")).toBe("Waiting for Cy");
  });
  it("falls back to the server's English text in another language", () => {
    expect(say({ kind: "took", params: { seat: 2, count: 3 }, text: "Player 3 took 3 scarabs" }, reader, "nl")).toBe("Player 3 took 3 scarabs");
  });
  it("gives a board translator that falls back to the page, then the key's id", () => {
    const t = translator(reader);
    expect(t("seat.player", { n: 4 })).toMatch(/4/);
    expect(t("term.crocodile")).toBe("crocodile");
  });
});

describe("lobbyText", () => {
  it("gives a game's description and option texts in the chosen language", () => {
    const english = lobbyText("luxor2001", "description", "server", "en");
    expect(english).not.toBe("server");
    for (const lang of ["nl", "it"] as const) {
      expect(lobbyText("luxor2001", "description", "server", lang)).not.toBe(english);
      expect(lobbyText("luxor2001", "option.curse.help", "server", lang)).not.toBe(lobbyText("luxor2001", "option.curse.help", "server", "en"));
    }
  });
  it("falls back to the server's English for a game or text no catalog has", () => {
    expect(lobbyText("nogame", "description", "server", "nl")).toBe("server");
    expect(lobbyText("luxor2001", "option.nothing", "server", "it")).toBe("server");
  });
});
