import { describe, expect, it } from "vitest";
import { heldTable, rememberCreated, rememberSeat } from "./storage";

describe("storage", () => {
  it("keeps a created table's local seats as one hot seat, the friends' links and the spectator's", () => {
    rememberCreated(
      {
        table_id: "T1",
        spectator_token: "spec",
        seats: [
          { seat: 0, type: "me", token: "a" },
          { seat: 1, type: "link", token: "b" },
          { seat: 2, type: "hotseat", token: "c" },
          { seat: 3, type: "bot" },
        ],
      },
      "g",
    );
    const t = heldTable("T1")!;
    expect(t.creator).toBe(true);
    expect(t.seats).toEqual([
      { seat: 0, token: "a", hotseat: true },
      { seat: 2, token: "c", hotseat: true },
    ]);
    expect(t.links).toEqual([{ seat: 1, token: "b" }]);
    expect(t.spectator).toBe("spec");
  });

  it("adds a link opened here without losing what was known, and keeps a hot seat a hot seat", () => {
    rememberSeat("T1", "g", 1, "b");
    rememberSeat("T1", "g", 0, "a");
    const t = heldTable("T1")!;
    expect(t.seats.map((s) => [s.seat, s.hotseat])).toEqual([[0, true], [1, false], [2, true]]);
    expect(t.creator).toBe(true);
    expect(t.spectator).toBe("spec");
  });

  it("remembers a spectator's link of a table it did not make", () => {
    rememberSeat("T2", "g", null, "watch");
    expect(heldTable("T2")).toMatchObject({ seats: [], spectator: "watch" });
    expect(heldTable("T2")?.creator).toBeFalsy();
  });
});
