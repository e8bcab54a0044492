// @vitest-environment jsdom
/**
 * Texts the boards and their panel parts write: luxor's scarab count is followed by a
 * space and then its values ("7 (2×1 2×2 …)"), never run into them ("7(2×1"); every board
 * names the seats as the table's side panel does, and a horus adventurer is shown with
 * the player who plays it (on the board, the seat's own; in the panels, each seat's).
 */
import { expect, test } from "vitest";
import { fixtures } from "./preview/fixtures";
import { draw as drawn, drawPanels } from "./preview/draw";

const draw = (name: string, names?: string[]): HTMLElement => drawn(name, { names }).root;

test.each(["luxor2001-insert", "luxor-play", "horus-act"])("%s names the seats as the side panel does", (name) => {
  const names = ["Ann", "Bo", "Cleo", "Dirk"];
  const text = (draw(name, names).textContent ?? "").replace(/\s+/g, " ");
  // (the other seats, by their pieces; the panels name every seat)
  expect(names.filter((n) => text.includes(n)).length).toBeGreaterThan(0);
  expect(text).not.toMatch(/Player \d/);
});

test("a horus adventurer is shown with its player", () => {
  const f = fixtures["horus-act"];
  const root = draw("horus-act", ["Ann", "Bo", "Cleo", "Dirk"]);
  const own = (root.querySelector("[data-testid=hand]")!.textContent ?? "").replace(/\s+/g, " ");
  const mine = f.view.players.find((p: any) => p.seat === f.seat);
  expect(own).toContain(mine.adventurer);
  expect(own).toContain(["Ann", "Bo", "Cleo", "Dirk"][f.seat!]);
  document.body.innerHTML = "";
  const panels = drawPanels("horus-act").root;
  for (const p of f.view.players) expect(panels.querySelector(`[data-seat="${p.seat}"]`)!.textContent).toContain(p.adventurer);
});

test("luxor's scarabs: the count, a space, then the values", () => {
  const f = fixtures["luxor-end"];
  const panels = drawPanels("luxor-end").root;
  const text = (panels.querySelector(`[data-seat="${f.seat ?? 0}"]`)!.textContent ?? "").replace(/\s+/g, " ");
  expect(text).toContain("7 (2×");
  expect(panels.querySelector(`[data-seat="${f.seat ?? 0}"] [aria-label^="Scarabs"]`)!.getAttribute("aria-label")).toContain("Scarabs: 7 (2×");
  expect(text).not.toMatch(/\d\(\d/);
});

test("luxor2001 marks on the wall the pairs the rules say wait to be scored", () => {
  const f = fixtures["luxor2001-pillars"];
  const root = draw("luxor2001-pillars");
  const marks = [...root.querySelectorAll(".pair")].map((g) => g.getAttribute("data-cells")!.split(" ").map(Number));
  expect(marks.length).toBe(f.view.pairs_pending.length);
  const fresh = [f.view.last_insert, f.view.last_insert + f.layout.shafts];
  for (const [x, y] of marks) {
    expect(fresh.includes(x) || fresh.includes(y)).toBe(true);
    // the two cells show one animal, in the facings of a pending pair's kind
    expect(f.view.wall[x] >> 1).toBe(f.view.wall[y] >> 1);
  }
  const kinds = marks.map(([x, y]) => 2 * (f.view.wall[x] >> 1) + (f.view.wall[x] === f.view.wall[y] ? 1 : 0)).sort();
  expect(kinds).toEqual([...f.view.pairs_pending].sort());
  // the cells are those the rules said (their pairs_waiting event), not worked out again
  const waiting = f.events!.find((e) => e.type === "pairs_waiting")!.pairs as number[][];
  expect(marks).toEqual(waiting.map((p) => [p[2], p[3]]));
  // nothing is marked once no pair waits
  document.body.innerHTML = "";
  expect(draw("luxor2001-insert").querySelectorAll(".pair").length).toBe(0);
});
