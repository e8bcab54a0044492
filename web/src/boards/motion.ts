/**
 * How pieces move on the boards while other seats' moves are played one at a time
 * (lib/playback.ts): a card drops down its shaft, a block falls, a die rolls, a piece
 * walks field by field, something new arrives; and the marking of what an event changed.
 * Every length comes from `motion.ms`, which the table sets from the chosen speed: 0
 * (speed "instant", or a person who asked for reduced motion) means no movement at all.
 * The boards use these as Svelte transitions and actions on their pieces; what changed is
 * found by comparing the pieces' drawings (`data-piece` marks a piece and names it).
 */
import { cubicIn, cubicOut } from "svelte/easing";
import type { TransitionConfig } from "svelte/transition";

/** The length of one movement in milliseconds (0: none). */
export const motion = { ms: 400 };

/** Whether the person asked the system for reduced motion. */
export function reducedMotion(): boolean {
  return typeof window !== "undefined" && typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Set the movements' length for a pace (how long each event is shown), 0 for none. */
export function setMotion(pace: number): void {
  motion.ms = reducedMotion() ? 0 : Math.round(Math.min(450, pace * 0.6));
}

/** A card or block coming down from `dy` units above its place. */
export function drop(_node: Element, { dy }: { dy: number }): TransitionConfig {
  return { duration: motion.ms, easing: cubicIn, css: (t) => `transform: translate(0px, ${(-(1 - t) * dy).toFixed(2)}px)` };
}

/** Something that comes to a seat or a place (a sarcophagus changing hands, a researcher). */
export function arrive(_node: Element): TransitionConfig {
  return {
    duration: motion.ms,
    easing: cubicOut,
    css: (t) => `opacity: ${t}; transform: scale(${(1.6 - 0.6 * t).toFixed(3)}); transform-box: fill-box; transform-origin: center;`,
  };
}

/** A die tumbling before it shows its face. */
export function roll(_node: Element): TransitionConfig {
  return {
    duration: motion.ms,
    easing: cubicOut,
    css: (t) => `transform: rotate(${((1 - t) * 540).toFixed(1)}deg) scale(${(0.6 + 0.4 * t).toFixed(3)}); transform-box: fill-box; transform-origin: center;`,
  };
}

export type Point = [number, number];
export interface GlideTo {
  x: number;
  y: number;
  /** Where the piece stands (a field's number): with `route`, the way it walks. */
  at?: number;
  /** The points passed on the way from one place to another, in order. */
  route?: (from: number, to: number) => Point[];
  /** A piece that appears where it arrived walks from `origin` (the place `from`). */
  origin?: Point;
  from?: number;
}

/**
 * The places passed, in order, on a shortest way from `from` to `to` over a board's
 * open edges (pairs of neighbouring places), not through the `closed` ones (fallen
 * blocks, say): `from` and `to` themselves are left out. A board whose pieces move over
 * a grid, not along a path, draws a move's walk with it. No way at all: no places, and
 * the piece goes straight there.
 */
export function shortestWay(edges: Iterable<readonly [number, number]>, from: number, to: number, closed: ReadonlySet<number> = new Set()): number[] {
  if (from === to) return [];
  const next = new Map<number, number[]>();
  const join = (a: number, b: number) => {
    const list = next.get(a);
    if (list) list.push(b);
    else next.set(a, [b]);
  };
  for (const [a, b] of edges) {
    join(a, b);
    join(b, a);
  }
  const came = new Map<number, number>([[from, from]]);
  const queue = [from];
  for (let i = 0; i < queue.length && !came.has(to); i++) {
    for (const place of next.get(queue[i]) ?? []) {
      if (came.has(place) || (closed.has(place) && place !== to)) continue;
      came.set(place, queue[i]);
      queue.push(place);
    }
  }
  if (!came.has(to)) return [];
  const way: number[] = [];
  for (let place = came.get(to)!; place !== from; place = came.get(place)!) way.push(place);
  return way.reverse();
}

/**
 * A piece that moves walks there: through each field of its route, one after another.
 * The board still places the piece itself (its own `transform`); this only animates the
 * way from the old place to the new one.
 */
export function glide(node: SVGElement | HTMLElement, to: GlideTo) {
  let now = to;
  const walk = (from: GlideTo, next: GlideTo) => {
    if (from.x === next.x && from.y === next.y) return;
    if (motion.ms <= 0 || typeof node.animate !== "function") return;
    const via = next.route && from.at !== undefined && next.at !== undefined ? next.route(from.at, next.at) : [];
    const points: Point[] = [[from.x, from.y], ...via, [next.x, next.y]];
    const frames = points.map(([x, y]) => ({ transform: `translate(${x}px, ${y}px)` }));
    // Each field passed takes a share of the time: a long walk is quicker per field.
    const duration = motion.ms * Math.min(2.5, 1 + 0.25 * via.length);
    node.animate(frames, { duration, easing: "ease-in-out" });
  };
  if (to.origin) walk({ x: to.origin[0], y: to.origin[1], at: to.from }, to);
  return {
    update(next: GlideTo) {
      const from = now;
      now = next;
      walk(from, next);
    },
  };
}

/** The attributes the marks set: no part of a piece's drawing. */
const MARKS = ["data-lit", "data-last"];

/**
 * The drawing of every piece under `root` (`data-piece` names it), to compare after the
 * next event: `mark` then flags each piece that is new or drawn differently.
 */
export function drawings(root: Element): Map<string, string> {
  const out = new Map<string, string>();
  for (const el of root.querySelectorAll<Element>("[data-piece]")) {
    const key = el.getAttribute("data-piece") ?? "";
    const copy = el.cloneNode(true) as Element;
    for (const attr of MARKS) {
      for (const lit of [copy, ...copy.querySelectorAll(`[${attr}]`)]) {
        lit.removeAttribute(attr);
        (lit as HTMLElement).style?.removeProperty("--last");
        if (lit.getAttribute("style") === "") lit.removeAttribute("style");
      }
    }
    out.set(key, (out.get(key) ?? "") + copy.outerHTML);
  }
  return out;
}

/** Flag (`data-lit`) the pieces whose drawing differs from `before`; clear the others. */
export function mark(root: Element, before: Map<string, string> | null): number {
  const after = drawings(root);
  let count = 0;
  for (const el of root.querySelectorAll<Element>("[data-piece]")) {
    const key = el.getAttribute("data-piece") ?? "";
    const changed = before !== null && before.get(key) !== after.get(key);
    if (changed) {
      el.setAttribute("data-lit", "");
      count++;
    } else el.removeAttribute("data-lit");
  }
  return count;
}

/** The pieces drawn differently in `after` than in `before` (new ones too, not gone ones). */
export function changes(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after.keys()].filter((key) => before.get(key) !== after.get(key));
}

/**
 * Mark each other seat's last move on the board once the moves are shown: every piece it
 * changed (`last`: the piece's name → the seat, or null when several seats' moves changed
 * it at once) gets `data-last`, and its seat's colour as `--last`; every other piece's
 * mark is cleared.
 */
export function markLast(root: Element, last: ReadonlyMap<string, number | null>, colour: (seat: number) => string): void {
  for (const el of root.querySelectorAll<HTMLElement | SVGElement>("[data-piece]")) {
    const key = el.getAttribute("data-piece") ?? "";
    const seat = last.get(key);
    if (seat === undefined) {
      el.removeAttribute("data-last");
      el.style.removeProperty("--last");
    } else {
      el.setAttribute("data-last", seat === null ? "" : String(seat));
      if (seat !== null) el.style.setProperty("--last", colour(seat));
      else el.style.removeProperty("--last");
    }
  }
}
