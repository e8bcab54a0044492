// @vitest-environment jsdom
/**
 * The three boards drawn from real positions (fixtures dumped from the engine by
 * web/scripts/fixtures.py): the pieces of the view are on the board, exactly the targets
 * of the seat's legal decisions are clickable (by mouse and by keyboard), a click reports
 * its target, a spectator can click nothing, and nothing hidden from the seat is drawn.
 */
import { flushSync, mount, unmount } from "svelte";
import { afterEach, describe, expect, test } from "vitest";
import { anyOrderFor, boardFor } from "./index";
import { nextTargets, SEAT_COLOURS, wrapWords } from "./common";
import { fixtures, translator, type Fixture } from "./preview/fixtures";

let mounted: Record<string, any>[] = [];
afterEach(() => {
  for (const c of mounted) unmount(c);
  mounted = [];
  document.body.innerHTML = "";
});

function render(name: string, picked: string[] = [], lang = "en") {
  const fixture: Fixture = fixtures[name];
  expect(fixture, `fixture ${name}`).toBeTruthy();
  const target = document.createElement("div");
  document.body.appendChild(target);
  const picks: string[] = [];
  const component = mount(boardFor(fixture.game), {
    target,
    props: {
      layout: fixture.layout,
      view: fixture.view,
      seat: fixture.seat,
      actions: fixture.actions,
      picked,
      onpick: (t: string) => picks.push(t),
      t: translator(fixture.game, lang, fixture.seat),
    },
  });
  mounted.push(component);
  flushSync();
  return { root: target, picks, fixture };
}

/** Every element a person can pick: SVG targets (role=button) and HTML buttons with a target. */
function clickables(root: HTMLElement): Element[] {
  return [...root.querySelectorAll('[role="button"][data-target], button[data-target]')];
}
const targetsOf = (els: Element[]) => els.map((e) => e.getAttribute("data-target")!).sort();

function expectExactlyLegal(name: string, picked: string[] = []) {
  const { root, picks, fixture } = render(name, picked);
  const wanted = [...nextTargets(fixture.actions, picked, anyOrderFor(fixture.game)).keys()].sort();
  const els = clickables(root);
  expect(targetsOf(els)).toEqual(wanted);
  // every clickable is focusable (SVG ones by tabindex, buttons natively) and named
  for (const el of els) {
    // the shell finds a board's targets by this class (what it finds no element for gets a button)
    expect(el.classList.contains("pick"), el.outerHTML.slice(0, 80)).toBe(true);
    if (el.tagName.toLowerCase() !== "button") expect(el.getAttribute("tabindex")).toBe("0");
    expect((el.getAttribute("aria-label") ?? el.textContent ?? "").trim()).not.toBe("");
  }
  // a click on each reports its target, in order
  for (const el of els) el.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  expect(picks).toEqual(targetsOf(els).length ? els.map((e) => e.getAttribute("data-target")) : []);
  return { root, picks, fixture, els };
}

describe("every board", () => {
  for (const name of Object.keys(fixtures)) {
    test(`${name}: exactly the legal first targets are clickable, and report their target`, () => {
      expectExactlyLegal(name);
    });
    test(`${name}: after the first pick, exactly the legal second targets are clickable`, () => {
      const f = fixtures[name];
      const multi = f.actions.find((a) => a.targets.length > 1);
      if (!multi) return; // this position has no two-step decision
      const { els } = expectExactlyLegal(name, [multi.targets[0]]);
      expect(els.length).toBeGreaterThan(0);
    });
  }

  test("the fixtures cover clickable positions and a spectator of each game", () => {
    for (const game of ["luxor2001", "luxor", "horus"]) {
      const ofGame = Object.values(fixtures).filter((f) => f.game === game);
      expect(ofGame.some((f) => f.seat === null)).toBe(true);
      expect(ofGame.some((f) => f.actions.some((a) => a.targets.length > 0))).toBe(true);
    }
  });

  test("Enter and Space on a focused target pick it", () => {
    const { root, picks } = render("luxor2001-insert");
    const el = clickables(root).find((e) => e.tagName.toLowerCase() !== "button")!;
    el.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    el.dispatchEvent(new KeyboardEvent("keydown", { key: " ", bubbles: true }));
    el.dispatchEvent(new KeyboardEvent("keydown", { key: "a", bubbles: true }));
    expect(picks).toEqual([el.getAttribute("data-target"), el.getAttribute("data-target")]);
  });

  test("a spectator sees no hand and can click nothing", () => {
    for (const name of ["luxor2001-spectator", "luxor-spectator", "horus-spectator"]) {
      const { root } = render(name);
      expect(clickables(root)).toEqual([]);
      expect(root.querySelector(".hand")).toBeNull();
    }
  });

  test("seat pieces carry the seat's colour and its number", () => {
    const { root } = render("luxor-spectator");
    const marks = [...root.querySelectorAll(".seat-mark")];
    expect(marks.length).toBeGreaterThan(0);
    for (const m of marks) {
      const seat = Number(m.getAttribute("data-seat"));
      expect(m.querySelector("path")!.getAttribute("fill")).toBe(SEAT_COLOURS[seat]);
      expect(m.querySelector("text")!.textContent).toBe(String(seat + 1));
    }
  });
});

describe("Luxor2001Board", () => {
  test("draws every card half in the wall with its animal and a facing arrow", () => {
    const { root, fixture } = render("luxor2001-insert");
    const filled = fixture.view.wall.filter((c: number) => c >= 0).length;
    const cells = root.querySelectorAll(".cell");
    expect(cells.length).toBe(filled);
    expect(root.querySelectorAll(".cell .look").length).toBe(filled);
    // the first filled cell shows its animal's abbreviation
    const first = fixture.view.wall.findIndex((c: number) => c >= 0);
    const animal = fixture.layout.animals[fixture.view.wall[first] >> 1];
    expect([...cells].some((c) => c.querySelector(".abbr")!.textContent === animal.abbrev)).toBe(true);
    // one frame per card in the wall
    const cards = fixture.view.heights.reduce((a: number, b: number) => a + b, 0);
    expect(root.querySelectorAll(".card-frame").length).toBe(cards);
  });

  test("draws the seven pillars with their researchers, scarabs and sarcophagi", () => {
    const { root, fixture } = render("luxor2001-insert");
    const pillars = root.querySelectorAll(".pillar");
    expect(pillars.length).toBe(fixture.layout.pillars.length);
    const researchers = fixture.view.pillars.filter((p: any) => p.researcher !== null).length;
    expect(root.querySelectorAll(".pillar .seat-mark").length).toBe(researchers);
    const scarabs = fixture.view.pillars.reduce((a: number, p: any) => a + p.scarabs, 0);
    expect(root.querySelectorAll(".scarab.there").length).toBe(scarabs);
    const sarcs = fixture.view.pillars.reduce((a: number, p: any) => a + p.sarcophagi.length, 0);
    expect(root.querySelectorAll(".pillar .sarc").length).toBe(sarcs);
  });

  test("the seat's hand is drawn card by card; a picked card shows where it would land", () => {
    const { root, fixture } = render("luxor2001-insert", ["hand:0"]);
    expect(root.querySelectorAll(".hand [data-target^='hand:']").length).toBe(fixture.view.hand.length);
    const landings = fixture.actions.filter((a) => a.targets[0] === "hand:0").length;
    expect(root.querySelectorAll(".ghost").length).toBe(landings);
  });

  test("labels come from the catalog of the reader's language", () => {
    const { root } = render("luxor2001-insert", [], "it");
    const text = root.textContent ?? "";
    expect(text).toContain("Ricercatori");
    expect(text).not.toContain("Researchers");
  });
});

describe("LuxorBoard", () => {
  test("draws every field of the path, its adventurers and the sleeping ones", () => {
    const { root, fixture } = render("luxor-spectator");
    expect(root.querySelectorAll(".field").length).toBe(fixture.layout.fields.length);
    let standing = 0;
    for (const row of fixture.view.adventurers) standing += row.filter((n: number) => n > 0).length;
    expect(root.querySelectorAll(".piece").length).toBe(standing);
    const asleep = fixture.view.sleeping.flat().filter(Boolean).length;
    expect(root.querySelectorAll(".statue .seat-mark").length).toBe(asleep);
  });

  test("the hand keeps its order and only its ends can be played", () => {
    const { root, fixture } = render("luxor-hand");
    const hand = fixture.view.hands[fixture.seat!];
    expect(root.querySelectorAll(".hand .card").length).toBe(hand.length);
    const playable = targetsOf(clickables(root)).filter((t) => t.startsWith("hand:"));
    for (const t of playable) expect(["hand:0", `hand:${hand.length - 1}`]).toContain(t);
    expect(playable.length).toBeGreaterThan(0);
  });
});

describe("wrapWords", () => {
  test("packs words into lines no wider than asked, a long word alone", () => {
    expect(wrapWords("one adventurer fewer, 2 tiles", 10)).toEqual(["one", "adventurer", "fewer, 2", "tiles"]);
    expect(wrapWords("all forward 1", 10)).toEqual(["all", "forward 1"]);
    expect(wrapWords("un avventuriero in meno", 10)).toEqual(["un", "avventuriero", "in meno"]);
    expect(wrapWords("  5 ", 10)).toEqual(["5"]);
  });
});

describe("HorusBoard", () => {
  test("draws every square, the fallen blocks, mummies and the adventurers inside", () => {
    const { root, fixture } = render("horus-spectator");
    expect(root.querySelectorAll(".square").length).toBe(fixture.layout.squares.length);
    expect(root.querySelectorAll(".block").length).toBe(fixture.view.fallen_blocks.length);
    expect(root.querySelectorAll(".mummy").length).toBe(fixture.view.mummies.length);
    const inside = fixture.view.players.filter((p: any) => p.status_id === 1).length;
    expect(root.querySelectorAll(".piece").length).toBe(inside);
    expect(root.querySelectorAll(".die").length).toBe(fixture.view.dice.length);
    expect(root.querySelectorAll(".sarcophagus").length).toBe(fixture.layout.sarcophagi.length);
  });

  test("the dice of a reroll may be clicked in any order", () => {
    // After the fourth die, every other die is still clickable, not only the fifth.
    const { root, picks } = render("horus-lock", ["die:3"]);
    const dice = clickables(root).filter((e) => e.getAttribute("data-target")!.startsWith("die:"));
    expect(targetsOf(dice)).toEqual(["die:0", "die:1", "die:2", "die:4"]);
    dice[0].dispatchEvent(new MouseEvent("click", { bubbles: true }));
    expect(picks).toEqual(["die:0"]);
    const chosen = root.querySelector('[data-target="die:3"]')!;
    expect(chosen.getAttribute("role")).toBeNull();
    expect(chosen.querySelector(".ring.chosen")).not.toBeNull();
  });

  test("walls are solid and open edges dotted, as the layout says", () => {
    const { root, fixture } = render("horus-act");
    const walls = fixture.layout.edges.filter((e: any) => e.kind === "wall").length;
    expect(root.querySelectorAll("line.wall").length).toBe(walls);
    expect(root.querySelectorAll("line.open").length).toBe(fixture.layout.edges.length - walls);
  });

  test("another seat's face-down cards show only their backs", () => {
    const { root, fixture } = render("horus-spectator");
    const backs = fixture.view.players.reduce(
      (n: number, p: any) => n + Object.keys(p.face_down).length,
      0,
    );
    expect(root.querySelectorAll(".card.back:not(.bag)").length).toBe(backs);
  });
});
