import { describe, expect, it } from "vitest";
import { backoff, mergeLog, TableClient, type LogEntry, type SocketLike, type Snapshot } from "./protocol";

class FakeSocket implements SocketLike {
  sent: any[] = [];
  closed = false;
  onopen: ((ev: any) => void) | null = null;
  onmessage: ((ev: { data: any }) => void) | null = null;
  onclose: ((ev: any) => void) | null = null;
  onerror: ((ev: any) => void) | null = null;
  send(data: string) { this.sent.push(JSON.parse(data)); }
  close() { this.closed = true; this.onclose?.({}); }
  serverSends(msg: object) { this.onmessage?.({ data: JSON.stringify(msg) }); }
  drop() { this.onclose?.({}); }
}

function entry(index: number, kind = "action"): LogEntry {
  return { index, kind, seat: 0, params: {}, text: `${kind} ${index}` };
}

function state(version: number, log: LogEntry[], extra: object = {}) {
  return { type: "state", protocol: 1, table: "T", version, seat: 0, status: "playing", game: "g", options: {},
    seats: [], view: {}, current_player: 0, acting_seats: [0], prompt: null,
    actions: [{ action: 7, kind: "do", params: {}, targets: [], text: "x" }], log, breakdown: [], ...extra };
}

function harness() {
  const sockets: FakeSocket[] = [];
  const timers: { fn: () => void; ms: number; handle: number }[] = [];
  let snap: Snapshot | null = null;
  const client = new TableClient({
    url: "ws://x/ws/tables/T", token: "tok",
    onchange: (s) => { snap = s; },
    connect: () => { const s = new FakeSocket(); sockets.push(s); return s; },
    setTimer: (fn, ms) => { const handle = timers.length; timers.push({ fn, ms, handle }); return handle; },
    clearTimer: (h) => { const t = timers.find((x) => x.handle === h); if (t) t.fn = () => {}; },
    random: () => 0.5,
  });
  return { client, sockets, timers, snap: () => snap! };
}

describe("mergeLog", () => {
  it("appends new entries and replaces any from the first index they bring", () => {
    const log = [entry(0), entry(1), entry(2)];
    expect(mergeLog(log, [entry(2, "again"), entry(3)]).map((e) => e.text)).toEqual(["action 0", "action 1", "again 2", "action 3"]);
    expect(mergeLog(log, [])).toBe(log);
    expect(mergeLog(log, [entry(0, "full")]).map((e) => e.text)).toEqual(["full 0"]);
  });
});

describe("backoff", () => {
  it("doubles up to the ceiling", () => {
    const mid = () => 0.5;
    expect([0, 1, 2, 3, 10].map((a) => backoff(a, 500, 4000, mid))).toEqual([500, 1000, 2000, 4000, 4000]);
  });
});

describe("TableClient", () => {
  it("says hello with no version first, then keeps the log the states bring", () => {
    const h = harness();
    h.client.start();
    const s = h.sockets[0];
    s.onopen?.({});
    expect(s.sent[0]).toEqual({ type: "hello", token: "tok", version: null });
    s.serverSends(state(2, [entry(0), entry(1)]));
    expect(h.snap().status).toBe("open");
    expect(h.snap().log.length).toBe(2);
    s.serverSends(state(3, [entry(2)]));
    expect(h.snap().log.map((e) => e.index)).toEqual([0, 1, 2]);
    expect(h.client.lastVersion).toBe(3);
  });

  it("sends a decision with the version it was chosen at, once", () => {
    const h = harness();
    h.client.start();
    const s = h.sockets[0];
    s.onopen?.({});
    s.serverSends(state(5, []));
    expect(h.client.act(7)).toBe(true);
    expect(h.client.act(7)).toBe(false);
    expect(s.sent.filter((m) => m.type === "act")).toEqual([{ type: "act", action: 7, version: 5 }]);
    expect(h.snap().pending).toBe(true);
    s.serverSends({ type: "refused", code: "stale_version", message: "old", version: 6 });
    s.serverSends(state(6, [entry(5)]));
    expect(h.snap().pending).toBe(false);
    expect(h.snap().refused?.code).toBe("stale_version");
    expect(h.client.act(7)).toBe(true);
    expect(s.sent.at(-1)).toEqual({ type: "act", action: 7, version: 6 });
  });

  it("reconnects after a drop with a growing delay and says the last version it saw", () => {
    const h = harness();
    h.client.start();
    h.sockets[0].onopen?.({});
    h.sockets[0].serverSends(state(4, [entry(0), entry(3)]));
    h.sockets[0].drop();
    expect(h.snap().status).toBe("waiting");
    const first = h.timers.at(-1)!;
    expect(first.ms).toBe(500);
    first.fn();
    expect(h.sockets.length).toBe(2);
    h.sockets[1].drop();
    expect(h.timers.at(-1)!.ms).toBe(1000);
    h.timers.at(-1)!.fn();
    const s = h.sockets[2];
    s.onopen?.({});
    expect(s.sent[0]).toEqual({ type: "hello", token: "tok", version: 4 });
    s.serverSends(state(6, [entry(4), entry(5)]));
    expect(h.snap().log.map((e) => e.index)).toEqual([0, 3, 4, 5]);
    // A success resets the delay.
    s.drop();
    expect(h.timers.at(-1)!.ms).toBe(500);
  });

  it("reconnects at once when woken while waiting, and not while connected", () => {
    const h = harness();
    h.client.start();
    h.sockets[0].onopen?.({});
    h.sockets[0].serverSends(state(2, [entry(0)]));
    h.client.wake();
    expect(h.sockets.length).toBe(1);
    h.sockets[0].drop();
    expect(h.snap().status).toBe("waiting");
    h.client.wake();
    expect(h.sockets.length).toBe(2);
    h.sockets[1].onopen?.({});
    expect(h.sockets[1].sent[0]).toEqual({ type: "hello", token: "tok", version: 2 });
  });

  it("does not send a decision while disconnected", () => {
    const h = harness();
    h.client.start();
    h.sockets[0].onopen?.({});
    h.sockets[0].serverSends(state(1, []));
    h.sockets[0].drop();
    expect(h.client.act(7)).toBe(false);
  });

  it("stops for good on a bad token and does not reconnect", () => {
    const h = harness();
    h.client.start();
    h.sockets[0].onopen?.({});
    h.sockets[0].serverSends({ type: "error", code: "bad_token", message: "no" });
    const timersBefore = h.timers.length;
    h.sockets[0].drop();
    expect(h.snap().status).toBe("closed");
    expect(h.snap().error?.code).toBe("bad_token");
    expect(h.timers.length).toBe(timersBefore);
  });

  it("asks for a reload when the server speaks a newer protocol", () => {
    const h = harness();
    h.client.start();
    h.sockets[0].onopen?.({});
    h.sockets[0].serverSends(state(1, [], { protocol: 2 }));
    expect(h.snap().outdated).toBe(true);
  });

  it("stops without reconnecting when the page leaves", () => {
    const h = harness();
    h.client.start();
    h.sockets[0].onopen?.({});
    h.client.stop();
    expect(h.sockets[0].closed).toBe(true);
    expect(h.sockets.length).toBe(1);
    expect(h.snap().status).toBe("closed");
  });
});
