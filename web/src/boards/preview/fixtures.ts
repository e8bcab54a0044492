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

interface Catalog { messages: Record<string, string>; terms: Record<string, string> }
const catalogs = import.meta.glob<Catalog>("../../i18n/games/*.json", { eager: true, import: "default" });

/** A translator like the shell's: message kinds from the catalog, `terms.<id>` from its terms. */
export function translator(game: string, lang: string, viewer: number | null = null) {
  const catalog = catalogs[`../../i18n/games/${game}.${lang}.json`] ?? { messages: {}, terms: {} };
  const english = catalogs[`../../i18n/games/${game}.en.json`] ?? { messages: {}, terms: {} };
  const you = lang === "nl" ? "jij" : lang === "it" ? "tu" : "you";
  const player = lang === "nl" ? "Speler" : lang === "it" ? "Giocatore" : "Player";
  return (key: string, params: Record<string, unknown> = {}): string => {
    if (key.startsWith("terms.")) {
      const id = key.slice(6);
      return catalog.terms[id] ?? english.terms[id] ?? key;
    }
    const template = catalog.messages[key] ?? english.messages[key];
    if (template === undefined) return key;
    const text = template.replace(/\{([a-z_][a-z0-9_]*)(?:\|([^|{}]*)\|([^|{}]*))?\}/g, (_, name: string, one?: string, other?: string) => {
      const value = params[name];
      if (one !== undefined) return (value === 1 ? one : other ?? "").replace("#", String(value));
      if ((name === "seat" || name.endsWith("_seat")) && (typeof value === "number" || value === null)) {
        return value === viewer ? you : `${player} ${Number(value) + 1}`;
      }
      if (Array.isArray(value)) return value.map((v) => (typeof v === "string" ? catalog.terms[v] ?? v : String(v))).join(", ");
      if (typeof value === "string") return catalog.terms[value] ?? value;
      return String(value);
    });
    return text.charAt(0).toUpperCase() + text.slice(1);
  };
}
