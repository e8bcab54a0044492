import { describe, expect, it } from "vitest";
import { leftNow, short, span, type ClockState, type SeatClock } from "./clock";

const seat = (left: number | null, running: boolean): SeatClock => ({ seat: 0, left, running, deadline: null, timeouts: 0 });

describe("clocks on the page", () => {
  it("count a running seat down from when its state arrived, and hold the others", () => {
    expect(leftNow(seat(100, true), 5_000, 7_500)).toBeCloseTo(97.5);
    expect(leftNow(seat(100, false), 5_000, 60_000)).toBe(100);
    expect(leftNow(seat(1, true), 0, 10_000)).toBe(0);
    expect(leftNow(seat(null, false), 0, 1)).toBeNull();
  });

  it("write minutes and seconds, then hours and minutes, then days and hours", () => {
    expect(span(0)).toEqual({ kind: "minutes", text: "0:00" });
    expect(span(0.2)).toEqual({ kind: "minutes", text: "0:01" });
    expect(span(581.3)).toEqual({ kind: "minutes", text: "9:42" });
    expect(span(3599)).toEqual({ kind: "minutes", text: "59:59" });
    expect(span(3600 + 125)).toEqual({ kind: "hours", h: 1, m: 2 });
    expect(span(3 * 86400 - 1)).toEqual({ kind: "days", d: 2, h: 23 });
  });

  it("call a clock short in its last tenth, at most its last half minute", () => {
    const clock = { mode: "realtime", base: 600, turn: 86400 } as ClockState;
    expect(short(30, clock)).toBe(true);
    expect(short(31, clock)).toBe(false);
    expect(short(5, { ...clock, base: 60 })).toBe(true);
    expect(short(7, { ...clock, base: 60 })).toBe(false);
  });
});
