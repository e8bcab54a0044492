/**
 * The table page's connections and its hot seat, apart from what the page draws: one
 * connection (lib/connection.ts) per seat this device holds, each with its playback of
 * the other seats' moves (lib/playback.ts), and, for a hot seat, which seat's connection
 * is shown and whether its person has taken the device. Table.svelte draws what this
 * holds and calls its methods; a test drives it with fake connections.
 *
 * The seats of this device: the link's token, and with it every other hot-seat token of
 * the table this browser holds (storage's `heldTable`), or the table's first held seat or
 * spectator token when the link names none. A hot seat shows the first connection whose
 * seat has something to decide; while it changes, the board waits behind a "pass the
 * device" screen until its person is ready. At the end every seat's cards are open, and
 * the screen goes.
 */
import { untrack } from "svelte";
import { TableClient, type ClientOptions, type Snapshot } from "./connection";
import type { Hint, SeatScore, StateMessage } from "./protocol";
import { Playback, type PlaybackOptions, type Shown, type Speed } from "./playback";
import { asks, type Ask } from "./confirming";
import type { HeldTable } from "./storage";

/** What the page asks of a connection (a test passes a fake). */
export type Client = Pick<TableClient, "start" | "stop" | "wake" | "act" | "undo" | "hint" | "earlier">;

export interface TableSeatsOptions {
  /** The table, and the token its link carries ("" for none). */
  id: string;
  token: string;
  /** What this browser holds of the table (storage's `heldTable(id)`). */
  held: HeldTable | undefined;
  speed: Speed;
  ask: Ask;
  /** The table's WebSocket address. */
  url: string;
  /** A chat line from the first connection (a hot seat's others would repeat it). */
  onchat?: ClientOptions["onchat"];
  /** A connection's first state: `own` when it is the link's token. */
  onfirst?: (state: StateMessage, token: string, own: boolean) => void;
  /** Runs `fn` once the page has drawn what changed (playback's pace counts from it). */
  afterDraw?: PlaybackOptions["afterDraw"];
  /** Makes a connection (by default a TableClient). */
  connect?: (options: ClientOptions) => Client;
}

/** The tokens a page plays with: the link's, and with it every other seat of this device
 * when the link's seat is one of a hot seat. */
export function localTokens(token: string, held: HeldTable | undefined): string[] {
  const own = token || held?.seats[0]?.token || held?.spectator || "";
  if (!own) return [];
  const mine = held?.seats.find((s) => s.token === own);
  if (mine?.hotseat) return held!.seats.filter((s) => s.hotseat).map((s) => s.token);
  return [own];
}

const CONNECTING: Snapshot = { state: null, log: [], status: "connecting", pending: false, refused: null, error: null, outdated: false, storage: false };

export class TableSeats {
  readonly tokens: string[];
  readonly hotseat: boolean;
  readonly playbacks: Playback[];
  readonly clients: Client[];
  /** Each connection's newest snapshot. */
  snaps: Snapshot[] = $state([]);
  /** What the page shows of each connection: its newest state, played up to it one event
   * at a time. The seats this device holds move at once. */
  shows: (Shown | null)[] = $state([]);
  /** The connection shown now. */
  shown = $state(0);
  /** Whether the shown connection's person has taken the device (always, but a hot seat). */
  confirmed = $state(true);
  /** The pace of other seats' moves, and which moves are asked about before they go. */
  speed: Speed = $state("normal");
  ask: Ask = $state("turn");
  /** The hint a connection of this device asked for. */
  hinted = $state.raw<(Hint & { connection: number }) | null>(null);

  readonly snap: Snapshot = $derived(this.snaps[this.shown]);
  readonly disp: Shown | null = $derived(this.shows[this.shown]);
  readonly msg: StateMessage | null = $derived(this.snap?.state ?? null);
  /** Some seat of this device has something to decide ("your turn" in the tab's title). */
  readonly myTurn = $derived(this.snaps.some((s) => s.state?.status === "playing" && (s.state.actions.length ?? 0) > 0));
  /** The hint asked for at the connection shown, while its table is where it was asked. */
  readonly hint = $derived.by(() => {
    const h = this.hinted;
    return h && this.msg && h.connection === this.shown && h.version === this.msg.version ? h : null;
  });
  /** A hot seat's scores while the device is passed on: each seat's row as another seat
   * of this device knows it (a seat's own row counts its hidden values), so that every
   * score stays in view without showing anything hidden to the person taking the device. */
  readonly publicScores: SeatScore[] = $derived.by(() => {
    const msg = this.msg;
    if (!msg) return [];
    const rows = [];
    for (const seat of msg.seats.map((s) => s.seat)) {
      const other = this.snaps.find((sn) => sn.state && sn.state.seat !== null && sn.state.seat !== seat);
      const row = other?.state?.breakdown.find((b) => b.seat === seat);
      if (row) rows.push(row);
    }
    return rows;
  });

  /** ... and the running scores the views hold (a public score track: every seat's view
   * has them), or null where they hold none. */
  readonly publicRunning: number[] | null = $derived.by(() => {
    const scores = this.snaps.map((sn) => sn.state?.view?.scores).find((x) => Array.isArray(x));
    return Array.isArray(scores) ? (scores as number[]) : null;
  });

  constructor(private readonly opts: TableSeatsOptions) {
    this.tokens = localTokens(opts.token, opts.held);
    this.hotseat = this.tokens.length > 1;
    this.confirmed = !this.hotseat;
    this.speed = opts.speed;
    this.ask = opts.ask;
    this.snaps = this.tokens.map(() => ({ ...CONNECTING }));
    this.shows = this.tokens.map(() => null);
    this.playbacks = this.tokens.map(
      (_, i) =>
        new Playback({
          onchange: (s) => (this.shows[i] = s),
          speed: () => untrack(() => this.speed),
          own: () => this.ownSeats(),
          afterDraw: opts.afterDraw,
        }),
    );
    const connect = opts.connect ?? ((o: ClientOptions) => new TableClient(o));
    this.clients = this.tokens.map((tok, i) =>
      connect({
        url: opts.url,
        token: tok,
        // (a choice's next decision that the person is asked about waits for them)
        asks: (state, action) => asks(state, action, untrack(() => this.ask)),
        onchat: i === 0 ? opts.onchat : undefined,
        onhint: (h) => (this.hinted = { connection: i, ...h }),
        onchange: (snap) => this.changed(i, tok, snap),
      }),
    );
  }

  /** The seats this device holds, as its connections' states say. */
  ownSeats(): Set<number> {
    return new Set(untrack(() => this.snaps).flatMap((s) => (s.state && s.state.seat !== null ? [s.state.seat] : [])));
  }

  /** The token of the connection shown now (the link's while there is none). */
  get token(): string {
    return this.tokens[this.shown] ?? this.opts.token;
  }

  /** The connection shown now. */
  get client(): Client {
    return this.clients[this.shown];
  }

  private changed(i: number, tok: string, snap: Snapshot): void {
    const first = !untrack(() => this.snaps[i].state) && snap.state;
    this.snaps[i] = snap;
    this.playbacks[i].push(snap);
    if (first && snap.state) this.opts.onfirst?.(snap.state, tok, tok === this.opts.token);
    this.follow();
  }

  /** A hot seat shows the connection whose seat has something to decide, and waits for
   * its person to take the device; at the end there is nothing left to hide. */
  private follow(): void {
    if (!this.hotseat) return;
    untrack(() => {
      if (this.snaps[this.shown]?.state?.status === "finished") {
        this.confirmed = true;
        return;
      }
      const wanted = this.snaps.findIndex((s) => s.state?.status === "playing" && s.state.actions.length > 0);
      if (wanted >= 0 && wanted !== this.shown) {
        this.shown = wanted;
        this.confirmed = false;
      }
    });
  }

  /** The person the device was passed to took it. */
  ready(): void {
    this.confirmed = true;
  }

  /** Open every connection, and try again at once when the page comes back into view or
   * the device back online; returns what closes them. */
  start(): () => void {
    for (const c of this.clients) c.start();
    const wake = () => {
      if (document.visibilityState === "visible") for (const c of this.clients) c.wake();
    };
    document.addEventListener("visibilitychange", wake);
    window.addEventListener("online", wake);
    return () => {
      document.removeEventListener("visibilitychange", wake);
      window.removeEventListener("online", wake);
      this.stop();
    };
  }

  stop(): void {
    for (const c of this.clients) c.stop();
    for (const p of this.playbacks) p.stop();
  }

  setSpeed(speed: Speed): void {
    this.speed = speed;
    for (const p of this.playbacks) p.retime();
  }

  /** Show the newest state of the connection shown at once. */
  skip(): void {
    this.playbacks[this.shown].skip();
  }
}
