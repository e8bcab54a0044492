// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import type { ClientOptions, Snapshot } from "./connection";
import type { SeatScore, StateMessage } from "./protocol";
import type { HeldTable } from "./storage";
import { localTokens, TableSeats, type Client } from "./table.svelte";

/** A connection that records what the page asked of it; `say` plays the server. */
class FakeClient implements Client {
  calls: string[] = [];
  constructor(readonly options: ClientOptions) {}
  start() { this.calls.push("start"); }
  stop() { this.calls.push("stop"); }
  wake() { this.calls.push("wake"); }
  act(action: number, then: number[] = []) { this.calls.push(`act ${action} ${then.join(",")}`); return true; }
  undo() { this.calls.push("undo"); return true; }
  hint() { this.calls.push("hint"); return true; }
  earlier() { this.calls.push("earlier"); return true; }
  say(state: StateMessage | null) {
    const snap: Snapshot = { state, log: state?.log ?? [], status: "open", pending: false, refused: null, error: null, outdated: false, storage: false };
    this.options.onchange(snap);
  }
}

function row(seat: number, total: number): SeatScore {
  return { seat, parts: [], total, tiebreak: [] };
}

/** Seat `seat`'s state at `version`; `acts`: it has a decision to make. */
function state(seat: number | null, version: number, acts: boolean, extra: Partial<StateMessage> = {}): StateMessage {
  return {
    type: "state", protocol: 1, table: "T", version, seat, status: "playing", game: "g", options: {},
    seats: [0, 1, 2].map((s) => ({ seat: s, type: s < 2 ? "hotseat" : "bot", name: null, level: null, connected: true })),
    view: { version }, current_player: 0, acting_seats: [], prompt: null,
    actions: acts ? [{ action: 7, kind: "do", params: {}, targets: [] } as any] : [],
    events: [], log: [], log_from: 0, breakdown: [], winners: [], statistics: [], steps: [], pending: 0, pending_log: [],
    confirm: [], forfeits: [], hints: false, hints_used: [], again: null, clock: null,
    ...extra,
  };
}

const HOTSEAT: HeldTable = {
  table_id: "T", game: "g", created: "",
  seats: [{ seat: 0, token: "a", hotseat: true }, { seat: 1, token: "b", hotseat: true }],
};

function table(token: string, held: HeldTable | undefined) {
  const fakes: FakeClient[] = [];
  const firsts: [number | null, string, boolean][] = [];
  const chat: string[] = [];
  const seats = new TableSeats({
    id: "T", token, held, url: "ws://x/ws/tables/T", speed: "instant", ask: "turn",
    onchat: (line) => chat.push(line.text),
    onfirst: (s, tok, own) => firsts.push([s.seat, tok, own]),
    afterDraw: (fn) => fn(),
    connect: (o) => {
      const f = new FakeClient(o);
      fakes.push(f);
      return f;
    },
  });
  return { seats, fakes, firsts, chat };
}

describe("the seats a table page plays", () => {
  it("plays the link's seat, or every hot seat of this device with it", () => {
    expect(localTokens("a", HOTSEAT)).toEqual(["a", "b"]);
    expect(localTokens("z", HOTSEAT)).toEqual(["z"]);
    expect(localTokens("a", undefined)).toEqual(["a"]);
    expect(localTokens("", HOTSEAT)).toEqual(["a", "b"]);
    expect(localTokens("", { ...HOTSEAT, seats: [], spectator: "s" })).toEqual(["s"]);
    expect(localTokens("", undefined)).toEqual([]);
  });

  it("opens one connection a seat, and closes them with the page", () => {
    const { seats, fakes } = table("a", HOTSEAT);
    expect(fakes.map((f) => f.options.token)).toEqual(["a", "b"]);
    const close = seats.start();
    document.dispatchEvent(new Event("visibilitychange"));
    close();
    document.dispatchEvent(new Event("visibilitychange"));
    for (const f of fakes) expect(f.calls).toEqual(["start", "wake", "stop"]);
  });
});

describe("one seat", () => {
  it("shows its connection at once, remembers the link's seat on its first state, and hears the chat", () => {
    const { seats, fakes, firsts, chat } = table("a", undefined);
    expect(seats.hotseat).toBe(false);
    expect(seats.confirmed).toBe(true);
    expect(seats.msg).toBeNull();
    expect(seats.snap.status).toBe("connecting");
    fakes[0].say(state(0, 1, false));
    fakes[0].say(state(0, 2, true));
    expect(seats.msg?.version).toBe(2);
    expect(seats.disp?.version).toBe(2);
    expect(seats.myTurn).toBe(true);
    expect(firsts).toEqual([[0, "a", true]]);
    fakes[0].options.onchat?.({ text: "hello" } as any);
    expect(chat).toEqual(["hello"]);
  });

  it("sends a decision, an undo, a hint and a page of the log by the connection shown", () => {
    const { seats, fakes } = table("a", undefined);
    fakes[0].say(state(0, 1, true));
    seats.client.act(7, [3]);
    seats.client.undo();
    seats.client.hint();
    seats.client.earlier();
    expect(fakes[0].calls).toEqual(["act 7 3", "undo", "hint", "earlier"]);
  });

  it("keeps a hint while the table stays at the version it was asked at", () => {
    const { seats, fakes } = table("a", undefined);
    fakes[0].say(state(0, 4, true));
    fakes[0].options.onhint?.({ type: "hint", version: 4, moves: [] });
    expect(seats.hint?.version).toBe(4);
    fakes[0].say(state(0, 5, true));
    expect(seats.hint).toBeNull();
  });

  it("asks about a move as the setting says, changed while the page is open", () => {
    const { seats, fakes } = table("a", undefined);
    const s = state(0, 1, true, { forfeits: [7], confirm: [7] });
    seats.ask = "never";
    expect(fakes[0].options.asks?.(s, 7)).toBe(false);
    seats.ask = "forfeits";
    expect(fakes[0].options.asks?.(s, 7)).toBe(true);
  });
});

describe("a hot seat", () => {
  it("passes the device to the seat that has to decide, and waits until its person is ready", () => {
    const { seats, fakes, firsts } = table("a", HOTSEAT);
    expect(seats.hotseat).toBe(true);
    expect(seats.confirmed).toBe(false);
    fakes[0].say(state(0, 1, true));
    fakes[1].say(state(1, 1, false));
    // the first seat decides first: the device is still to be taken
    expect(seats.shown).toBe(0);
    expect(seats.confirmed).toBe(false);
    seats.ready();
    expect(seats.confirmed).toBe(true);
    // the first seat moved: the second has to decide, and the device goes to its person
    fakes[0].say(state(0, 2, false));
    fakes[1].say(state(1, 2, true));
    expect(seats.shown).toBe(1);
    expect(seats.confirmed).toBe(false);
    expect(seats.token).toBe("b");
    seats.ready();
    seats.client.act(7, []);
    expect(fakes[1].calls).toEqual(["act 7 "]);
    expect(fakes[0].calls).toEqual([]);
    // only the link's own seat is remembered as this link's; both states were first
    expect(firsts).toEqual([[0, "a", true], [1, "b", false]]);
  });

  it("stays on the seat shown while nobody of this device has to decide", () => {
    const { seats, fakes } = table("a", HOTSEAT);
    fakes[0].say(state(0, 1, false));
    fakes[1].say(state(1, 1, true));
    seats.ready();
    fakes[1].say(state(1, 2, false));
    fakes[0].say(state(0, 2, false));
    expect(seats.shown).toBe(1);
    expect(seats.confirmed).toBe(true);
  });

  it("opens the board at the end, with nothing left to hide", () => {
    const { seats, fakes } = table("a", HOTSEAT);
    fakes[0].say(state(0, 1, false));
    fakes[1].say(state(1, 1, true));
    expect(seats.confirmed).toBe(false);
    fakes[1].say(state(1, 2, false, { status: "finished" }));
    expect(seats.confirmed).toBe(true);
  });

  it("shows each seat's score as another seat of this device knows it while the device is passed", () => {
    const { seats, fakes } = table("a", HOTSEAT);
    // each seat's own row counts its hidden values (10 and 20); the others' rows do not
    fakes[0].say(state(0, 1, true, { breakdown: [row(0, 10), row(1, 1), row(2, 2)] }));
    fakes[1].say(state(1, 1, false, { breakdown: [row(0, 0), row(1, 20), row(2, 2)] }));
    expect(seats.publicScores.map((r) => [r.seat, r.total])).toEqual([[0, 0], [1, 1], [2, 2]]);
  });

  it("shows the running scores the seats' views hold while the device is passed", () => {
    const { seats, fakes } = table("a", HOTSEAT);
    expect(seats.publicRunning).toBeNull();
    fakes[0].say(state(0, 1, true, { view: { scores: [4, 2, 0] } }));
    expect(seats.publicRunning).toEqual([4, 2, 0]);
  });

  it("hears the chat from its first connection only, and hints from either", () => {
    const { seats, fakes } = table("a", HOTSEAT);
    expect(fakes[0].options.onchat).toBeDefined();
    expect(fakes[1].options.onchat).toBeUndefined();
    fakes[0].say(state(0, 3, false));
    fakes[1].say(state(1, 3, true));
    fakes[1].options.onhint?.({ type: "hint", version: 3, moves: [] });
    expect(seats.shown).toBe(1);
    expect(seats.hint?.connection).toBe(1);
  });
});
