/**
 * A timed table's clocks (docs/protocol.md, "Clocks and deadlines"): what a `state`
 * brings, counted down on the page from the moment it arrived (the server measured each
 * seat's time as the message left, so the page needs no agreement with the server's own
 * clock), and written as a person reads a clock: 9:41 under an hour, then hours and
 * minutes, then days and hours.
 */

import type { ClockSettings, ClockState, SeatClock } from "./protocol";

export type { ClockSettings, ClockState, SeatClock };
export type ClockMode = NonNullable<ClockSettings["mode"]>;
export type ClockRule = ClockState["rule"];

/** A seat's seconds left at `now` (ms), its clock received at `receivedAt` (ms). */
export function leftNow(clock: SeatClock, receivedAt: number, now: number): number | null {
  if (clock.left === null) return null;
  return clock.running ? Math.max(0, clock.left - Math.max(0, now - receivedAt) / 1000) : clock.left;
}

/** The parts of a time to write: whole days and hours, hours and minutes, or m:ss. */
export type Span = { kind: "days"; d: number; h: number } | { kind: "hours"; h: number; m: number } | { kind: "minutes"; text: string };

export function span(seconds: number): Span {
  // Up to the next whole second: "0:00" shows only once the time is out.
  const s = Math.max(0, Math.ceil(seconds - 1e-9));
  if (s >= 86400) return { kind: "days", d: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600) };
  if (s >= 3600) return { kind: "hours", h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) };
  return { kind: "minutes", text: `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}` };
}

/** Whether a running seat's time is nearly out (the page shows it in alarm). */
export function short(seconds: number, clock: ClockState): boolean {
  const whole = clock.mode === "turn" ? clock.turn : clock.base;
  return seconds <= Math.min(30, whole / 10);
}

/** The lobby's choices. */
export const BASE_MINUTES = [1, 3, 5, 10, 15, 30, 60];
export const INCREMENT_SECONDS = [0, 2, 5, 10, 20, 30, 60];
export const TURN_SECONDS = [3600, 4 * 3600, 12 * 3600, 86400, 2 * 86400, 3 * 86400, 7 * 86400];
