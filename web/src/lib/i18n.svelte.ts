/**
 * Languages: the page's own texts from `src/i18n/{en,nl,it}.json`, the games' texts (the
 * table language's kinds and the data files' terms) from `src/i18n/games/<game>.<lang>.json`,
 * and the server's English as the last fallback. The chosen language is the browser's by
 * default and remembered once switched; reading it inside a component makes the component
 * follow a switch.
 */
import en from "../i18n/en.json";
import nl from "../i18n/nl.json";
import it from "../i18n/it.json";
import { render, type Params } from "./template";

export const LANGUAGES = ["en", "nl", "it"] as const;
export type Lang = (typeof LANGUAGES)[number];
export type Catalog = Record<string, unknown>;

export const PAGE_CATALOGS: Record<Lang, Record<string, string>> = { en, nl, it };

/** Game catalogs, by game id and language, as the boards engineer writes them. */
const gameFiles = import.meta.glob("../i18n/games/*.json", { eager: true, import: "default" }) as Record<string, Catalog>;
export const GAME_CATALOGS: Record<string, Partial<Record<Lang, Catalog>>> = {};
for (const [path, catalog] of Object.entries(gameFiles)) {
  const m = /\/([a-z0-9_]+)\.([a-z]{2})\.json$/.exec(path);
  if (!m) continue;
  (GAME_CATALOGS[m[1]] ??= {})[m[2] as Lang] = catalog;
}

const STORE_KEY = "necropolis.lang";

function detect(): Lang {
  try {
    const kept = localStorage.getItem(STORE_KEY);
    if (kept && (LANGUAGES as readonly string[]).includes(kept)) return kept as Lang;
  } catch {
    /* storage may be refused; the browser's language then decides */
  }
  const wanted = typeof navigator === "undefined" ? ["en"] : (navigator.languages ?? [navigator.language]);
  for (const tag of wanted) {
    const base = tag.toLowerCase().slice(0, 2);
    if ((LANGUAGES as readonly string[]).includes(base)) return base as Lang;
  }
  return "en";
}

export const locale = $state<{ lang: Lang }>({ lang: detect() });

export function setLang(lang: Lang): void {
  locale.lang = lang;
  try {
    localStorage.setItem(STORE_KEY, lang);
  } catch {
    /* not remembered then */
  }
  document.documentElement.lang = lang;
}

function lookup(catalog: Catalog | undefined, key: string): string | undefined {
  if (!catalog) return undefined;
  const v = catalog[key];
  if (typeof v === "string") return v;
  // A catalog may also nest its terms: {"terms": {"crocodile": "krokodil"}}.
  if (key.startsWith("term.")) {
    const terms = catalog.terms as Record<string, unknown> | undefined;
    const t = terms?.[key.slice(5)];
    if (typeof t === "string") return t;
  }
  return undefined;
}

/** A page text in the current language (English, then the key, when missing). */
export function pageText(key: string, params: Params = {}, lang: Lang = locale.lang): string {
  const template = PAGE_CATALOGS[lang][key] ?? PAGE_CATALOGS.en[key] ?? key;
  return render(template, params, { seatLabel: (s) => defaultSeatLabel(s, null, lang), locale: lang });
}

function defaultSeatLabel(seat: number | null, viewer: number | null, lang: Lang): string {
  const cat = PAGE_CATALOGS[lang];
  if (seat === null) return cat["seat.nobody"] ?? "nobody";
  if (seat === viewer) return cat["seat.you"] ?? "you";
  return render(cat["seat.player"] ?? "Player {n}", { n: seat + 1 }, { seatLabel: () => "" });
}

/** A keyed text of the table language: a log entry, prompt, descriptor or score part. */
export interface Said { kind: string; params?: Record<string, unknown>; text?: string; seat?: number | null }

/**
 * Everything a table page needs to write one seat's texts: which game, who reads
 * (`viewer`, null for a spectator), the seats' names, and the server's English templates.
 */
export interface Reader {
  game: string;
  viewer: number | null;
  names?: (string | null)[];
  english?: Record<string, string>;
}

export function seatLabel(seat: number | null, reader: Reader, lang: Lang = locale.lang): string {
  if (seat !== null && seat !== reader.viewer) {
    const name = reader.names?.[seat];
    if (name) return name;
  }
  return defaultSeatLabel(seat, reader.viewer, lang);
}

function gameCatalog(game: string, lang: Lang): Catalog | undefined {
  return GAME_CATALOGS[game]?.[lang];
}

/**
 * A lobby text of a game (`title`, `description`, `option.<name>`, `option.<name>.help`)
 * from the `lobby` section of its catalog in `lang`, else `fallback` (the server's English).
 */
export function lobbyText(game: string, key: string, fallback: string, lang: Lang = locale.lang): string {
  const lobby = gameCatalog(game, lang)?.lobby as Record<string, unknown> | undefined;
  const v = lobby?.[key];
  return typeof v === "string" && v.trim() ? v : fallback;
}

/** A component id in the reader's language ("crocodile" → "krokodil"), if a catalog has it. */
export function term(id: string, game: string, lang: Lang = locale.lang): string | undefined {
  return lookup(gameCatalog(game, lang), `term.${id}`) ?? lookup(gameCatalog(game, lang), id);
}

/**
 * How a game's catalog writes a whole-number parameter, if it says so: `number_terms` maps a
 * parameter to a family of terms (`{"field": "place"}`), and the number `n` reads as the term
 * `<family>.<n>` ("place.0": "the stairs") or else the term `<family>` with `#` for `n`
 * ("place": "field #"). Other numbers, and games without `number_terms`, print as digits.
 */
export function numbered(game: string, lang: Lang = locale.lang): (name: string, value: number) => string | undefined {
  const families = (gameCatalog(game, lang)?.number_terms ?? gameCatalog(game, "en")?.number_terms) as Record<string, unknown> | undefined;
  return (name, value) => {
    const family = families?.[name];
    if (typeof family !== "string") return undefined;
    const exact = term(`${family}.${value}`, game, lang);
    if (exact !== undefined) return exact;
    return term(family, game, lang)?.replaceAll("#", String(value));
  };
}

/** The sentence of a keyed text in the current language, the server's English as fallback. */
export function say(said: Said, reader: Reader, lang: Lang = locale.lang): string {
  // A log entry's acting seat is the {seat} of its template unless its params say otherwise.
  const params = "seat" in said && !("seat" in (said.params ?? {})) ? { seat: said.seat, ...said.params } : (said.params ?? {});
  const ctx = {
    seatLabel: (s: number | null) => seatLabel(s, reader, lang),
    term: (id: string) => term(id, reader.game, lang),
    numbered: numbered(reader.game, lang),
    locale: lang,
  };
  const template =
    lookup(gameCatalog(reader.game, lang), said.kind) ??
    PAGE_CATALOGS[lang][`kernel.${said.kind}`] ??
    (lang === "en" ? (lookup(gameCatalog(reader.game, "en"), said.kind) ?? reader.english?.[said.kind]) : undefined);
  if (template !== undefined) return render(template, params, ctx);
  if (said.text !== undefined) return said.text;
  // No template in any language and no English from the server: the kind and its parameters.
  return `${said.kind} ${JSON.stringify(params)}`;
}

/** The translator a board receives: game texts first, then the page's, then the server's English. */
export function translator(reader: Reader): (key: string, params?: Record<string, unknown>) => string {
  return (key, params = {}) => {
    const lang = locale.lang;
    const ctx = {
      seatLabel: (s: number | null) => seatLabel(s, reader, lang),
      term: (id: string) => term(id, reader.game, lang),
      numbered: numbered(reader.game, lang),
      locale: lang,
    };
    const template =
      lookup(gameCatalog(reader.game, lang), key) ??
      PAGE_CATALOGS[lang][key] ??
      lookup(gameCatalog(reader.game, "en"), key) ??
      PAGE_CATALOGS.en[key] ??
      reader.english?.[key];
    if (template !== undefined) return render(template, params, ctx);
    // An unknown term reads as its id, which is the data file's English word.
    return key.startsWith("term.") ? key.slice(5) : key;
  };
}

/**
 * The name a person gave a seat, or null when none was given (the server sends null):
 * the seat's default is then written in the reader's language ("Speler 2").
 */
export function givenName(name: string | null | undefined): string | null {
  return name?.trim() || null;
}
