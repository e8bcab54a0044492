/**
 * The committed fixtures (real positions dumped by web/scripts/fixtures.py) and a small
 * translator over the games' catalogs, for the preview page and the board tests.
 */
import type { ActionInfo } from "../types";

export interface Fixture {
  game: string;
  seat: number | null;
  layout: Record<string, any>;
  view: Record<string, any>;
  actions: ActionInfo[];
}

const files = import.meta.glob<Fixture>("../fixtures/*.json", { eager: true, import: "default" });
export const fixtures: Record<string, Fixture> = Object.fromEntries(
  Object.entries(files).map(([path, f]) => [path.replace(/^.*\/(.*)\.json$/, "$1"), f]),
);

type Catalog = Record<string, unknown> & { terms?: Record<string, string> };
const catalogs = import.meta.glob<Catalog>("../../i18n/games/*.json", { eager: true, import: "default" });

/**
 * A translator with the shell's lookup (a kind at the catalog's top level, `term.<id>` in
 * its terms), for the preview page and tests, which run without the shell.
 */
export function translator(game: string, lang: string, viewer: number | null = null) {
  const catalog = catalogs[`../../i18n/games/${game}.${lang}.json`] ?? {};
  const english = catalogs[`../../i18n/games/${game}.en.json`] ?? {};
  const you = lang === "nl" ? "jij" : lang === "it" ? "tu" : "you";
  const player = lang === "nl" ? "Speler" : lang === "it" ? "Giocatore" : "Player";
  const termOf = (id: string) => catalog.terms?.[id] ?? english.terms?.[id];
  return (key: string, params: Record<string, unknown> = {}): string => {
    if (key.startsWith("term.")) return termOf(key.slice(5)) ?? key.slice(5);
    const template = (catalog[key] ?? english[key]) as string | undefined;
    if (typeof template !== "string") return key;
    const text = template.replace(/\{([a-z_][a-z0-9_]*)(?:\|([^|{}]*)\|([^|{}]*))?\}/g, (_, name: string, one?: string, other?: string) => {
      const value = params[name];
      if (one !== undefined) return (value === 1 ? one : other ?? "").replaceAll("#", String(value));
      if ((name === "seat" || name.endsWith("_seat")) && (typeof value === "number" || value === null)) {
        return value === viewer ? you : `${player} ${Number(value) + 1}`;
      }
      if (Array.isArray(value)) return value.map((v) => (typeof v === "string" ? termOf(v) ?? v : String(v))).join(", ");
      if (typeof value === "string") return termOf(value) ?? value;
      return String(value);
    });
    return text.charAt(0).toUpperCase() + text.slice(1);
  };
}
