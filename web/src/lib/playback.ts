/**
 * The playback queue between a table connection (connection.ts) and the table page: other
 * seats' moves and chance outcomes are shown one at a time, at a pace a person can follow.
 *
 * Every `state` message that moves the table on is cut into events, one per version: the
 * message's `steps` say who acted at each version it covers and the seat's view after it
 * (docs/protocol.md), and its log entries say what happened (an entry's `index` is the
 * action that caused it, so version v's entries have index v - 1). The queue shows the
 * events in order, each held for the pace of the chosen speed; the seat's own moves (and
 * those of the other seats this device holds) are shown at once, and so is the first
 * state of a page. "instant" shows every event at once, and so does a person who asks
 * for reduced motion (unless they chose a speed themselves); `skip` jumps to the end.
 * Nothing is dropped: the log grows entry by entry, and every entry is shown. The page's
 * prompt and moves come from the newest state; the page decides when they are usable.
 * Everything else the page shows of a position (scores, the players' panels, the results)
 * comes from `state`: the newest state message the playback has reached, never one ahead
 * of the board.
 */
import type { Snapshot } from "./connection";
import type { GameEvent, LogEntry, StateMessage } from "./protocol";

export type Speed = "normal" | "fast" | "instant";
export const SPEEDS: Speed[] = ["normal", "fast", "instant"];

/** How long an event stays on the screen before the next one, in milliseconds. */
export const PACE: Record<Speed, number> = { normal: 850, fast: 350, instant: 0 };

/** What the page shows of one connection at a moment. */
export interface Shown {
  /** The snapshot as it is now (prompt, actions, status: always the newest). */
  snap: Snapshot;
  /**
   * The newest state message whose version the playback has reached (the newest one when
   * nothing plays): its breakdown, status, winners and turn are the position on the board,
   * or the last whole message before it while a message's steps are being shown.
   */
  state: StateMessage | null;
  /** The view the board draws: the newest, or the one after the event being played. */
  view: Record<string, any> | null;
  /** The view before the event being played (null when nothing is playing). */
  before: Record<string, any> | null;
  /** The events of the action that made the view drawn, as the game's rules said them. */
  events: GameEvent[];
  /** The version whose view is drawn. */
  version: number;
  /** The log as far as it has been shown. */
  log: LogEntry[];
  /** The index of the log entries being played (highlighted), or null. */
  current: number | null;
  /** Who caused the event being played (null: chance), undefined when none plays. */
  by: number | null | undefined;
  /** Events still to show after this one. */
  queued: number;
  /** Who caused the events passed over at once to come to this position (a skip, the
   * speed "instant"), in order; empty when none were. */
  jumped: (number | null)[];
  /** True while the page shows an older version than the newest. */
  playing: boolean;
}

interface Event {
  version: number;
  by: number | null;
  view: Record<string, any>;
  /** The rules' events of that version's action (empty: not known). */
  events: GameEvent[];
  /** Shown at once, not held: the seat's own move, or one with nothing to see. */
  quick: boolean;
}

export interface PlaybackOptions {
  onchange: (shown: Shown) => void;
  /** The speed now (read at each event, so a change in the settings applies at once). */
  speed: () => Speed;
  /** The seats this device plays: their moves are shown at once. */
  own: () => ReadonlySet<number>;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /**
   * Runs `fn` once the page has drawn what `onchange` gave it (the page passes Svelte's
   * `tick`; without it, a microtask). An event's pace counts from then, so that a slow
   * drawing does not shorten the time it stays on the screen.
   */
  afterDraw?: (fn: () => void) => void;
}

/** A hold whose timer is not set yet (it will be, once the event is drawn). */
const DRAWING = Symbol("drawing");

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export class Playback {
  private target: StateMessage | null = null;
  /** The state messages received, oldest first, from the one the playback has reached. */
  private states: StateMessage[] = [];
  private snap: Snapshot | null = null;
  private queue: Event[] = [];
  private timer: unknown = null;
  private view: Record<string, any> | null = null;
  private before: Record<string, any> | null = null;
  private happened: GameEvent[] = [];
  private version = 0;
  private current: number | null = null;
  private by: number | null | undefined = undefined;
  private jumped: (number | null)[] = [];

  constructor(private readonly opts: PlaybackOptions) {}

  /** The connection's snapshot changed: queue the events its new state brings. */
  push(snap: Snapshot): void {
    const state = snap.state;
    const previous = this.target;
    this.snap = snap;
    if (!state) return this.emit();
    this.target = state;
    if (!previous || state.version < previous.version || state.table !== previous.table) {
      this.states = [state];
      // A page's first state (or another table's): shown as it is.
      this.finish();
      return;
    }
    if (state.version > previous.version) this.queue.push(...this.events(previous, state));
    // (a state of the same version, as after a refusal or a turn in hand, replaces the last)
    this.states = [...this.states.filter((s) => s.version < state.version), state];
    if (this.opts.speed() === "instant") return this.finish();
    if (this.timer === null) this.next();
    else this.emit();
  }

  /** Show the newest state now; whatever was queued appears in the log at once. */
  skip(): void {
    this.finish();
  }

  /** The speed changed: "instant" ends the playback at once. */
  retime(): void {
    if (this.opts.speed() === "instant") this.finish();
  }

  stop(): void {
    this.clear();
  }

  /** An older version than the newest is on the screen. */
  get playing(): boolean {
    return this.queue.length > 0;
  }

  private events(previous: StateMessage, state: StateMessage): Event[] {
    const steps = state.steps ?? [];
    const known = new Map(steps.map((s) => [s.version, s]));
    const own = this.opts.own();
    const out: Event[] = [];
    // A version whose view is not given shows the next one that is (the newest at last).
    let view = state.view;
    const entries = new Set((state.log ?? []).map((e) => e.index));
    for (let v = state.version; v > previous.version; v--) {
      const step = known.get(v);
      if (step?.view) view = step.view;
      const by = step ? step.by : null;
      const mine = step !== undefined && by !== null && own.has(by);
      const seen = entries.has(v - 1);
      if (!step && !seen && v !== state.version) continue; // nothing said about it
      const events = (v === state.version ? state.events : step?.events) ?? [];
      out.push({ version: v, by, view, events, quick: mine });
    }
    out.reverse();
    // An event with no log entry and no change on the board has nothing to follow.
    let last = this.queue.length ? this.queue[this.queue.length - 1].view : this.view;
    for (const e of out) {
      if (!e.quick && !entries.has(e.version - 1) && same(last, e.view)) e.quick = true;
      last = e.view;
    }
    return out;
  }

  private next(): void {
    this.timer = null;
    const e = this.queue.shift();
    if (e) {
      this.jumped = [];
      this.before = this.view;
      this.view = e.view;
      this.happened = e.events;
      this.version = e.version;
      this.current = e.version - 1;
      this.by = e.by;
      const pace = PACE[this.opts.speed()];
      // Held for the pace, even the newest (its prompt is usable meanwhile), so that a
      // state coming in the meantime waits its turn. A quick event is drawn and left at
      // once: the board then marks only what the next one changes.
      const hold = !e.quick && pace > 0 ? pace : this.queue.length ? 0 : null;
      if (hold !== null) {
        this.timer = DRAWING;
        const after = this.opts.afterDraw ?? queueMicrotask;
        after(() => {
          if (this.timer !== DRAWING) return; // skipped or stopped meanwhile
          const set = this.opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
          this.timer = set(() => this.next(), hold);
        });
      }
    }
    this.emit();
  }

  private finish(): void {
    this.clear();
    this.jumped = this.queue.map((e) => e.by);
    this.queue = [];
    this.settle();
  }

  /** The newest state received whose version is at most `version` (the oldest kept if none). */
  private reached(version: number): StateMessage | null {
    let found: StateMessage | null = this.states[0] ?? null;
    for (const s of this.states) if (s.version <= version) found = s;
    return found;
  }

  private settle(): void {
    this.states = this.target ? [this.target] : [];
    this.before = null;
    this.view = this.target?.view ?? null;
    this.happened = this.target?.events ?? [];
    this.version = this.target?.version ?? 0;
    this.current = null;
    this.by = undefined;
    this.emit();
  }

  private clear(): void {
    if (this.timer !== null && this.timer !== DRAWING) {
      const clear = this.opts.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
      clear(this.timer);
    }
    this.timer = null;
  }

  private emit(): void {
    if (!this.snap) return;
    const playing = this.playing;
    const newest = this.snap.state;
    if (playing) {
      // What is behind the position shown is no longer needed.
      const at = this.reached(this.version);
      this.states = this.states.filter((s) => s === at || s.version > this.version);
    }
    this.opts.onchange({
      snap: this.snap,
      state: playing ? this.reached(this.version) : newest,
      view: playing ? this.view : (newest?.view ?? this.view),
      before: this.current === null ? null : this.before,
      events: playing ? this.happened : (newest?.events ?? this.happened),
      version: playing ? this.version : (newest?.version ?? 0),
      log: playing ? this.snap.log.filter((e) => e.index < this.version) : this.snap.log,
      current: this.current,
      by: this.current === null ? undefined : this.by,
      queued: this.queue.length,
      jumped: this.jumped,
      playing,
    });
  }
}

/** The speed a person chose, or the default: "instant" for reduced motion, else "normal". */
export function defaultSpeed(stored: string | null, reducedMotion: boolean): Speed {
  if (stored && (SPEEDS as string[]).includes(stored)) return stored as Speed;
  return reducedMotion ? "instant" : "normal";
}
