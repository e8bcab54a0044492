/**
 * A finished match's analysis as the server keeps it (`necropolis analyse --json`'s
 * object, docs/analysis.md), and what the page draws from it: each seat's line of chances
 * along the match, the decisions' marks by log index, and the step nearest a point of the
 * graph. Pure functions, so that they are tested without a page.
 */
import type { ActionInfo, HintUse, LogEntry } from "./protocol";

export type Mark = "inaccuracy" | "mistake" | "blunder";

export interface Decision {
  index: number;
  seat: number;
  action: number;
  chance: number;
  best: number;
  best_action: number;
  loss: number;
  choices: number;
  mark: Mark | null;
  played: ActionInfo;
  preferred: ActionInfo | null;
}

export interface Moment {
  index: number;
  before: number;
  after: number;
  swing: number;
  cause: "decision" | "move" | "chance";
  actor: number | null;
  entries: LogEntry[];
  preferred: ActionInfo | null;
}

export interface SeatFigures {
  seat: number;
  start: number;
  result: number;
  decisions: number;
  luck: number;
  mean_loss: number;
  accuracy: number;
  marks: Record<Mark, number>;
  moments: Moment[];
}

export interface Explained {
  game: string;
  depth: { worlds: number; rollout: number; plans: number; seed: number };
  judge: string;
  marks: Record<Mark, number>;
  /** [moment][seat]: moment 0 is before the first action, moment k after action k - 1. */
  chances: number[][];
  decisions: Decision[];
  seats: SeatFigures[];
}

/** The symbols chess players read a mark by. */
export const MARK_SIGN: Record<Mark, string> = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/** Each marked decision by the log index of its action: the seat and its mark. */
export function marksByIndex(explained: Explained | null): Map<number, { seat: number; mark: Mark }> {
  const out = new Map<number, { seat: number; mark: Mark }>();
  for (const d of explained?.decisions ?? []) {
    if (d.mark) out.set(d.index, { seat: d.seat, mark: d.mark });
  }
  return out;
}

/** The SVG path of one seat's chances on a graph ``width`` × ``height`` (chance 1 at the top). */
export function linePath(explained: Explained, seat: number, width: number, height: number): string {
  const rows = explained.chances;
  const last = Math.max(1, rows.length - 1);
  return rows
    .map((row, k) => `${k ? "L" : "M"}${((k / last) * width).toFixed(1)},${((1 - row[seat]) * height).toFixed(1)}`)
    .join(" ");
}

/** Where moment ``k`` of seat ``seat`` lies on such a graph. */
export function pointAt(explained: Explained, k: number, seat: number, width: number, height: number): { x: number; y: number } {
  const last = Math.max(1, explained.chances.length - 1);
  return { x: (k / last) * width, y: (1 - explained.chances[k][seat]) * height };
}

/** The moment (a replay's step) nearest ``x`` on a graph ``width`` wide. */
export function stepAt(explained: Explained, x: number, width: number): number {
  const last = Math.max(0, explained.chances.length - 1);
  return Math.min(last, Math.max(0, Math.round((x / width) * last)));
}

/** A chance as the page writes it: a whole percentage. */
export function percent(chance: number): string {
  return `${Math.round(chance * 100)}%`;
}

/** Points of chance, signed, one decimal ("+12.5", "−3.0"). */
export function points(swing: number): string {
  const value = (swing * 100).toFixed(1);
  return swing > 0 ? `+${value}` : value.replace("-", "−");
}

/**
 * The log with a line for every hint asked (the state's `hints_used`), each before the
 * entries of the action that followed it; hints older than ``from`` (the oldest entry the
 * page holds) wait for their page.
 */
export function hintEntries(log: LogEntry[], used: HintUse[] | undefined, from = 0): LogEntry[] {
  const notes: LogEntry[] = (used ?? [])
    .filter((u) => u.index >= from)
    .map((u) => ({ index: u.index, kind: "hint_used", seat: u.seat, params: {}, text: "" }));
  if (!notes.length) return log;
  const out: LogEntry[] = [];
  let k = 0;
  for (const entry of log) {
    while (k < notes.length && notes[k].index <= entry.index) out.push(notes[k++]);
    out.push(entry);
  }
  return [...out, ...notes.slice(k)];
}
