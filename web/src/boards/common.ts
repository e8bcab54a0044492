/**
 * What the three game boards share: the seat colours and the shapes that tell seats apart
 * without colour, and the rule that turns the seat's legal decisions into the targets a
 * click may pick next.
 */
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
  const points: string[] = [];
  for (let i = 0; i < corners; i++) {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / corners;
    // the triangle sits a little low so that it looks centred
    const dy = shape === "triangle" ? r * 0.2 : 0;
    points.push(`${(cx + r * Math.cos(a)).toFixed(2)} ${(cy + dy + r * Math.sin(a)).toFixed(2)}`);
  }
  return `M ${points.join(" L ")} Z`;
}

/**
 * The targets a click may pick next, each with the decisions it leads on to: for every
 * decision whose targets begin with `picked`, its target at position `picked.length`.
 */
export function nextTargets(actions: ActionInfo[], picked: string[]): Map<string, ActionInfo[]> {
  const next = new Map<string, ActionInfo[]>();
  for (const a of actions) {
    if (a.targets.length <= picked.length) continue;
    if (!picked.every((p, i) => a.targets[i] === p)) continue;
    const target = a.targets[picked.length];
    const list = next.get(target);
    if (list) list.push(a);
    else next.set(target, [a]);
  }
  return next;
}

/**
 * The accessible name of a target: the decision's own sentence when the click completes
 * exactly one decision, else the board's name for the thing with how many choices follow.
 */
export function targetLabel(name: string, leadsTo: ActionInfo[] | undefined, last: boolean): string {
  if (leadsTo && leadsTo.length === 1 && last) return leadsTo[0].text;
  return name;
}

/** The id part of a "type:id" target. */
export function targetId(target: string): string {
  return target.slice(target.indexOf(":") + 1);
}
