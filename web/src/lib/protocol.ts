/**
 * The WebSocket side of the table protocol (docs/protocol.md): one connection for one
 * seat (or a spectator) of one table. It says hello with the last version it saw, keeps
 * the log by appending what each `state` brings, sends decisions with the version they
 * were chosen at, and reconnects after a lost connection with a growing delay, so a
 * reload or a dropped network resumes where the table is. It never runs the rules: every
 * change comes from the server.
 */
import type { ActionInfo } from "../boards/types";

export const PROTOCOL = 1;

export interface LogEntry { index: number; kind: string; seat: number | null; params: Record<string, unknown>; text: string }
export interface Prompt { kind: string; params: Record<string, unknown>; text: string }
export interface ScorePart { kind: string; params: Record<string, unknown>; points: number; text: string }
export interface SeatScore { seat: number; parts: ScorePart[]; total: number; tiebreak: { kind: string; value: number; text: string }[] }
export interface SeatInfo { seat: number; type: string; name: string | null; level: string | null; connected?: boolean }

export interface StateMessage {
  type: "state";
  protocol: number;
  table: string;
  version: number;
  seat: number | null;
  status: "playing" | "finished";
  game: string;
  options: Record<string, unknown>;
  seats: SeatInfo[];
  view: Record<string, any>;
  current_player: number | null;
  acting_seats: number[];
  prompt: Prompt | null;
  actions: ActionInfo[];
  log: LogEntry[];
  breakdown: SeatScore[];
}

export interface Refusal { code: string; message: string }

/** What a table page knows about one connection. */
export interface Snapshot {
  state: StateMessage | null;
  log: LogEntry[];
  /** "connecting", "open", "waiting" (to reconnect), or "closed" for good. */
  status: "connecting" | "open" | "waiting" | "closed";
  /** A decision sent and not yet answered: the page disables the actions meanwhile. */
  pending: boolean;
  /** The last refusal (cleared by the next decision). */
  refused: Refusal | null;
  /** A fatal error (bad token, no such table): the connection will not come back. */
  error: Refusal | null;
  /** The server speaks a newer protocol: the person should reload. */
  outdated: boolean;
}

/** The few parts of the browser's WebSocket this client uses (a test passes a fake). */
export interface SocketLike {
  send(data: string): void;
  close(code?: number): void;
  onopen: ((ev: any) => void) | null;
  onmessage: ((ev: { data: any }) => void) | null;
  onclose: ((ev: any) => void) | null;
  onerror: ((ev: any) => void) | null;
}

export interface ClientOptions {
  url: string;
  token: string;
  onchange: (snap: Snapshot) => void;
  connect?: (url: string) => SocketLike;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** Delays before reconnecting: doubling from `minDelay` to `maxDelay`, with jitter. */
  minDelay?: number;
  maxDelay?: number;
  random?: () => number;
}

/** Merge the log entries a state brings: they start at the version the client had. */
export function mergeLog(log: LogEntry[], incoming: LogEntry[]): LogEntry[] {
  if (incoming.length === 0) return log;
  const from = Math.min(...incoming.map((e) => e.index));
  return [...log.filter((e) => e.index < from), ...incoming];
}

export function backoff(attempt: number, minDelay: number, maxDelay: number, random: () => number): number {
  const base = Math.min(maxDelay, minDelay * 2 ** attempt);
  return Math.round(base * (0.75 + 0.5 * random()));
}

const FATAL = new Set(["bad_token", "no_such_table", "hello_expected", "protocol"]);

export class TableClient {
  private socket: SocketLike | null = null;
  private attempts = 0;
  private timer: unknown = null;
  private pinger: unknown = null;
  private stopped = false;
  // The version of the last state: a reconnect says it, and the server sends only what
  // the page missed. A fresh page has none and gets the whole log.
  private version: number | null = null;
  snap: Snapshot = { state: null, log: [], status: "connecting", pending: false, refused: null, error: null, outdated: false };

  constructor(private readonly opts: ClientOptions) {}

  /** The version of the last state received. */
  get lastVersion(): number | null {
    return this.version;
  }

  start(): void {
    this.stopped = false;
    this.open();
  }

  stop(): void {
    this.stopped = true;
    this.clearTimers();
    const s = this.socket;
    this.socket = null;
    if (s) {
      s.onclose = null;
      s.close(1000);
    }
    this.update({ status: "closed" });
  }

  /**
   * Try again now rather than after the remaining delay: the page came back into view or
   * the device went online (a laptop opened, a phone unlocked).
   */
  wake(): void {
    if (this.stopped || this.snap.status !== "waiting") return;
    this.clearTimers();
    this.attempts = 0;
    this.open();
  }

  /** Send a decision chosen at the current version; refused while one is pending. */
  act(action: number): boolean {
    const state = this.snap.state;
    if (!this.socket || this.snap.status !== "open" || !state || this.snap.pending) return false;
    this.socket.send(JSON.stringify({ type: "act", action, version: state.version }));
    this.update({ pending: true, refused: null });
    return true;
  }

  private open(): void {
    this.update({ status: "connecting" });
    const connect = this.opts.connect ?? ((url: string) => new WebSocket(url) as unknown as SocketLike);
    let s: SocketLike;
    try {
      s = connect(this.opts.url);
    } catch {
      this.retry();
      return;
    }
    this.socket = s;
    s.onopen = () => {
      s.send(JSON.stringify({ type: "hello", token: this.opts.token, version: this.version }));
    };
    s.onmessage = (ev) => this.receive(ev.data);
    s.onerror = () => {
      /* a close follows; it decides what to do */
    };
    s.onclose = () => {
      if (this.socket !== s) return;
      this.socket = null;
      this.clearTimers();
      if (!this.stopped && !this.snap.error) this.retry();
    };
  }

  private retry(): void {
    const delay = backoff(this.attempts, this.opts.minDelay ?? 500, this.opts.maxDelay ?? 15000, this.opts.random ?? Math.random);
    this.attempts += 1;
    this.update({ status: "waiting", pending: false });
    const set = this.opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.timer = set(() => {
      this.timer = null;
      if (!this.stopped) this.open();
    }, delay);
  }

  private clearTimers(): void {
    const clear = this.opts.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
    if (this.timer !== null) clear(this.timer);
    if (this.pinger !== null) clear(this.pinger);
    this.timer = null;
    this.pinger = null;
  }

  private keepAlive(): void {
    if (this.pinger !== null) return;
    const set = this.opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    const beat = () => {
      this.pinger = null;
      if (this.socket && this.snap.status === "open") {
        this.socket.send(JSON.stringify({ type: "ping" }));
        this.pinger = set(beat, 25000);
      }
    };
    this.pinger = set(beat, 25000);
  }

  private receive(data: unknown): void {
    let msg: any;
    try {
      msg = JSON.parse(String(data));
    } catch {
      return;
    }
    if (msg.type === "state") {
      const state = msg as StateMessage;
      this.attempts = 0;
      this.version = state.version;
      const log = mergeLog(this.snap.log, state.log ?? []);
      this.update({ state, log, status: "open", pending: false, outdated: state.protocol > PROTOCOL });
      this.keepAlive();
    } else if (msg.type === "refused") {
      this.update({ refused: { code: msg.code, message: msg.message }, pending: false });
    } else if (msg.type === "error") {
      const fatal = FATAL.has(msg.code);
      this.update({ error: { code: msg.code, message: msg.message }, pending: false, status: fatal ? "closed" : this.snap.status });
      if (fatal) this.stopped = true;
    }
  }

  private update(part: Partial<Snapshot>): void {
    this.snap = { ...this.snap, ...part };
    this.opts.onchange(this.snap);
  }
}
