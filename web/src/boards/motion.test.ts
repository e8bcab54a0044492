// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { changes, drawings, glide, mark, markLast, motion, setMotion, shortestWay, type Point } from "./motion";

function prefersReducedMotion(reduce: boolean) {
  vi.stubGlobal("matchMedia", (query: string) => ({ matches: reduce && query.includes("reduce"), media: query }));
}

afterEach(() => vi.unstubAllGlobals());

describe("motion", () => {
  it("moves pieces within the pace, and not at all for reduced motion or the instant speed", () => {
    prefersReducedMotion(false);
    setMotion(850);
    expect(motion.ms).toBeGreaterThan(0);
    expect(motion.ms).toBeLessThan(850);
    setMotion(0);
    expect(motion.ms).toBe(0);
    prefersReducedMotion(true);
    setMotion(850);
    expect(motion.ms).toBe(0);
  });

  it("marks the pieces an event changed, added ones too, and clears the marks after", () => {
    const root = document.createElement("div");
    root.innerHTML = `<svg><g data-piece="a" style="transform: translate(1px, 2px)"></g><g data-piece="b"><text>3</text></g></svg>`;
    const before = drawings(root);
    root.querySelector("[data-piece=a]")!.setAttribute("style", "transform: translate(5px, 2px)");
    root.querySelector("svg")!.insertAdjacentHTML("beforeend", `<g data-piece="c"></g>`);
    expect(mark(root, before)).toBe(2);
    expect([...root.querySelectorAll("[data-lit]")].map((e) => e.getAttribute("data-piece"))).toEqual(["a", "c"]);
    // The marks themselves are no change: the next event compares the drawings alone.
    const now = drawings(root);
    expect(mark(root, now)).toBe(0);
    expect(mark(root, null)).toBe(0);
    expect(root.querySelectorAll("[data-lit]")).toHaveLength(0);
  });

  it("marks each seat's last move in its colour, a mark that is no change of the drawing", () => {
    const root = document.createElement("div");
    root.innerHTML = `<svg><g data-piece="a" style="transform: translate(1px, 2px)"></g><g data-piece="b"></g><g data-piece="c"></g></svg>`;
    const before = drawings(root);
    root.querySelector("[data-piece=a]")!.setAttribute("style", "transform: translate(9px, 2px)");
    root.querySelector("[data-piece=c]")!.innerHTML = "<circle r='2'></circle>";
    const moved = changes(before, drawings(root));
    expect(moved).toEqual(["a", "c"]);
    markLast(root, new Map([["a", 1], ["c", null]]), (seat) => ["red", "blue"][seat]);
    const a = root.querySelector<SVGElement>("[data-piece=a]")!;
    expect(a.getAttribute("data-last")).toBe("1");
    expect(a.style.getPropertyValue("--last")).toBe("blue");
    expect(root.querySelector("[data-piece=c]")!.getAttribute("data-last")).toBe("");
    expect(root.querySelector("[data-piece=b]")!.hasAttribute("data-last")).toBe(false);
    // the marks change no drawing; cleared, they are gone
    expect(changes(drawings(root), drawings(root))).toEqual([]);
    const marked = drawings(root);
    markLast(root, new Map(), () => "");
    expect(changes(marked, drawings(root))).toEqual([]);
    expect(root.querySelectorAll("[data-last]")).toHaveLength(0);
    expect(a.getAttribute("style")).toContain("translate(9px");
  });

  it("walks a piece through every field on its way, and jumps when motion is off", () => {
    prefersReducedMotion(false);
    setMotion(850);
    const node = document.createElementNS("http://www.w3.org/2000/svg", "g");
    const animate = vi.fn();
    (node as any).animate = animate;
    const route = (from: number, to: number): Point[] => Array.from({ length: Math.max(0, to - from - 1) }, (_, k) => [(from + k + 1) * 10, 0]);
    const action = glide(node, { x: 30, y: 0, at: 3, route });
    action.update({ x: 60, y: 0, at: 6, route });
    expect(animate).toHaveBeenCalledTimes(1);
    const frames = animate.mock.calls[0][0].map((f: { transform: string }) => f.transform);
    expect(frames).toEqual(["translate(30px, 0px)", "translate(40px, 0px)", "translate(50px, 0px)", "translate(60px, 0px)"]);
    setMotion(0);
    action.update({ x: 90, y: 0, at: 9, route });
    expect(animate).toHaveBeenCalledTimes(1);
    // A piece that newly stands somewhere (it left a stack) walks from where it left.
    setMotion(850);
    const fresh = document.createElementNS("http://www.w3.org/2000/svg", "g");
    (fresh as any).animate = animate;
    glide(fresh, { x: 30, y: 0, at: 3, route, origin: [10, 0], from: 1 });
    expect(animate.mock.calls[1][0].map((f: { transform: string }) => f.transform)).toEqual(["translate(10px, 0px)", "translate(20px, 0px)", "translate(30px, 0px)"]);
  });
});

describe("shortestWay", () => {
  // A 3×3 grid, places 0..8 row by row, with a wall between 1 and 4 and between 4 and 7.
  //   0 1 2
  //   3 4 5
  //   6 7 8
  const edges: [number, number][] = [[0, 1], [1, 2], [3, 4], [4, 5], [6, 7], [7, 8], [0, 3], [3, 6], [2, 5], [5, 8]];
  it("passes the places between, in order, around walls", () => {
    expect(shortestWay(edges, 1, 7)).toEqual([0, 3, 6]);
    expect(shortestWay(edges, 4, 4)).toEqual([]);
    expect(shortestWay(edges, 3, 5)).toEqual([4]);
  });
  it("goes around closed places, and gives nothing where there is no way", () => {
    expect(shortestWay(edges, 3, 5, new Set([4]))).toEqual([0, 1, 2]);
    expect(shortestWay(edges, 0, 8, new Set([1, 3]))).toEqual([]);
    // the place it goes to may itself be closed (a piece may stand on it)
    expect(shortestWay(edges, 3, 4, new Set([4]))).toEqual([]);
    expect(shortestWay(edges, 0, 4, new Set([4]))).toEqual([3]);
  });
});
