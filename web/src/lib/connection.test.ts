import { describe, expect, it } from "vitest";
import { backoff, mergeLog, TableClient, type SocketLike, type Snapshot } from "./connection";
import type { LogEntry } from "./protocol";

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

  it("replaces every entry from the index the state says its log starts at", () => {
    const log = [entry(0), entry(1), entry(2)];
    expect(mergeLog(log, [], 2).map((e) => e.index)).toEqual([0, 1]);
    expect(mergeLog(log, [], 3)).toBe(log);
    expect(mergeLog(log, [entry(3)], 1).map((e) => e.index)).toEqual([0, 3]);
  });
});

describe("TableClient's log in pages", () => {
  function opened(first: object) {
    const h = harness();
    h.client.start();
    const s = h.sockets[0];
    s.onopen?.({});
    s.serverSends(first);
    return { ...h, s };
  }

  it("holds a first state's newest entries and asks for the page before them", () => {
    const h = opened(state(90, [entry(88), entry(89)], { log_from: 88 }));
    expect(h.snap().logFrom).toBe(88);
    expect(h.client.earlier()).toBe(true);
    expect(h.client.earlier()).toBe(false); // one page at a time
    expect(h.s.sent.at(-1)).toEqual({ type: "log", before: 88 });
    expect(h.snap().loadingLog).toBe(true);
    // A new entry arrives meanwhile: it goes below, the page above.
    h.s.serverSends(state(91, [entry(90)], { log_from: 90 }));
    h.s.serverSends({ type: "log", before: 88, log_from: 40, log: [entry(40), entry(87)] });
    expect(h.snap().log.map((e) => e.index)).toEqual([40, 87, 88, 89, 90]);
    expect(h.snap().logFrom).toBe(40);
    expect(h.snap().loadingLog).toBe(false);
    expect(h.client.earlier()).toBe(true);
    h.s.serverSends({ type: "log", before: 40, log_from: 0, log: [entry(0)] });
    expect(h.snap().log.map((e) => e.index)).toEqual([0, 40, 87, 88, 89, 90]);
    // The whole log is here: nothing more to ask.
    expect(h.snap().logFrom).toBe(0);
    expect(h.client.earlier()).toBe(false);
  });

  it("asks again a second later when the page was refused for the rate, telling nobody", () => {
    const h = opened(state(90, [entry(89)], { log_from: 89 }));
    h.client.earlier();
    h.s.serverSends({ type: "refused", code: "rate_limited", message: "slow down", version: 90 });
    h.s.serverSends(state(90, [], { log_from: 90 }));
    expect(h.snap().refused).toBe(null);
    expect(h.snap().log.map((e) => e.index)).toEqual([89]);
    const again = h.timers.at(-1)!;
    expect(again.ms).toBe(1000);
    again.fn();
    expect(h.s.sent.filter((m) => m.type === "log")).toEqual([{ type: "log", before: 89 }, { type: "log", before: 89 }]);
  });

  it("starts its log again from a state that skipped entries it never had", () => {
    const h = opened(state(10, [entry(9)], { log_from: 9 }));
    h.s.drop();
    h.timers.at(-1)!.fn(); // reconnect
    const s = h.sockets[1];
    s.onopen?.({});
    expect(s.sent[0].version).toBe(10);
    // Far behind: the newest entries, from an index past the client's version.
    s.serverSends(state(200, [entry(180), entry(199)], { log_from: 180 }));
    expect(h.snap().log.map((e) => e.index)).toEqual([180, 199]);
    expect(h.snap().logFrom).toBe(180);
    // Close behind: appended as ever.
    s.serverSends(state(201, [entry(200)], { log_from: 200 }));
    expect(h.snap().log.map((e) => e.index)).toEqual([180, 199, 200]);
    expect(h.snap().logFrom).toBe(180);
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
    expect(s.sent[0]).toEqual({ type: "hello", token: "tok", version: null, undo: true });
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
    expect(s.sent.filter((m) => m.type === "act")).toEqual([{ type: "act", action: 7, version: 5, pending: 0 }]);
    expect(h.snap().pending).toBe(true);
    s.serverSends({ type: "refused", code: "stale_version", message: "old", version: 6 });
    s.serverSends(state(6, [entry(5)]));
    expect(h.snap().pending).toBe(false);
    expect(h.snap().refused?.code).toBe("stale_version");
    expect(h.client.act(7)).toBe(true);
    expect(s.sent.at(-1)).toEqual({ type: "act", action: 7, version: 6, pending: 0 });
  });

  it("acts inside a turn in hand with its count, and takes the last decision back", () => {
    const h = harness();
    h.client.start();
    const s = h.sockets[0];
    s.onopen?.({});
    s.serverSends(state(5, []));
    expect(h.client.undo()).toBe(false); // nothing in hand
    h.client.act(7);
    s.serverSends(state(5, [], { pending: 1, pending_log: [entry(5, "held")] }));
    expect(h.client.act(7)).toBe(true);
    expect(s.sent.at(-1)).toEqual({ type: "act", action: 7, version: 5, pending: 1 });
    s.serverSends(state(5, [], { pending: 2, pending_log: [entry(5, "held"), entry(6, "held")] }));
    expect(h.client.undo()).toBe(true);
    expect(h.client.undo()).toBe(false); // one at a time, until the answer
    expect(s.sent.at(-1)).toEqual({ type: "undo", version: 5, pending: 2 });
    s.serverSends(state(5, [], { pending: 1, pending_log: [entry(5, "held")] }));
    expect(h.snap().state?.pending).toBe(1);
    expect(h.snap().log).toEqual([]); // what is in hand never joins the table's log
  });

  it("sends a choice of several decisions one after another, showing only the last state", () => {
    const h = harness();
    h.client.start();
    const s = h.sockets[0];
    s.onopen?.({});
    const offers = (...ids: number[]) => ({ actions: ids.map((action) => ({ action, kind: "do", params: {}, targets: [], text: "x" })) });
    s.serverSends(state(5, [], offers(1, 2)));
    const shown: (number | undefined)[] = [];
    const seen = h.snap();
    expect(h.client.act(1, [10, 20])).toBe(true);
    expect(s.sent.at(-1)).toEqual({ type: "act", action: 1, version: 5, pending: 0 });
    // the card is in hand: the move goes out at once, and the page still waits
    s.serverSends(state(5, [], { pending: 1, ...offers(10, 11) }));
    expect(s.sent.at(-1)).toEqual({ type: "act", action: 10, version: 5, pending: 1 });
    shown.push(h.snap().state?.pending);
    expect(h.snap().pending).toBe(true);
    s.serverSends(state(5, [], { pending: 2, ...offers(20, 21) }));
    expect(s.sent.at(-1)).toEqual({ type: "act", action: 20, version: 5, pending: 2 });
    shown.push(h.snap().state?.pending);
    // the last one reveals: the turn is committed, and that state is shown
    s.serverSends(state(8, [entry(5), entry(6), entry(7)], offers()));
    expect(h.snap().pending).toBe(false);
    expect(h.snap().state?.version).toBe(8);
    expect(h.snap().log.length).toBe(3);
    expect(shown).toEqual([seen.state?.pending, seen.state?.pending]); // nothing in between reached the page
    expect(s.sent.filter((m) => m.type === "act").length).toBe(3);
  });

  it("stops a choice of several where the table answers otherwise", () => {
    const h = harness();
    h.client.start();
    const s = h.sockets[0];
    s.onopen?.({});
    const offers = (...ids: number[]) => ({ actions: ids.map((action) => ({ action, kind: "do", params: {}, targets: [], text: "x" })) });
    s.serverSends(state(5, [], offers(1)));
    h.client.act(1, [10, 20]);
    // the next decision is not offered: the person is shown where the table stands
    s.serverSends(state(5, [], { pending: 1, ...offers(11) }));
    expect(s.sent.filter((m) => m.type === "act").length).toBe(1);
    expect(h.snap().pending).toBe(false);
    expect(h.snap().state?.pending).toBe(1);
    // a choice begun with a turn in hand leaves a decision that would commit it to the person
    h.client.act(11, [30]);
    s.serverSends(state(5, [], { pending: 2, confirm: [30], ...offers(30) }));
    expect(s.sent.filter((m) => m.type === "act").length).toBe(2);
    expect(h.snap().pending).toBe(false);
  });

  it("takes back the person's last choice whole, however many decisions it took", () => {
    const h = harness();
    h.client.start();
    const s = h.sockets[0];
    s.onopen?.({});
    const offers = (...ids: number[]) => ({ actions: ids.map((action) => ({ action, kind: "do", params: {}, targets: [], text: "x" })) });
    s.serverSends(state(5, [], offers(1)));
    h.client.act(1, [10]);
    s.serverSends(state(5, [], { pending: 1, ...offers(10) }));
    s.serverSends(state(5, [], { pending: 2, ...offers(40) }));
    expect(h.snap().state?.pending).toBe(2);
    h.client.act(40);
    s.serverSends(state(5, [], { pending: 3, ...offers(50) }));
    // the last choice was one decision: one undo
    expect(h.client.undo()).toBe(true);
    expect(s.sent.at(-1)).toEqual({ type: "undo", version: 5, pending: 3 });
    s.serverSends(state(5, [], { pending: 2, ...offers(40) }));
    expect(h.snap().pending).toBe(false);
    // the one before was two: both go, the page shown only the end
    expect(h.client.undo()).toBe(true);
    s.serverSends(state(5, [], { pending: 1, ...offers(10) }));
    expect(s.sent.at(-1)).toEqual({ type: "undo", version: 5, pending: 1 });
    expect(h.snap().pending).toBe(true);
    expect(h.snap().state?.pending).toBe(2);
    s.serverSends(state(5, [], { pending: 0, ...offers(1) }));
    expect(h.snap().pending).toBe(false);
    expect(h.snap().state?.pending).toBe(0);
    expect(s.sent.filter((m) => m.type === "undo").length).toBe(3);
  });

  it("sends a decision refused as unavailable again, at its version, until it is recorded", () => {
    const h = harness();
    h.client.start();
    const s = h.sockets[0];
    s.onopen?.({});
    s.serverSends(state(5, []));
    h.client.act(7);
    s.serverSends({ type: "refused", code: "unavailable", message: "storage", version: 5 });
    s.serverSends(state(5, []));
    // The page says so and keeps the decision pending: nothing else may be sent.
    expect(h.snap().storage).toBe(true);
    expect(h.snap().pending).toBe(true);
    expect(h.snap().refused).toBe(null);
    expect(h.client.act(7)).toBe(false);
    const again = h.timers.at(-1)!;
    expect(again.ms).toBe(500);
    again.fn();
    expect(s.sent.at(-1)).toEqual({ type: "act", action: 7, version: 5, pending: 0 });
    s.serverSends({ type: "refused", code: "unavailable", message: "storage", version: 5 });
    s.serverSends(state(5, []));
    expect(h.timers.at(-1)!.ms).toBe(1000);
    // The storage is back; the decision had been recorded after all: stale, then the state.
    h.timers.at(-1)!.fn();
    expect(s.sent.filter((m) => m.type === "act").length).toBe(3);
    s.serverSends({ type: "refused", code: "stale_version", message: "old", version: 6 });
    s.serverSends(state(6, [entry(5)]));
    expect(h.snap().storage).toBe(false);
    expect(h.snap().pending).toBe(false);
    expect(h.snap().refused).toBe(null);
    expect(h.client.act(7)).toBe(true);
  });

  it("says hello again on the same connection when the storage is away", () => {
    const h = harness();
    h.client.start();
    const s = h.sockets[0];
    s.onopen?.({});
    s.serverSends({ type: "refused", code: "unavailable", message: "storage", version: 0 });
    expect(h.snap().storage).toBe(true);
    expect(h.snap().status).toBe("connecting");
    h.timers.at(-1)!.fn();
    expect(s.sent).toEqual([
      { type: "hello", token: "tok", version: null, undo: true },
      { type: "hello", token: "tok", version: null, undo: true },
    ]);
    expect(h.sockets.length).toBe(1);
    s.serverSends(state(3, [entry(0)]));
    expect(h.snap().storage).toBe(false);
    expect(h.snap().status).toBe("open");
  });

  it("keeps a decision waiting for the storage across a lost connection", () => {
    const h = harness();
    h.client.start();
    h.sockets[0].onopen?.({});
    h.sockets[0].serverSends(state(5, []));
    h.client.act(7);
    h.sockets[0].serverSends({ type: "refused", code: "unavailable", message: "storage", version: 5 });
    h.sockets[0].drop();
    expect(h.snap().pending).toBe(true);
    h.timers.at(-1)!.fn();
    const s = h.sockets[1];
    s.onopen?.({});
    s.serverSends(state(5, []));
    h.timers.at(-1)!.fn();
    expect(s.sent.at(-1)).toEqual({ type: "act", action: 7, version: 5, pending: 0 });
    s.serverSends(state(6, [entry(5)]));
    expect(h.snap().pending).toBe(false);
    expect(h.snap().storage).toBe(false);
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
    expect(s.sent[0]).toEqual({ type: "hello", token: "tok", version: 4, undo: true });
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
    expect(h.sockets[1].sent[0]).toEqual({ type: "hello", token: "tok", version: 2, undo: true });
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

  it("takes presence into the state's seats and the seat's count, without a new state", () => {
    const h = harness();
    h.client.start();
    h.sockets[0].onopen?.({});
    const seats = [{ seat: 0, type: "me", name: null, level: null, connected: true }, { seat: 1, type: "link", name: null, level: null, connected: false }];
    h.sockets[0].serverSends(state(4, [entry(3)], { seats }));
    h.client.act(7);
    h.sockets[0].serverSends({ type: "presence", seats: [{ seat: 0, connected: true }, { seat: 1, connected: true }], here: 2 });
    expect(h.snap().state?.version).toBe(4);
    expect(h.snap().state?.seats.map((s) => s.connected)).toEqual([true, true]);
    expect(h.snap().here).toBe(2);
    expect(h.snap().log.length).toBe(1);
    expect(h.snap().pending).toBe(true); // a presence is not the answer to a decision
  });

  it("stops for good when the seat's link was replaced", () => {
    const h = harness();
    h.client.start();
    h.sockets[0].onopen?.({});
    h.sockets[0].serverSends({ type: "error", code: "link_replaced", message: "new link" });
    const timersBefore = h.timers.length;
    h.sockets[0].drop();
    expect(h.snap().status).toBe("closed");
    expect(h.timers.length).toBe(timersBefore);
  });
});
