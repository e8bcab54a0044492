// @vitest-environment jsdom
/**
 * The three boards drawn from real positions (fixtures dumped from the engine by
 * web/scripts/fixtures.py): the pieces of the view are on the board, exactly the targets
 * of the seat's legal decisions are clickable (by mouse and by keyboard), a click reports
 * its target, a spectator can click nothing, and nothing hidden from the seat is drawn.
 */
import { describe, expect, test } from "vitest";
import { anyOrderFor } from "./index";
import { nextTargets, SEAT_COLOURS, wrapWords } from "./common";
import { draw, drawPanels } from "./preview/draw";
import { fixtures } from "./preview/fixtures";
import { chained } from "../lib/choices";

function render(name: string, picked: string[] = [], lang = "en") {
  return draw(name, { picked, lang });
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

  test("a rolled die (luxor) and a lock's faces (horus) have legend entries while shown", () => {
    // They come and go with the position, so a legend made for the start lacked them.
    const legendGlyphs = (root: HTMLElement) =>
      [...(root.querySelector("details.legend")?.querySelectorAll("[data-glyph]") ?? [])].map((e) => e.getAttribute("data-glyph"));
    const withRoll = structuredClone(fixtures["luxor-play"]);
    withRoll.view.roll = 6;
    fixtures["luxor-rolled"] = withRoll;
    try {
      const { root } = render("luxor-rolled");
      expect(root.querySelector('[data-glyph="die6"]')).not.toBeNull();
      expect(legendGlyphs(root)).toContain("die6");
      expect(root.querySelector("details.legend")!.textContent).toContain("Die: 6");
    } finally {
      delete fixtures["luxor-rolled"];
    }
    const lock = fixtures["horus-lock"];
    const faces: number[] = lock.layout.alcoves.find((a: any) => a.god === lock.view.lock.idol).lock;
    const { root } = render("horus-lock");
    for (const face of faces) {
      expect(root.querySelector(`svg [data-glyph="die${face}"]`), `die${face}`).not.toBeNull();
      expect(legendGlyphs(root)).toContain(`die${face}`);
    }
  });

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

/** Where each piece (a keyed group placed by its transform) stands, and its radius. */
function piecesOf(root: HTMLElement, selector = ".piece"): { x: number; y: number; r: number }[] {
  return [...root.querySelectorAll(selector)].map((p) => {
    const m = /translate\(([-\d.]+)px, ([-\d.]+)px\)/.exec(p.getAttribute("style") ?? "");
    expect(m, p.outerHTML.slice(0, 120)).not.toBeNull();
    return { x: Number(m![1]), y: Number(m![2]), r: Number(p.getAttribute("data-r")) };
  });
}

/** No two pieces overlap: their centres lie at least their two radii apart (1 unit's grace). */
function expectApart(spots: { x: number; y: number; r: number }[]) {
  for (const s of spots) expect(s.r).toBeGreaterThan(3);
  for (let i = 0; i < spots.length; i++) {
    for (let j = i + 1; j < spots.length; j++) {
      const a = spots[i];
      const b = spots[j];
      const d = Math.hypot(a.x - b.x, a.y - b.y);
      expect(d, `pieces ${i} and ${j} at ${JSON.stringify([a, b])}`).toBeGreaterThanOrEqual(a.r + b.r - 1);
    }
  }
}

describe("Luxor2001Board", () => {
  test("draws every card half in the wall as its animal's glyph, mirrored to look left", () => {
    const { root, fixture } = render("luxor2001-insert");
    const filled = fixture.view.wall.filter((c: number) => c >= 0).length;
    const cells = [...root.querySelectorAll(".cell")];
    expect(cells.length).toBe(filled);
    // every half: the glyph of its animal, mirrored exactly when the animal looks left, and
    // no code letters left
    const codes = fixture.view.wall.filter((c: number) => c >= 0);
    cells.forEach((cell, k) => {
      const animal = fixture.layout.animals[codes[k] >> 1].id;
      const left = (codes[k] & 1) === 0;
      const glyph = cell.querySelector(".glyph")!;
      expect(glyph.getAttribute("data-glyph")).toBe(animal);
      expect(glyph.getAttribute("transform")!.includes("scale(-1 1)")).toBe(left);
      expect(cell.querySelector("text")).toBeNull();
      // its tooltip and accessible name say it in words
      const name = `${animal[0].toUpperCase()}${animal.slice(1)}, looking ${left ? "left" : "right"}`;
      expect(cell.querySelector("title")!.textContent).toBe(name);
      expect(cell.getAttribute("aria-label")).toBe(name);
    });
    // one frame per card in the wall
    const cards = fixture.view.heights.reduce((a: number, b: number) => a + b, 0);
    expect(root.querySelectorAll(".card-frame").length).toBe(cards);
  });

  test("pillars read as sentences, and every animal has a legend entry", () => {
    const { root, fixture } = render("luxor2001-insert");
    const titles = [...root.querySelectorAll(".pillar title")].map((e) => e.textContent);
    expect(titles).toContain("Pillar: camel");
    const legend = root.querySelector("details.legend")!;
    for (const a of fixture.layout.animals) expect(legend.querySelector(`[data-glyph="${a.id}"]`)).not.toBeNull();
    expect(legend.textContent).toContain("Hippopotamus");
    const nl = render("luxor2001-insert", [], "nl").root;
    expect([...nl.querySelectorAll(".pillar title")].map((e) => e.textContent)).toContain("Zuil: kameel");
  });

  test("draws the seven pillars with their researchers, scarabs and sarcophagi", () => {
    const { root, fixture } = render("luxor2001-insert");
    const pillars = root.querySelectorAll(".pillar");
    expect(pillars.length).toBe(fixture.layout.pillars.length);
    const researchers = fixture.view.pillars.filter((p: any) => p.researcher !== null).length;
    expect(root.querySelectorAll(".pillar .seat-mark").length).toBe(researchers);
    const scarabs = fixture.view.pillars.reduce((a: number, p: any) => a + p.scarabs, 0);
    expect(root.querySelectorAll(".scarab.there").length).toBe(scarabs);
    expect(root.querySelectorAll(".scarab.there [data-glyph='scarab']").length).toBe(scarabs);
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
    const { root } = drawPanels("luxor2001-insert", { lang: "it" });
    const text = [...root.querySelectorAll("[aria-label]")].map((e) => e.getAttribute("aria-label")).join(" ");
    expect(text).toContain("Ricercatori");
    expect(text).not.toContain("Researchers");
  });
});

describe("LuxorBoard", () => {
  test("draws every field of the path, its adventurers and the sleeping ones", () => {
    const { root, fixture } = render("luxor-spectator");
    expect(root.querySelectorAll(".field").length).toBe(fixture.layout.fields.length);
    // one piece per adventurer, several on one field included
    let standing = 0;
    for (const row of fixture.view.adventurers) standing += row.reduce((a: number, n: number) => a + n, 0);
    expect(root.querySelectorAll(".piece").length).toBe(standing);
    const asleep = fixture.view.sleeping.flat().filter(Boolean).length;
    expect(root.querySelectorAll(".statue .seat-mark").length).toBe(asleep);
  });

  for (const name of ["luxor-spectator", "luxor-hand", "luxor-play", "luxor-end"]) {
    test(`${name}: adventurers sharing a field stand apart, no piece covers another`, () => {
      const { root, fixture } = render(name);
      const shared = fixture.view.adventurers[0].some((_: number, f: number) =>
        fixture.view.adventurers.reduce((a: number, row: number[]) => a + (row[f] ?? 0), 0) > 1);
      const spots = piecesOf(root);
      expect(spots.length).toBeGreaterThan(0);
      if (name === "luxor-spectator") expect(shared).toBe(true);
      expectApart(spots);
    });
  }

  test("tiles, treasures and temple symbols are glyphs with sentences, not codes", () => {
    const { root, fixture } = render("luxor-spectator");
    const texts = [...root.querySelectorAll(".field text")].map((e) => e.textContent ?? "");
    // no treasure letter codes ("V2") nor temple abbreviations ("Tun") are written
    expect(texts.filter((x) => /^[A-Z]\d$|^(Tun|Scar|Wild|S\/W|H\d\/\d)$/.test(x))).toEqual([]);
    const glyphs = new Set([...root.querySelectorAll(".field .glyph")].map((g) => g.getAttribute("data-glyph")));
    for (const type of fixture.layout.treasure_types) expect(glyphs.has(type)).toBe(true);
    for (const back of fixture.layout.temple_backs) expect(glyphs.has(back)).toBe(true);
    const titles = [...root.querySelectorAll(".field > title")].map((e) => e.textContent ?? "");
    expect(titles.some((x) => /^Field \d+: (Vase|Statue|Jewels), \d points?, needs \d adventurers?$/.test(x))).toBe(true);
    expect([...root.querySelectorAll(".symbol title")].map((e) => e.textContent)).toContain("Temple symbol: cobra");
    const legend = root.querySelector("details.legend")!;
    for (const id of [...fixture.layout.treasure_types, ...fixture.layout.temple_backs]) {
      expect(legend.querySelector(`[data-glyph="${id}"]`), id).not.toBeNull();
    }
  });

  test("a chosen card stays marked and clickable, the other card may replace it, its adventurer is offered", () => {
    // as the table offers them: each card with the move it makes (its ways on)
    const actions = chained(fixtures["luxor-hand"].actions);
    const { root, picks } = draw("luxor-hand", { actions, picked: ["hand:0"] });
    const els = clickables(root);
    expect(targetsOf(els)).toEqual(["field:0", "hand:0", "hand:4"]);
    const card = root.querySelector('.pick[data-target="hand:0"]')!;
    expect(card.getAttribute("aria-pressed")).toBe("true");
    expect(card.querySelector(".ring.chosen")).not.toBeNull();
    // the other card only changes the choice: marked less than the adventurer to click now
    expect(root.querySelector('.pick[data-target="hand:4"]')!.classList.contains("again")).toBe(true);
    expect(root.querySelector('.pick[data-target="field:0"]')!.classList.contains("again")).toBe(false);
    const label = root.querySelector('.pick[data-target="field:0"]')!.getAttribute("aria-label") ?? "";
    expect(label).toContain("stairs");
    for (const target of ["hand:4", "hand:0", "field:0"]) {
      root.querySelector(`.pick[data-target="${target}"]`)!.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    }
    expect(picks).toEqual(["hand:4", "hand:0", "field:0"]);
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

  for (const name of ["horus-spectator", "horus-act", "horus-end", "horus-cards", "horus-lock", "horus-sarcophagus"]) {
    test(`${name}: adventurers and mummies sharing a square stand apart, no piece covers another`, () => {
      const { root, fixture } = render(name);
      const spots = piecesOf(root, ".piece, .mummy");
      const inside = fixture.view.players.filter((p: any) => p.status_id === 1).length;
      expect(spots.length).toBe(inside + fixture.view.mummies.length);
      expectApart(spots);
    });
  }

  test("the fixtures have squares shared by pieces", () => {
    // the spectator's position has squares shared by two adventurers and by a mummy and one
    const { fixture } = render("horus-spectator");
    const squares = [...fixture.view.players.filter((p: any) => p.status_id === 1).map((p: any) => p.square),
      ...fixture.view.mummies.map((m: any) => m.square)];
    expect(new Set(squares).size).toBeLessThan(squares.length);
  });

  test("mummies, alcoves and sarcophagi are glyphs that say what they are", () => {
    const { root, fixture } = render("horus-spectator");
    // no name initials on a mummy, no god letters on a sarcophagus or an alcove
    for (const m of root.querySelectorAll(".mummy")) {
      expect(m.querySelector("[data-glyph='mummy']")).not.toBeNull();
      expect([...m.querySelectorAll("text")].every((e) => /^\d$/.test(e.textContent ?? ""))).toBe(true);
    }
    expect(root.querySelectorAll(".sarcophagus text, .alcove text").length).toBe(0);
    const first = fixture.view.mummies[0];
    const tip = root.querySelector(".mummy title")!.textContent!;
    expect(tip.startsWith(`Mummy ${first.name}: `)).toBe(true);
    expect(tip).toMatch(/walking (north|east|south|west)|lying down/);
    const sarcs = [...root.querySelectorAll(".sarcophagus title")].map((e) => e.textContent);
    expect(sarcs).toContain("Sarcophagus of Anubis: closed");
  });

  test("each adventurer's skill says what it does, in the legend and on its player's panel", () => {
    const { root, fixture } = render("horus-spectator");
    const legend = root.querySelector("details.legend")!.textContent!;
    expect(legend).toContain("Shoot: once per game, knock down a mummy");
    const shooter = fixture.view.players.find((p: any) => p.ability === "Shoot");
    const skill = [...drawPanels("horus-spectator").root.querySelectorAll("[title]")].map((e) => e.getAttribute("title"));
    expect(skill.some((x) => x?.startsWith("Shoot: once per game"))).toBe(shooter !== undefined);
    const it = render("horus-spectator", [], "it").root;
    expect(it.querySelector("details.legend")!.textContent).toContain("Sparare: una volta per partita");
  });

  test("walls are solid and open edges dotted, as the layout says", () => {
    const { root, fixture } = render("horus-act");
    const walls = fixture.layout.edges.filter((e: any) => e.kind === "wall").length;
    expect(root.querySelectorAll("line.wall").length).toBe(walls);
    expect(root.querySelectorAll("line.open").length).toBe(fixture.layout.edges.length - walls);
  });

  test("another seat's face-down cards show only their backs, in its panel", () => {
    const { root, fixture } = drawPanels("horus-spectator");
    const backs = fixture.view.players.reduce(
      (n: number, p: any) => n + Object.keys(p.face_down).length,
      0,
    );
    expect(backs).toBeGreaterThan(0);
    expect(root.querySelectorAll(".item.unknown:not([aria-label^='Bag'])").length).toBe(backs);
    // what is face down says neither its name nor its value
    for (const p of fixture.view.players) {
      const text = root.querySelector(`[data-seat="${p.seat}"]`)!.innerHTML;
      expect(text).not.toMatch(/treasure \(\d+\)/);
    }
  });
});
