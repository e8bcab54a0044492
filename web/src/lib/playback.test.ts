import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { defaultSpeed, PACE, Playback, type Shown, type Speed } from "./playback";
import type { Snapshot } from "./connection";
import type { LogEntry, StateMessage, Step } from "./protocol";

function entry(index: number, seat: number | null = 1): LogEntry {
  return { index, kind: "k", seat, params: {}, text: `e${index}` };
}

function state(version: number, log: LogEntry[], steps: Step[] = [], actions = 0): StateMessage {
  return {
    type: "state", protocol: 1, table: "T", version, seat: 0, status: "playing", game: "g", options: {},
    seats: [], view: { at: version }, current_player: 0, acting_seats: [0], prompt: null,
    actions: Array.from({ length: actions }, (_, i) => ({ action: i, kind: "do", params: {}, targets: [], text: "x" })),
    events: [], log, log_from: log.length ? Math.min(...log.map((e) => e.index)) : version, breakdown: [], winners: [], statistics: [], steps,
    pending: 0, pending_log: [], confirm: [], forfeits: [], hints: false, hints_used: [], again: null, clock: null,
  };
}

// A snapshot as the client keeps it: the log so far, merged.
let log: LogEntry[] = [];
function snap(s: StateMessage): Snapshot {
  const from = s.log.length ? Math.min(...s.log.map((e) => e.index)) : Infinity;
  log = [...log.filter((e) => e.index < from), ...s.log];
  return { state: s, log, status: "open", pending: false, refused: null, error: null, outdated: false, storage: false };
}

// The steps of a message covering versions from+1..to, with `by` per version.
function steps(from: number, by: (number | null)[]): Step[] {
  return by.map((b, i) => ({ version: from + 1 + i, by: b, view: i === by.length - 1 ? null : { at: from + 1 + i }, events: null }));
}

function harness(speed: Speed = "normal", own = [0]) {
  const seen: { at: number; shown: Shown }[] = [];
  let sp = speed;
  // The page draws at once here: the hold starts when the change is given.
  const drawn: (() => void)[] = [];
  const p = new Playback({
    onchange: (s) => {
      seen.push({ at: Date.now(), shown: s });
      drawn.splice(0).forEach((fn) => fn());
    },
    speed: () => sp,
    own: () => new Set(own),
    afterDraw: (fn) => drawn.push(fn),
  });
  return { p, seen, last: () => seen[seen.length - 1].shown, setSpeed: (s: Speed) => { sp = s; p.retime(); } };
}

beforeEach(() => {
  vi.useFakeTimers();
  log = [];
});
afterEach(() => vi.useRealTimers());

describe("Playback", () => {
  it("shows a page's first state at once, with its whole log", () => {
    const h = harness();
    h.p.push(snap(state(3, [entry(0), entry(1), entry(2)])));
    expect(h.last().playing).toBe(false);
    expect(h.last().log.map((e) => e.index)).toEqual([0, 1, 2]);
    expect(h.last().view).toEqual({ at: 3 });
  });

  it("shows a bot's streak one event at a time, each held for the pace", () => {
    const h = harness();
    h.p.push(snap(state(2, [entry(0), entry(1)])));
    const t0 = Date.now();
    h.p.push(snap(state(6, [entry(2, 0), entry(3), entry(4), entry(5, null)], steps(2, [0, 1, 1, null]))));
    // The seat's own move (version 3) is shown at once, and left at once for the first
    // bot move (version 4), so that the board marks only what the bot changed.
    const times: Record<number, number> = {};
    const record = () => {
      for (const { at, shown } of h.seen) if (shown.current !== null && !(shown.current in times)) times[shown.current] = at - t0;
    };
    expect(h.last().current).toBe(2);
    vi.advanceTimersByTime(0);
    record();
    expect(h.last().current).toBe(3);
    expect(h.last().view).toEqual({ at: 4 });
    expect(h.last().log.map((e) => e.index)).toEqual([0, 1, 2, 3]);
    expect(h.last().playing).toBe(true);
    expect(h.last().before).toEqual({ at: 3 });
    vi.advanceTimersByTime(PACE.normal - 1);
    expect(h.last().current).toBe(3);
    vi.advanceTimersByTime(1);
    expect(h.last().current).toBe(4);
    expect(h.last().log.map((e) => e.index)).toEqual([0, 1, 2, 3, 4]);
    vi.advanceTimersByTime(PACE.normal);
    record();
    // The last event is the newest state: playing is over (the prompt is usable), the
    // event stays marked.
    expect(h.last()).toMatchObject({ current: 5, playing: false, by: null, view: { at: 6 } });
    expect(h.last().log.map((e) => e.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(times).toEqual({ 2: 0, 3: 0, 4: PACE.normal, 5: 2 * PACE.normal });
    // Every entry was shown on its own, in order: none skipped.
    const firstShown = [0, 1, 2, 3, 4, 5].map((i) => h.seen.findIndex((s) => s.shown.log.some((e) => e.index === i)));
    expect(firstShown).toEqual([...firstShown].sort((a, b) => a - b));
  });

  it("gives the board the rules' events of the version it shows", () => {
    const h = harness();
    h.p.push(snap({ ...state(2, [entry(0), entry(1)]), events: [{ type: "first" }] }));
    expect(h.last().events).toEqual([{ type: "first" }]);
    const missed = steps(2, [1, 1]).map((s) => ({ ...s, events: [{ type: `made ${s.version}` }] }));
    h.p.push(snap({ ...state(4, [entry(2), entry(3)], missed), events: [{ type: "newest" }] }));
    expect(h.last()).toMatchObject({ current: 2, playing: true, view: { at: 3 } });
    expect(h.last().events).toEqual([{ type: "made 3" }]);
    vi.advanceTimersByTime(PACE.normal);
    expect(h.last()).toMatchObject({ current: 3, playing: false, view: { at: 4 } });
    expect(h.last().events).toEqual([{ type: "newest" }]);
  });

  it("holds an event that came alone, so that the next one, coming soon after, waits", () => {
    const h = harness();
    h.p.push(snap(state(1, [entry(0)])));
    h.p.push(snap(state(2, [entry(1)], steps(1, [1]))));
    // The newest state is on the screen: its prompt is usable, the event is marked.
    expect(h.last()).toMatchObject({ current: 1, playing: false });
    vi.advanceTimersByTime(10);
    h.p.push(snap(state(3, [entry(2)], steps(2, [2]))));
    expect(h.last()).toMatchObject({ current: 1, playing: true, view: { at: 2 } });
    expect(h.last().log.map((e) => e.index)).toEqual([0, 1]);
    vi.advanceTimersByTime(PACE.normal - 11);
    expect(h.last().current).toBe(1);
    vi.advanceTimersByTime(1);
    expect(h.last()).toMatchObject({ current: 2, playing: false, view: { at: 3 } });
  });

  it("counts an event's pace from when the page has drawn it", () => {
    const later: (() => void)[] = [];
    let last: Shown | null = null;
    const p = new Playback({ onchange: (s) => (last = s), speed: () => "normal", own: () => new Set([0]), afterDraw: (fn) => later.push(fn) });
    p.push(snap(state(1, [entry(0)])));
    p.push(snap(state(3, [entry(1), entry(2)], steps(1, [1, 1]))));
    vi.advanceTimersByTime(5 * PACE.normal); // a page too busy to draw
    expect(last!.current).toBe(1);
    later.splice(0).forEach((fn) => fn()); // drawn now
    vi.advanceTimersByTime(PACE.normal - 1);
    expect(last!.current).toBe(1);
    vi.advanceTimersByTime(1);
    expect(last!.current).toBe(2);
    // A skip while an event is being drawn leaves no hold behind.
    later.splice(0).forEach((fn) => fn());
    p.push(snap(state(5, [entry(3), entry(4)], steps(3, [1, 1]))));
    vi.advanceTimersByTime(PACE.normal);
    expect(last!.current).toBe(3);
    expect(later).toHaveLength(1);
    p.skip();
    later.splice(0).forEach((fn) => fn());
    expect(p.playing).toBe(false);
    vi.advanceTimersByTime(3 * PACE.normal);
    expect(last!).toMatchObject({ playing: false, current: null, view: { at: 5 } });
  });

  it("queues a state that arrives while another streak plays", () => {
    const h = harness("fast");
    h.p.push(snap(state(1, [entry(0)])));
    h.p.push(snap(state(3, [entry(1), entry(2)], steps(1, [1, 1]))));
    h.p.push(snap(state(4, [entry(3)], steps(3, [null]))));
    expect(h.last().current).toBe(1);
    vi.advanceTimersByTime(PACE.fast);
    expect(h.last().current).toBe(2);
    expect(h.last().playing).toBe(true);
    vi.advanceTimersByTime(PACE.fast);
    expect(h.last()).toMatchObject({ current: 3, playing: false });
  });

  it("skips to the end on request, every entry in the log at once", () => {
    const h = harness();
    h.p.push(snap(state(1, [entry(0)])));
    h.p.push(snap(state(9, [1, 2, 3, 4, 5, 6, 7, 8].map((i) => entry(i)), steps(1, [1, 1, 1, 1, 1, 1, 1, 1]), 2)));
    expect(h.last().playing).toBe(true);
    expect(h.last().queued).toBe(7);
    h.p.skip();
    expect(h.last()).toMatchObject({ playing: false, current: null, view: { at: 9 }, queued: 0 });
    expect(h.last().log).toHaveLength(9);
    expect(h.last().snap.state?.actions).toHaveLength(2);
    vi.advanceTimersByTime(10 * PACE.normal);
    expect(h.last().view).toEqual({ at: 9 }); // no stray timer brings an old view back
  });

  it("shows everything at once at the speed instant, and stops a playback switched to it", () => {
    const h = harness("instant");
    h.p.push(snap(state(1, [entry(0)])));
    h.p.push(snap(state(4, [entry(1), entry(2), entry(3)], steps(1, [1, 1, 1]))));
    expect(h.last()).toMatchObject({ playing: false, view: { at: 4 } });
    expect(h.last().log).toHaveLength(4);

    const g = harness("normal");
    log = [];
    g.p.push(snap(state(1, [entry(0)])));
    g.p.push(snap(state(4, [entry(1), entry(2), entry(3)], steps(1, [1, 1, 1]))));
    expect(g.last().playing).toBe(true);
    g.setSpeed("instant");
    expect(g.last()).toMatchObject({ playing: false, view: { at: 4 } });
    expect(g.last().log).toHaveLength(4);
  });

  it("passes at once over an event with nothing to see, and plays log entries without steps", () => {
    const h = harness();
    h.p.push(snap(state(1, [entry(0)])));
    // Version 2 has no entry for this seat and changes nothing it sees.
    const s = steps(1, [1, 1, 1]);
    s[0].view = { at: 1 };
    h.p.push(snap(state(4, [entry(2), entry(3)], s)));
    vi.advanceTimersByTime(0);
    expect(h.last().current).toBe(2);
    vi.advanceTimersByTime(PACE.normal);
    expect(h.last()).toMatchObject({ current: 3, playing: false });

    // A reconnect from further back than the server keeps: no steps, the entries still
    // come one at a time (the board shows the newest view).
    const g = harness();
    log = [];
    g.p.push(snap(state(1, [entry(0)])));
    g.p.push(snap(state(30, [entry(10), entry(20), entry(29)])));
    expect(g.last().log.map((e) => e.index)).toEqual([0, 10]);
    vi.advanceTimersByTime(PACE.normal);
    expect(g.last().log.map((e) => e.index)).toEqual([0, 10, 20]);
    vi.advanceTimersByTime(PACE.normal);
    expect(g.last()).toMatchObject({ playing: false, current: 29 });
  });

  it("gives the page the state the playback reached, never one ahead of the board", () => {
    const h = harness();
    const first = state(2, [entry(0), entry(1)]);
    h.p.push(snap(first));
    // Two messages land at once: a bot's streak of three, then the match's end.
    const streak = { ...state(5, [entry(2), entry(3), entry(4)], steps(2, [1, 1, 1])), breakdown: [{ seat: 1, parts: [], total: 7, tiebreak: [] }] };
    const end = { ...state(7, [entry(5), entry(6)], steps(5, [1, null])), status: "finished" as const, winners: [1] };
    h.p.push(snap(streak));
    h.p.push(snap(end));
    const seen: [number, number][] = [];
    for (let i = 0; i < 8; i++) {
      const shown = h.last();
      seen.push([shown.version, shown.state!.version]);
      // The page's other parts never run ahead of the board's position.
      expect(shown.state!.version).toBeLessThanOrEqual(shown.version);
      if (shown.playing) expect(shown.state!.status).toBe("playing");
      vi.advanceTimersByTime(PACE.normal);
    }
    // versions 3 and 4 are steps of the streak's message: the page keeps the one before it
    expect(seen.slice(0, 5)).toEqual([[3, 2], [4, 2], [5, 5], [6, 5], [7, 7]]);
    expect(h.last()).toMatchObject({ playing: false, state: { status: "finished", winners: [1] } });

    // A skip shows the newest state at once.
    const g = harness();
    log = [];
    g.p.push(snap(state(1, [entry(0)])));
    g.p.push(snap({ ...state(4, [entry(1), entry(2), entry(3)], steps(1, [1, 1, 1])), status: "finished" }));
    expect(g.last().state!.version).toBe(1);
    g.p.skip();
    expect(g.last().state).toMatchObject({ version: 4, status: "finished" });
  });

  it("says whose moves were passed over at once: at the speed instant, or skipped", () => {
    const h = harness("instant");
    h.p.push(snap(state(1, [entry(0)])));
    expect(h.last().jumped).toEqual([]);
    h.p.push(snap(state(4, [entry(1), entry(2), entry(3)], steps(1, [1, null, 2]))));
    expect(h.last().jumped).toEqual([1, null, 2]);

    const g = harness("normal");
    log = [];
    g.p.push(snap(state(1, [entry(0)])));
    g.p.push(snap(state(4, [entry(1), entry(2), entry(3)], steps(1, [1, 2, 2]))));
    expect(g.last()).toMatchObject({ current: 1, by: 1, jumped: [] });
    g.p.skip();
    expect(g.last().jumped).toEqual([2, 2]);
  });

  it("shows the moves of every seat this device holds at once (a hot seat)", () => {
    const h = harness("normal", [0, 1]);
    h.p.push(snap(state(1, [entry(0)])));
    h.p.push(snap(state(4, [entry(1), entry(2), entry(3)], steps(1, [1, 0, 2]))));
    vi.advanceTimersByTime(1); // no pace between them
    expect(h.last()).toMatchObject({ current: 3, playing: false });
  });
});

describe("defaultSpeed", () => {
  it("is normal, instant for reduced motion, and what the person chose over both", () => {
    expect(defaultSpeed(null, false)).toBe("normal");
    expect(defaultSpeed(null, true)).toBe("instant");
    expect(defaultSpeed("fast", true)).toBe("fast");
    expect(defaultSpeed("bogus", false)).toBe("normal");
  });
});
