/**
 * What the three game boards share: the seat colours and the shapes that tell seats apart
 * without colour, the rule that turns the seat's legal decisions into the targets a click
 * may pick next, and the translation of the data file's component ids.
 */
import { inOrder, nextOf, type AnyOrder } from "../lib/choices";
import type { ActionInfo } from "./types";

/** Okabe–Ito, seat 0..5: the same colours as the terminal and every other screen. */
export const SEAT_COLOURS = ["#E69F00", "#56B4E9", "#009E73", "#D55E00", "#0072B2", "#CC79A7"];

/** The second cue beside the colour, so that colour-blind players can tell seats apart. */
export const SEAT_SHAPES = ["circle", "square", "triangle", "diamond", "pentagon", "hexagon"] as const;

export function seatColour(seat: number): string {
  return SEAT_COLOURS[seat % SEAT_COLOURS.length];
}

/** An SVG path of the seat's shape, centred on (cx, cy), fitting a circle of radius r. */
export function seatShapePath(seat: number, cx: number, cy: number, r: number): string {
  const shape = SEAT_SHAPES[seat % SEAT_SHAPES.length];
  if (shape === "circle") {
    return `M ${cx - r} ${cy} a ${r} ${r} 0 1 0 ${2 * r} 0 a ${r} ${r} 0 1 0 ${-2 * r} 0 Z`;
  }
  if (shape === "square") {
    const h = r * 0.82;
    return `M ${cx - h} ${cy - h} H ${cx + h} V ${cy + h} H ${cx - h} Z`;
  }
  const corners = { triangle: 3, diamond: 4, pentagon: 5, hexagon: 6 }[shape];
  // the triangle sits a little low and large so that it looks centred and as big as the rest
  const rr = shape === "triangle" ? r * 1.15 : r;
  const dy = shape === "triangle" ? r * 0.2 : 0;
  const points: string[] = [];
  for (let i = 0; i < corners; i++) {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / corners;
    points.push(`${(cx + rr * Math.cos(a)).toFixed(2)} ${(cy + dy + rr * Math.sin(a)).toFixed(2)}`);
  }
  return `M ${points.join(" L ")} Z`;
}

/**
 * The targets a click may pick next, each with the decisions it leads on to: for every
 * decision whose targets begin with `picked`, its target at position `picked.length`
 * (or, for targets the board picks in any order, each of its run's members not picked).
 */
export function nextTargets(actions: ActionInfo[], picked: string[], anyOrder: AnyOrder = inOrder): Map<string, ActionInfo[]> {
  const next = new Map<string, ActionInfo[]>();
  for (const a of actions) {
    for (const target of nextOf(a.targets, picked, anyOrder) ?? []) {
      const list = next.get(target);
      if (list) list.push(a);
      else next.set(target, [a]);
    }
  }
  return next;
}

export type Translate = (key: string, params?: Record<string, unknown>) => string;

/**
 * The accessible name of a target: the decision's own sentence (in the reader's language)
 * when this click completes exactly one decision (or the one chained choice through it),
 * else the board's name for the thing.
 */
export function targetLabel(t: Translate, name: string, leadsTo: ActionInfo[] | undefined, picked: string[]): string {
  // (a chained choice is sent by the click that leaves it alone, its landing still unpicked)
  if (leadsTo && leadsTo.length === 1 && (leadsTo[0].targets.length === picked.length + 1 || leadsTo[0].via)) {
    const a = leadsTo[0];
    const said = (s: { kind: string; params: Record<string, unknown>; text: string }) => {
      const text = t(s.kind, s.params);
      return text && text !== s.kind ? text : s.text;
    };
    // a choice that goes on (a card and its move) is said by the way it goes on
    return a.via && a.via.actions.length ? `${said(a)} → ${said(a.via)}` : said(a);
  }
  return name;
}

/** A seat's name as the table's side panel writes it, else the game's word for a player
 * and the seat's number (a board shown without the table's names). */
export function seatName(t: Translate, names: string[] | undefined, seat: number): string {
  return names?.[seat] || `${term(t, "player")} ${seat + 1}`;
}

/** A component id of the game's data file ("crocodile") in the reader's language. */
export function term(t: Translate, id: string): string {
  const key = `term.${id}`;
  const text = t(key);
  return text && text !== key ? text : id;
}

/** The id part of a "type:id" target. */
export function targetId(target: string): string {
  return target.slice(target.indexOf(":") + 1);
}

/** Targets the board has no place for (chosen from a list, not on the board): shown as buttons. */
export function unplaced(next: Map<string, ActionInfo[]>, placed: (target: string) => boolean): string[] {
  return [...next.keys()].filter((target) => !placed(target));
}

/**
 * ``text`` broken at spaces into lines of at most ``width`` characters, for labels drawn in
 * SVG, which does not wrap. A word longer than ``width`` stands on a line of its own (the
 * board narrows that line with ``textLength``).
 */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 1 + word.length <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines;
}
