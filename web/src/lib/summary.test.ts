// @vitest-environment jsdom
/**
 * The end-of-match summary: seats tied on points and tiebreaks share their place, the next
 * place counts them, and a part's points are said once: by its sentence, or else in a column.
 */
import { flushSync, mount, unmount } from "svelte";
import { afterEach, expect, test } from "vitest";
import Summary from "./Summary.svelte";
import type { SeatScore } from "./protocol";
import { loadGameTexts } from "./i18n.svelte";

let mounted: Record<string, any>[] = [];
afterEach(() => {
  for (const c of mounted) unmount(c);
  mounted = [];
  document.body.innerHTML = "";
});

const seat = (n: number, total: number, tie = 0): SeatScore => ({
  seat: n,
  total,
  parts: [{ kind: "score_track", params: { points: total }, points: total, text: `Treasures taken during play: ${total} points` }],
  tiebreak: [{ kind: "tiebreak_sarcophagus", value: tie, text: `Most valuable sarcophagus: ${tie}` }],
});

function show(breakdown: SeatScore[], game = "luxor", winners?: number[]): HTMLElement {
  const target = document.createElement("div");
  document.body.appendChild(target);
  const noop = () => {};
  mounted.push(
    mount(Summary, {
      target,
      props: { breakdown, winners, reader: { game, viewer: null, names: [], english: {} }, names: [null, null, null, null], creator: false, onrematch: noop, onreplay: noop, ondownload: noop },
    }),
  );
  flushSync();
  return target;
}

test("tied seats share a place and the next place counts them", () => {
  const el = show([seat(0, 10), seat(1, 25, 3), seat(2, 25, 3), seat(3, 7)]);
  const rows = [...el.querySelectorAll("h3")].map((h) => h.textContent!.replace(/\s+/g, " ").trim());
  expect(rows).toEqual(["1. Player 2 25", "1. Player 3 25", "3. Player 1 10", "4. Player 4 7"]);
  expect(el.querySelector(".winner")!.textContent).toContain("Player 2, Player 3");
});

test("a tiebreak separates seats with the same points", () => {
  const el = show([seat(0, 25, 5), seat(1, 25, 3)]);
  const rows = [...el.querySelectorAll("h3")].map((h) => h.textContent!.replace(/\s+/g, " ").trim());
  expect(rows).toEqual(["1. Player 1 25", "2. Player 2 25"]);
});

test("a part's points are said once", () => {
  const el = show([seat(0, 25, 5)]);
  const first = el.querySelector("tbody tr")!;
  expect(first.textContent!.replace(/\s+/g, " ").trim()).toBe("Treasures taken during play: 25 points");
  const tie = el.querySelector("tfoot tr.muted")!;
  expect(tie.textContent!.replace(/\s+/g, " ").trim()).toBe("Most valuable sarcophagus: 5");
});

test("a part whose sentence does not say its points has them in a column", async () => {
  const sarcophagus = { kind: "part_sarcophagus", params: { eyes: 3, points: 3 }, points: 3, text: "Sarcophagus of 3 eyes" };
  const pharaoh = { kind: "part_pharaoh_bonus", params: { animal: "camel" }, points: 7, text: "Pharaoh card (camel) with a researcher at its pillar" };
  await loadGameTexts("luxor2001");
  const none = { kind: "part_pharaoh_none", params: { animal: "cat" }, points: 0, text: "Pharaoh card (cat) without a researcher at its pillar" };
  const el = show([{ seat: 0, total: 10, parts: [sarcophagus, pharaoh, none], tiebreak: [] }], "luxor2001");
  const rows = [...el.querySelectorAll("tbody tr")].map((r) => [...r.querySelectorAll("td")].map((c) => c.textContent!.trim()));
  expect(rows).toEqual([
    ["Sarcophagus of 3 eyes", "3"],
    ["Pharaoh card (camel) with a researcher at its pillar", "7"],
    ["Pharaoh card (cat) without a researcher at its pillar"],
  ]);
});

test("the game's winners come first, whatever the points (horus: only who got out wins)", () => {
  const el = show([seat(0, 12), seat(1, 4), seat(2, 0)], "horus", [1]);
  const rows = [...el.querySelectorAll("h3")].map((h) => h.textContent!.replace(/\s+/g, " ").trim());
  expect(rows).toEqual(["1. Player 2 4", "2. Player 1 12", "3. Player 3 0"]);
  expect(el.querySelector(".winner")!.textContent!.trim()).toBe("Winner: Player 2");
});

test("a match nobody won names no winner", () => {
  const el = show([seat(0, 0), seat(1, 0)], "horus", []);
  expect(el.querySelector(".winner")!.textContent!.trim()).toBe("Nobody won.");
  expect(el.querySelectorAll("article.top")).toHaveLength(0);
});
