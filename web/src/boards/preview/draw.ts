/**
 * A board drawn from a committed fixture in the tests' jsdom, as the table draws it: the
 * fixture's layout, view and seat, its legal decisions (or others given), the picks so far
 * and the shell's translator. Every board drawn is taken down after each test. The tests
 * import this before their first test: all boards and every game's texts are loaded first.
 */
import { flushSync, mount, unmount } from "svelte";
import { afterEach, expect } from "vitest";
import { boardFor, boardGames, loadBoard, panelFor } from "../index";
import { loadEveryText } from "../../lib/i18n.svelte";
import type { ActionInfo } from "../types";
import { fixtures, translator, type Fixture } from "./fixtures";

// Each board is its own part of the page's code: all of them (and every game's texts) first.
await Promise.all(boardGames.map((game) => loadBoard(game)));
await loadEveryText();

let mounted: Record<string, any>[] = [];
afterEach(() => {
  for (const c of mounted) unmount(c);
  mounted = [];
  document.body.innerHTML = "";
});

export interface Drawn {
  root: HTMLElement;
  /** The targets the board reported clicked, in order. */
  picks: string[];
  fixture: Fixture;
}

export interface DrawOptions {
  picked?: string[];
  lang?: string;
  /** The seats' names as the table's side panel writes them. */
  names?: string[];
  /** The decisions offered, if not the fixture's own (the table chains them, say). */
  actions?: ActionInfo[];
}

/** The board of fixture `name`, drawn into the page's body. */
export function draw(name: string, { picked = [], lang = "en", names, actions }: DrawOptions = {}): Drawn {
  const fixture: Fixture = fixtures[name];
  expect(fixture, `fixture ${name}`).toBeTruthy();
  const root = document.createElement("div");
  document.body.appendChild(root);
  const picks: string[] = [];
  mounted.push(
    mount(boardFor(fixture.game)!, {
      target: root,
      props: {
        layout: fixture.layout,
        view: fixture.view,
        events: fixture.events ?? [],
        seat: fixture.seat,
        actions: actions ?? fixture.actions,
        picked,
        onpick: (t: string) => picks.push(t),
        t: translator(fixture.game, lang, fixture.seat, names),
        names,
      },
    }),
  );
  flushSync();
  return { root, picks, fixture };
}

/**
 * Every seat's part of the players' panels of fixture `name` (the game's panel part, as
 * the table draws one in each seat's panel), one after another into the page's body,
 * each in an element with `data-seat`.
 */
export function drawPanels(name: string, { lang = "en", names }: { lang?: string; names?: string[] } = {}): { root: HTMLElement; fixture: Fixture } {
  const fixture: Fixture = fixtures[name];
  expect(fixture, `fixture ${name}`).toBeTruthy();
  const Panel = panelFor(fixture.game);
  expect(Panel, `${fixture.game}'s panel part`).toBeTruthy();
  const root = document.createElement("div");
  document.body.appendChild(root);
  const players = fixture.view.players;
  const count = typeof players === "number" ? players : Array.isArray(players) ? players.length : (fixture.view.adventurers ?? []).length;
  const t = translator(fixture.game, lang, fixture.seat, names);
  for (let seat = 0; seat < count; seat++) {
    const cell = document.createElement("div");
    cell.dataset.seat = String(seat);
    root.appendChild(cell);
    mounted.push(mount(Panel!, { target: cell, props: { layout: fixture.layout, view: fixture.view, seat, viewer: fixture.seat, t, names } }));
  }
  flushSync();
  return { root, fixture };
}
