/**
 * The WebSocket side of the table protocol (docs/protocol.md): one connection for one
 * seat (or a spectator) of one table. It says hello with the last version it saw, keeps
 * the log by appending what each `state` brings, sends decisions with the version they
 * were chosen at, and reconnects after a lost connection with a growing delay, so a
 * reload or a dropped network resumes where the table is. When the server cannot reach
 * its storage (a refusal `unavailable`), it says so and tries again by itself: the same
 * hello, or the same decision at the same version, until the server answers. It never
 * runs the rules: every change comes from the server. It keeps a turn in hand (says `undo`
 * in its hello): the seat's decisions that reveal nothing wait on the server, shown to
 * this seat alone, and `undo` takes the last one back (docs/protocol.md, "A turn in hand").
 * A first state brings only the newest log entries (`log_from` says from which index the
 * log is whole); `earlier` asks for the page before them, as the person scrolls back.
 *
 * A choice the person made at once may take several decisions (a luxor card and the move
 * it makes: the descriptor's `then`): `act` sends the first and each next one as soon as
 * the state holding the one before arrives, showing the page nothing in between, and
 * stops early if the table answers otherwise (a refusal, a version moved on, the next
 * decision not offered). `undo` takes back the person's last choice whole, as many
 * decisions as it took.
 */
import { PROTOCOL, type ChatLine, type Hint, type LogEntry, type Presence, type ServerMessage, type StateMessage } from "./protocol";

/** A refusal or an error, as the page tells it to the person. */
export interface Refusal { code: string; message: string }

/** A decision as sent: the action, at the table's version and the seat's turn in hand. */
interface Sent { action: number; version: number; pending: number }

/** What a table page knows about one connection. */
export interface Snapshot {
  state: StateMessage | null;
  log: LogEntry[];
  /** The index from which `log` holds every entry: 0 when it holds the whole log. */
  logFrom?: number;
  /** A page of older entries is asked for and not yet here. */
  loadingLog?: boolean;
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
  /** The table is reconnecting to its storage: what was sent is sent again by itself. */
  storage: boolean;
  /** How many connections of this seat are open (this one included), from the last
   * `presence`; 2 or more: the seat is open in another window or browser too. */
  here?: number | null;
  /** When the last `state` arrived (ms, this device's clock): its `clock` counts from it. */
  clockAt?: number;
}

/** A state with each seat's `connected` as a `presence` message says it is now. */
export function withPresence(state: StateMessage, presence: Presence): StateMessage {
  const connected = new Map(presence.seats.map((s) => [s.seat, s.connected]));
  return { ...state, seats: state.seats.map((s) => (connected.has(s.seat) ? { ...s, connected: connected.get(s.seat)! } : s)) };
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
  /** A line of the table's chat (its own message, never part of a state). */
  onchat?: (line: ChatLine) => void;
  /** A hint this seat asked for (its own message, at the version it was asked at). */
  onhint?: (hint: Hint) => void;
  connect?: (url: string) => SocketLike;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** Delays before reconnecting: doubling from `minDelay` to `maxDelay`, with jitter. */
  minDelay?: number;
  maxDelay?: number;
  random?: () => number;
  /** This device's time in ms (a test passes a fake). */
  now?: () => number;
  /** Whether the page asks its person before `action` is sent in `state` (a choice's next
   * decision that it asks about is not sent on by itself); by default, those in `confirm`. */
  asks?: (state: StateMessage, action: number) => boolean;
}

/**
 * Merge the log entries a state brings: every entry from index `from` on (by default,
 * from the first one they bring), which replace those the client had from there.
 */
export function mergeLog(log: LogEntry[], incoming: LogEntry[], from?: number): LogEntry[] {
  if (incoming.length === 0 && from === undefined) return log;
  const start = from ?? Math.min(...incoming.map((e) => e.index));
  if (incoming.length === 0 && !log.some((e) => e.index >= start)) return log;
  return [...log.filter((e) => e.index < start), ...incoming];
}

/** Pages asked for again after a refusal for the rate wait this long (milliseconds). */
export const LOG_RETRY = 1000;

export function backoff(attempt: number, minDelay: number, maxDelay: number, random: () => number): number {
  const base = Math.min(maxDelay, minDelay * 2 ** attempt);
  return Math.round(base * (0.75 + 0.5 * random()));
}

const FATAL = new Set(["bad_token", "claimed_seat", "no_such_table", "hello_expected", "protocol", "too_large", "too_many_connections", "link_replaced"]);

export class TableClient {
  private socket: SocketLike | null = null;
  private attempts = 0;
  private timer: unknown = null;
  private pinger: unknown = null;
  private stopped = false;
  // The version of the last state: a reconnect says it, and the server sends only what
  // the page missed. A fresh page has none and gets the whole log.
  private version: number | null = null;
  // The last decision sent, and the one to send again while the storage is away.
  private sent: Sent | null = null;
  private again: Sent | null = null;
  private storageTimer: unknown = null;
  private storageAttempts = 0;
  // The page of the log asked for (its `before`), and a second try after a refusal.
  private logAsked: number | null = null;
  private logTimer: unknown = null;
  // The decisions of the person's last choice still to send, each at the turn in hand's
  // count it is expected at; guarded: the choice began with a turn in hand, so a next
  // decision that would commit it is left for the person to confirm (if the page asks).
  private chain: { rest: number[]; version: number; pending: number; guarded: boolean } | null = null;
  // The counts of the turn in hand at which each of the person's choices in it began.
  private starts: number[] = [];
  // An undo under way: the count of the turn in hand it takes back to.
  private undoTo: number | null = null;
  snap: Snapshot = { state: null, log: [], status: "connecting", pending: false, refused: null, error: null, outdated: false, storage: false };

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

  /**
   * Send a decision chosen at the current version, and after it the decisions `then`, each
   * once the state holding the one before arrives; refused while one is pending.
   */
  act(action: number, then: number[] = []): boolean {
    const state = this.snap.state;
    if (!this.socket || this.snap.status !== "open" || !state || this.snap.pending) return false;
    const pending = state.pending ?? 0;
    this.send({ action, version: state.version, pending });
    this.starts = [...this.starts.filter((p) => p < pending), pending];
    this.chain = then.length ? { rest: [...then], version: state.version, pending: pending + 1, guarded: pending > 0 } : null;
    this.update({ pending: true, refused: null });
    return true;
  }

  /**
   * Ask for the page of log entries before the oldest this client holds; false when it
   * holds the whole log, or a page is on its way already.
   */
  earlier(): boolean {
    const from = this.snap.logFrom ?? 0;
    if (!this.socket || this.snap.status !== "open" || from <= 0 || this.logAsked !== null || this.logTimer !== null) return false;
    this.socket.send(JSON.stringify({ type: "log", before: from }));
    this.logAsked = from;
    this.update({ loadingLog: true });
    return true;
  }

  /** Ask for the seat's best moves now, at a table that allows hints (docs/protocol.md). */
  hint(): boolean {
    const state = this.snap.state;
    if (!this.socket || this.snap.status !== "open" || !state || !state.hints) return false;
    this.socket.send(JSON.stringify({ type: "hint", version: state.version }));
    this.update({ refused: null });
    return true;
  }

  /** Take back the person's last choice in the seat's turn in hand; false when there is none. */
  undo(): boolean {
    const state = this.snap.state;
    if (!this.socket || this.snap.status !== "open" || !state || this.snap.pending || !state.pending) return false;
    const begun = this.starts.filter((p) => p < state.pending!);
    this.undoTo = begun.length ? begun[begun.length - 1] : state.pending - 1;
    this.socket.send(JSON.stringify({ type: "undo", version: state.version, pending: state.pending }));
    this.update({ pending: true, refused: null });
    return true;
  }

  private send(sent: Sent): void {
    this.socket!.send(JSON.stringify({ type: "act", ...sent }));
    this.sent = sent;
  }

  /**
   * A state arrived while a choice of several decisions (or an undo of one) is under way:
   * send its next decision (or undo) if the state is the one expected, and say whether it
   * did, so that the page is shown nothing in between. Anything else ends it.
   */
  private goOn(state: StateMessage): boolean {
    const chain = this.chain;
    const undoTo = this.undoTo;
    this.chain = null;
    this.undoTo = null;
    if (!this.socket) return false;
    const pending = state.pending ?? 0;
    if (chain && state.version === chain.version && pending === chain.pending) {
      const [next, ...rest] = chain.rest;
      const offered = state.actions.some((a) => a.action === next);
      const asks = this.opts.asks ?? ((s: StateMessage, a: number) => !!s.confirm?.includes(a));
      if (offered && !(chain.guarded && asks(state, next))) {
        this.send({ action: next, version: state.version, pending });
        this.chain = rest.length ? { ...chain, rest, pending: pending + 1 } : null;
        return true;
      }
    }
    if (undoTo !== null && state.version === this.snap.state?.version && pending > undoTo) {
      this.socket.send(JSON.stringify({ type: "undo", version: state.version, pending }));
      this.undoTo = undoTo;
      return true;
    }
    return false;
  }

  /**
   * The server could not reach its storage. A refused hello is said again on the same
   * connection; a refused decision is sent again at the version it was chosen at (if it
   * was recorded after all, the server answers with the newer state). Meanwhile the page
   * shows the table as it was and says it is reconnecting to its storage.
   */
  private unavailable(): void {
    if (this.snap.status === "open" && this.sent && this.sent.version === this.version) this.again = this.sent;
    this.update({ storage: true, pending: this.again !== null, refused: null });
    this.scheduleAgain();
  }

  private scheduleAgain(): void {
    if (this.storageTimer !== null) return;
    const delay = backoff(this.storageAttempts, this.opts.minDelay ?? 500, 4000, this.opts.random ?? Math.random);
    this.storageAttempts += 1;
    const set = this.opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.storageTimer = set(() => {
      this.storageTimer = null;
      const s = this.socket;
      if (this.stopped || !s) return;
      if (this.snap.status !== "open") {
        s.send(JSON.stringify({ type: "hello", token: this.opts.token, version: this.version, undo: true }));
      } else if (this.again) {
        s.send(JSON.stringify({ type: "act", ...this.again }));
      }
    }, delay);
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
      s.send(JSON.stringify({ type: "hello", token: this.opts.token, version: this.version, undo: true }));
    };
    s.onmessage = (ev) => this.receive(ev.data);
    s.onerror = () => {
      /* a close follows; it decides what to do */
    };
    s.onclose = () => {
      if (this.socket !== s) return;
      this.socket = null;
      // A choice of several decisions half sent stays as the server holds it: the person goes on.
      this.chain = null;
      this.undoTo = null;
      this.clearTimers();
      if (!this.stopped && !this.snap.error) this.retry();
    };
  }

  private retry(): void {
    const delay = backoff(this.attempts, this.opts.minDelay ?? 500, this.opts.maxDelay ?? 15000, this.opts.random ?? Math.random);
    this.attempts += 1;
    this.update({ status: "waiting", pending: this.again !== null });
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
    if (this.storageTimer !== null) clear(this.storageTimer);
    if (this.logTimer !== null) clear(this.logTimer);
    this.timer = null;
    this.pinger = null;
    this.storageTimer = null;
    this.logTimer = null;
    // A page asked for on a connection that is gone never comes: it may be asked again.
    this.logAsked = null;
    if (this.snap.loadingLog) this.update({ loadingLog: false });
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
    // What the server sends (lib/protocol.ts, from its models); anything else is passed over.
    let msg: ServerMessage;
    try {
      msg = JSON.parse(String(data)) as ServerMessage;
    } catch {
      return;
    }
    if (msg.type === "state") {
      const state = msg;
      const previous = this.version;
      this.attempts = 0;
      // A turn committed or lost begins a new count of choices.
      this.starts = state.version === this.version ? this.starts.filter((p) => p < (state.pending ?? 0)) : [];
      // A decision waiting to be sent again stays pending until the table moves on.
      if (this.again && (this.again.version !== state.version || this.again.pending !== (state.pending ?? 0))) this.again = null;
      // The next decision of a choice of several goes out at once: the page sees only the last state.
      const going = this.again === null && this.goOn(state);
      this.version = state.version;
      const storage = this.again !== null && this.snap.storage;
      if (!storage) this.storageAttempts = 0;
      const incoming = state.log ?? [];
      const from = state.log_from ?? (incoming.length ? Math.min(...incoming.map((e) => e.index)) : state.version);
      // A first state, or one that skipped what came after the client's version (it was
      // far behind): the log starts again from its entries, and older ones are asked for.
      const restart = this.snap.state === null || previous === null || from > previous;
      const log = restart ? incoming : mergeLog(this.snap.log, incoming, from);
      const logFrom = restart ? from : Math.min(this.snap.logFrom ?? 0, from);
      const clockAt = (this.opts.now ?? Date.now)();
      if (going) {
        this.snap = { ...this.snap, state, log, logFrom, clockAt };
        return;
      }
      this.update({ state, log, logFrom, status: "open", pending: this.again !== null, outdated: state.protocol > PROTOCOL, storage, clockAt });
      this.keepAlive();
      // After a reconnect, the decision still waiting is sent again.
      if (this.again) this.scheduleAgain();
    } else if (msg.type === "presence") {
      const presence = msg;
      const state = this.snap.state ? withPresence(this.snap.state, presence) : null;
      this.update({ state, here: presence.here });
    } else if (msg.type === "log") {
      const page = msg;
      if (page.before !== this.logAsked) return;
      this.logAsked = null;
      // The log may have started again meanwhile (a state far ahead): then the page is old.
      if (page.before === this.snap.logFrom) this.update({ log: [...page.log, ...this.snap.log], logFrom: page.log_from, loadingLog: false });
      else this.update({ loadingLog: false });
    } else if (msg.type === "chat") {
      this.opts.onchat?.(msg);
    } else if (msg.type === "hint") {
      this.opts.onhint?.(msg);
    } else if (msg.type === "refused" && msg.code === "unavailable") {
      this.unavailable();
    } else if (msg.type === "refused") {
      if (msg.code === "rate_limited" && this.logAsked !== null) {
        // The page asked for was one message too many (a person scrolling fast): a
        // second later it is asked again, with nothing to tell the person.
        this.logAsked = null;
        const set = this.opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
        this.logTimer = set(() => {
          this.logTimer = null;
          this.update({ loadingLog: false });
          this.earlier();
        }, LOG_RETRY);
        if (!this.snap.pending) return; // else the refusal may be the decision's too
      }
      // A decision sent again and now stale was recorded, or overtaken: the state that
      // follows says which, so there is nothing to tell the person.
      const resent = this.again !== null && msg.code === "stale_version";
      this.again = null;
      this.chain = null;
      this.undoTo = null;
      this.update({ refused: resent ? null : { code: msg.code, message: msg.message }, pending: false, storage: false });
    } else if (msg.type === "error") {
      const fatal = FATAL.has(msg.code);
      this.update({ error: { code: msg.code, message: msg.message }, pending: false, status: fatal ? "closed" : this.snap.status });
      if (fatal) this.stopped = true;
    } else if (msg.type !== "pong") {
      // Every message the server sends has its branch above: a new one in the server's
      // models (ServerMessage) does not compile until it has one here.
      const unread: never = msg;
      void unread;
    }
  }

  private update(part: Partial<Snapshot>): void {
    this.snap = { ...this.snap, ...part };
    this.opts.onchange(this.snap);
  }
}
