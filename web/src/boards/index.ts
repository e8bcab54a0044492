/**
 * Game id → its board component and its players' panel part (a game without them gets
 * the generic board and no panel part), and the board's rules for targets that may be
 * picked in any order and for targets that a click only selects (none, unless it says so).
 *
 * Each board, with its panel part, its glyphs and its game's texts, is its own part of the
 * page's code, fetched only when a page shows that game (`loadBoard`): the lobby's first
 * visit carries none of them, and a table carries only its own game's.
 */
import type { Component } from "svelte";
import GenericBoard from "./GenericBoard.svelte";
import { inOrder, sends, type AnyOrder, type Holds } from "../lib/choices";
import { loadGameTexts } from "../lib/i18n.svelte";
import { horusAnyOrder, horusDrastic, luxorHolds } from "./order";
import type { BoardProps, PanelProps } from "./types";
import type { GameId } from "../lib/protocol";

type Module<P extends Record<string, any>> = { default: Component<P> };
type Parts = [Module<BoardProps>, Module<PanelProps>];

// Keyed by the games' registry's ids (lib/protocol.ts): a board for no game does not compile.
const loaders: Partial<Record<GameId, () => Promise<Parts>>> = {
  horus: () => Promise.all([import("./HorusBoard.svelte"), import("./HorusPanel.svelte")]),
  luxor: () => Promise.all([import("./LuxorBoard.svelte"), import("./LuxorPanel.svelte")]),
  luxor2001: () => Promise.all([import("./Luxor2001Board.svelte"), import("./Luxor2001Panel.svelte")]),
};

const loaded: Record<string, Component<BoardProps>> = {};
const panels: Record<string, Component<PanelProps>> = {};

/**
 * The board of `game` once its code and its texts in the page's language (and English,
 * the fallback) are here. A failed fetch is not remembered: the next call tries again.
 */
export async function loadBoard(game: string): Promise<Component<BoardProps>> {
  const texts = loadGameTexts(game);
  const load = loaders[game as GameId];
  if (load && !loaded[game]) {
    const [board, panel] = await load();
    panels[game] = panel.default;
    loaded[game] = board.default;
  }
  await texts;
  return loaded[game] ?? GenericBoard;
}

/** The board of `game` if `loadBoard` has brought it, else undefined (the generic one for a game without its own). */
export function boardFor(game: string): Component<BoardProps> | undefined {
  return game in loaders ? loaded[game] : GenericBoard;
}

/** The part of each seat's panel that `game`'s board draws, once `loadBoard` has brought it (none for a game without a board of its own). */
export function panelFor(game: string): Component<PanelProps> | undefined {
  return panels[game];
}

/** Every game that has a board of its own. */
export const boardGames: string[] = Object.keys(loaders);

const anyOrders: Partial<Record<GameId, AnyOrder>> = {
  horus: horusAnyOrder,
};

export function anyOrderFor(game: string): AnyOrder {
  return anyOrders[game as GameId] ?? inOrder;
}

const holdings: Partial<Record<GameId, Holds>> = {
  luxor: luxorHolds,
};

/** The targets of `game` that a click only selects (none, unless its board says so). */
export function holdsFor(game: string): Holds {
  return holdings[game as GameId] ?? sends;
}

const drastics: Partial<Record<GameId, (kind: string) => boolean>> = {
  horus: horusDrastic,
};

/**
 * Whether a decision of `game` (by its kind) ends the seat's game, as horus's leaving the
 * pyramid does: the prompt bar dresses it quieter than the turn's usual moves (none is,
 * unless its board says so).
 */
export function drasticFor(game: string): (kind: string) => boolean {
  return drastics[game as GameId] ?? (() => false);
}

/** `load()` until it succeeds, waiting a little longer after each failure (a page kept open while the server is away). */
export async function retrying<T>(load: () => Promise<T>): Promise<T> {
  for (let wait = 500; ; wait = Math.min(wait * 2, 8000)) {
    try {
      return await load();
    } catch {
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
