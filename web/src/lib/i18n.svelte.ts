/**
 * Languages: the page's own texts from `src/i18n/{en,nl,it}.json`, the games' texts (the
 * table language's kinds and the data files' terms) from `src/i18n/games/<game>.<lang>.json`,
 * and the server's English as the last fallback. The chosen language is the browser's by
 * default and remembered once switched; reading it inside a component makes the component
 * follow a switch.
 */
import en from "../i18n/en.json";
import { render, type Params } from "./template";

export const LANGUAGES = ["en", "nl", "it"] as const;
export type Lang = (typeof LANGUAGES)[number];
export type Catalog = Record<string, unknown>;

/**
 * The page's own texts: English (every text's fallback) comes with the page, another
 * language when the page is first shown in it (`loadPageTexts`, which main.ts awaits for
 * the browser's language before the page is drawn).
 */
export const PAGE_CATALOGS: Record<Lang, Record<string, string>> = { en, nl: {}, it: {} };
const pageFiles = import.meta.glob("../i18n/{nl,it}.json", { import: "default" }) as Record<string, () => Promise<Record<string, string>>>;

export async function loadPageTexts(lang: Lang): Promise<void> {
  const load = pageFiles[`../i18n/${lang}.json`];
  if (load && Object.keys(PAGE_CATALOGS[lang]).length === 0) {
    PAGE_CATALOGS[lang] = await load();
    arrived.count++;
  }
}

/**
 * Game catalogs, by game id and language, as the boards engineer writes them: each file is
 * fetched when a page first needs that game in that language (`loadGameTexts`), so that a
 * page carries only the games and languages it shows.
 */
const gameFiles = import.meta.glob("../i18n/games/*.json", { import: "default" }) as Record<string, () => Promise<Catalog>>;
export const GAME_CATALOGS: Record<string, Partial<Record<Lang, Catalog>>> = {};
// Counts the catalogs that arrived: texts read through it are written again when one does.
const arrived = $state({ count: 0 });
// The games this page has shown, whose texts a switch of language fetches first.
const shownGames = new Set<string>();

function fetchCatalog(game: string, lang: Lang): Promise<void> {
  if (GAME_CATALOGS[game]?.[lang]) return Promise.resolve();
  const load = gameFiles[`../i18n/games/${game}.${lang}.json`];
  if (!load) return Promise.resolve();
  return load().then((catalog) => {
    (GAME_CATALOGS[game] ??= {})[lang] = catalog;
    arrived.count++;
  });
}

/** Fetches `game`'s texts in `lang` and in English (the fallback); resolves once both are here. */
export function loadGameTexts(game: string, lang: Lang = locale.lang): Promise<void> {
  shownGames.add(game);
  return Promise.all([fetchCatalog(game, lang), fetchCatalog(game, "en")]).then(() => undefined);
}

/** Every text of the page and of every game in every language (for the tests, which read all of them). */
export function loadEveryText(): Promise<void> {
  const all = Object.keys(gameFiles).map((path) => /\/([a-z0-9_]+)\.([a-z]{2})\.json$/.exec(path)).filter((m) => m !== null);
  return Promise.all([...LANGUAGES.map(loadPageTexts), ...all.map((m) => fetchCatalog(m![1], m![2] as Lang))]).then(() => undefined);
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

// The language last asked for.
let wantedLang: Lang | null = null;

/** Switches the page to `lang` once the texts of the games it has shown are here in it. */
export async function setLang(lang: Lang): Promise<void> {
  wantedLang = lang;
  // Remembered at once, before the texts arrive: a person who picks a language and then
  // leaves the page (or follows a link) at once must find it on the next page.
  try {
    localStorage.setItem(STORE_KEY, lang);
  } catch {
    /* not remembered then */
  }
  await Promise.all([loadPageTexts(lang), ...[...shownGames].map((game) => loadGameTexts(game, lang))]).catch(() => {});
  // Two quick switches: the texts of the first may arrive last; the later choice stands.
  if (wantedLang !== lang) return;
  locale.lang = lang;
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

/**
 * The page's sentence for a server error's `code` ("error.<code>" in the page's catalogs),
 * else the page text `fallback`: never the server's own English message.
 */
export function problemText(code: string | undefined, fallback: string, lang: Lang = locale.lang): string {
  const key = `error.${code}`;
  return code && (key in PAGE_CATALOGS[lang] || key in PAGE_CATALOGS.en) ? pageText(key, {}, lang) : pageText(fallback, {}, lang);
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
  /**
   * The seat the texts call "you", where it is not the viewer's: a replay shows any seat's
   * view to the person of one seat (null: a spectator). The viewer's seat when left out.
   */
  you?: number | null;
}

/** The seat the reader's texts call "you" (null: none, a spectator). */
export function yourSeat(reader: Reader): number | null {
  return reader.you === undefined ? reader.viewer : reader.you;
}

export function seatLabel(seat: number | null, reader: Reader, lang: Lang = locale.lang): string {
  const you = yourSeat(reader);
  if (seat !== null && seat !== you) {
    const name = reader.names?.[seat];
    if (name) return name;
  }
  return defaultSeatLabel(seat, you, lang);
}

function gameCatalog(game: string, lang: Lang): Catalog | undefined {
  void arrived.count;
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

/** The template that writes `kind` in `lang` (the game's, the page's kernel, the server's English), if any. */
function templateOf(kind: string, reader: Reader, lang: Lang): string | undefined {
  return (
    lookup(gameCatalog(reader.game, lang), kind) ??
    PAGE_CATALOGS[lang][`kernel.${kind}`] ??
    (lang === "en" ? (lookup(gameCatalog(reader.game, "en"), kind) ?? reader.english?.[kind]) : undefined)
  );
}

/**
 * Whether the sentence of a keyed text writes its parameter `param` (a score part that says
 * its points needs no column repeating them): its template names it; with no template, its
 * server text holds the parameter's value as a word.
 */
export function writes(said: Said, param: string, reader: Reader, lang: Lang = locale.lang): boolean {
  const template = templateOf(said.kind, reader, lang);
  if (template !== undefined) return new RegExp(`\\{${param}[|}]`).test(template);
  const value = said.params?.[param];
  return value !== undefined && new RegExp(`(^|\\D)${String(value)}(\\D|$)`).test(said.text ?? "");
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
  const template = templateOf(said.kind, reader, lang);
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

// U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE, made from their code
// points: the bundler writes an escape in the source out as the character itself, which
// Svelte's compiler then warns of as a hidden bidirectional character.
const ISOLATE = String.fromCharCode(0x2068);
const END_ISOLATE = String.fromCharCode(0x2069);

/**
 * A seat's given name as the page writes it, isolated from the text around it (between
 * U+2068 and U+2069, as `<bdi>` does in markup): a name in a right-to-left script, or one
 * that starts with digits, stays inside itself in a log line or a title. Null when none
 * was given (the server sends null): the seat's default is then written in the reader's
 * language ("Speler 2").
 */
export function givenName(name: string | null | undefined): string | null {
  const trimmed = name?.trim();
  return trimmed ? `${ISOLATE}${trimmed}${END_ISOLATE}` : null;
}
