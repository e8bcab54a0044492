import { describe, expect, it } from "vitest";
import { hintEntries, linePath, marksByIndex, percent, pointAt, points, stepAt, type Explained } from "./analysis";

const played = { action: 1, kind: "do", params: {}, targets: [], text: "" };
const explained: Explained = {
  game: "luxor2001",
  depth: { worlds: 32, rollout: 0, plans: 256, seed: 0 },
  judge: "estimate",
  marks: { inaccuracy: 0.05, mistake: 0.1, blunder: 0.2 },
  chances: [
    [0.5, 0.5],
    [0.6, 0.4],
    [0.2, 0.8],
    [0, 1],
  ],
  decisions: [
    { index: 1, seat: 0, action: 1, chance: 0.2, best: 0.6, best_action: 2, loss: 0.4, choices: 3, mark: "blunder", played, preferred: played },
    { index: 2, seat: 1, action: 1, chance: 1, best: 1, best_action: 1, loss: 0, choices: 2, mark: null, played, preferred: null },
  ],
  seats: [],
};

describe("analysis", () => {
  it("marks the marked decisions by their log index, with their seat", () => {
    const marks = marksByIndex(explained);
    expect([...marks.entries()]).toEqual([[1, { seat: 0, mark: "blunder" }]]);
    expect(marksByIndex(null).size).toBe(0);
  });

  it("draws a seat's line across the graph, chance 1 at the top", () => {
    expect(linePath(explained, 1, 300, 100)).toBe("M0.0,50.0 L100.0,60.0 L200.0,20.0 L300.0,0.0");
    expect(pointAt(explained, 2, 0, 300, 100)).toEqual({ x: 200, y: 80 });
  });

  it("finds the step nearest a click, within the match", () => {
    expect(stepAt(explained, 0, 300)).toBe(0);
    expect(stepAt(explained, 140, 300)).toBe(1);
    expect(stepAt(explained, 160, 300)).toBe(2);
    expect(stepAt(explained, 999, 300)).toBe(3);
    expect(stepAt(explained, -5, 300)).toBe(0);
  });

  it("writes chances and swings as people read them", () => {
    expect(percent(0.456)).toBe("46%");
    expect(points(0.125)).toBe("+12.5");
    expect(points(-0.03)).toBe("−3.0");
    expect(points(0)).toBe("0.0");
  });
});

describe("hints in the log", () => {
  const entry = (index: number) => ({ index, kind: "x", seat: 0, params: {}, text: "" });
  it("puts each hint before the entries of the action that followed it", () => {
    const log = [entry(3), entry(4), entry(4), entry(6)];
    const merged = hintEntries(log, [{ seat: 1, index: 4 }, { seat: 0, index: 7 }], 3);
    expect(merged.map((e) => `${e.kind}@${e.index}`)).toEqual(["x@3", "hint_used@4", "x@4", "x@4", "x@6", "hint_used@7"]);
    expect(merged[1].seat).toBe(1);
  });
  it("leaves hints older than the entries held for their page", () => {
    expect(hintEntries([entry(5)], [{ seat: 0, index: 2 }], 5)).toEqual([entry(5)]);
    expect(hintEntries([entry(5)], undefined)).toEqual([entry(5)]);
  });
});
