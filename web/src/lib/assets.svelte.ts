/**
 * What a page needs to draw a game, loaded once per game for every page that draws it
 * (the table, the replay, the lobby's previews): the board and its part of the players'
 * panels (the board's own piece of the page's code, with the game's texts), the board's
 * layout, the server's English templates, and the game's title and bot levels.
 *
 * Each part is asked for by the page that needs it (`want`), fetched at most once while
 * the page is open, and shared: a table opened after the lobby's preview of its game
 * fetches no second copy of its board. A failed fetch is tried again (the board, with a
 * growing wait, as a page kept open while the server is away), or leaves the part empty
 * (a layout that cannot come draws no board, and the page says so no worse than before).
 */
import type { Component } from "svelte";
import { boardFor, loadBoard, panelFor, retrying } from "../boards";
import type { BoardProps, PanelProps } from "../boards/types";
import { api } from "./api";
import { LEVELS, type Level } from "./protocol";

export type Part = "board" | "layout" | "messages" | "info";

export class GameAssets {
  layout: Record<string, any> | null = $state(null);
  english: Record<string, string> = $state({});
  title = $state("");
  levels: readonly Level[] = $state(LEVELS);
  Board: Component<BoardProps> | undefined = $state.raw(undefined);
  Panel: Component<PanelProps> | undefined = $state.raw(undefined);
  private asked = new Set<Part>();

  constructor(readonly game: string) {
    this.Board = boardFor(game);
    this.Panel = panelFor(game);
  }

  /** Fetch these parts, unless they were asked for already; returns this. */
  want(...parts: Part[]): this {
    for (const part of parts) {
      if (this.asked.has(part)) continue;
      this.asked.add(part);
      this.fetch(part);
    }
    return this;
  }

  /** A layout the page already holds (a fixture's, which the tests keep the game's own). */
  knowLayout(layout: Record<string, any>): void {
    this.layout ??= layout;
    this.asked.add("layout");
  }

  private fetch(part: Part): void {
    const g = this.game;
    if (part === "board") {
      if (this.Board) return;
      retrying(() => loadBoard(g)).then((b) => {
        this.Board = b;
        this.Panel = panelFor(g);
      });
    } else if (part === "layout") {
      api.layout(g).then((l) => (this.layout = l)).catch(() => (this.layout ??= {}));
    } else if (part === "messages") {
      api.messages(g).then((m) => (this.english = m)).catch(() => this.asked.delete("messages"));
    } else {
      api.games().then((all) => {
        const info = all.find((x) => x.id === g);
        if (info) {
          this.levels = info.levels;
          this.title = info.title;
        }
      }).catch(() => this.asked.delete("info"));
    }
  }
}

const kept = new Map<string, GameAssets>();

/** The assets of `game` this page holds (made, empty, on first asking). */
export function gameAssets(game: string): GameAssets {
  let found = kept.get(game);
  if (!found) {
    found = new GameAssets(game);
    kept.set(game, found);
  }
  return found;
}
