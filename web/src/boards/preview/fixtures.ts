/**
 * The committed fixtures (real positions dumped by web/scripts/fixtures.py) and the shell's
 * translator set to a language, for the preview page and the board tests.
 */
import type { ActionInfo } from "../types";
import type { GameEvent } from "../../lib/protocol";
import { LANGUAGES, locale, translator as shellTranslator, type Lang } from "../../lib/i18n.svelte";

export interface Fixture {
  game: string;
  seat: number | null;
  layout: Record<string, any>;
  view: Record<string, any>;
  /** The events of the action that led to the view, as the seat may know them. */
  events?: GameEvent[];
  actions: ActionInfo[];
}

const files = import.meta.glob<Fixture>("../fixtures/*.json", { eager: true, import: "default" });
export const fixtures: Record<string, Fixture> = Object.fromEntries(
  Object.entries(files).map(([path, f]) => [path.replace(/^.*\/(.*)\.json$/, "$1"), f]),
);

/** The shell's own translator for `game`, read by `viewer`, in `lang`, with the seats'
 * given `names` (as the table passes them) when there are any. */
export function translator(game: string, lang: string, viewer: number | null = null, names?: string[]) {
  locale.lang = (LANGUAGES as readonly string[]).includes(lang) ? (lang as Lang) : "en";
  return shellTranslator({ game, viewer, names });
}
