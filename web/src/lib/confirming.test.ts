import { describe, expect, it } from "vitest";
import { askSetting, asks, forfeits } from "./confirming";
import type { StateMessage } from "./protocol";

const state = (confirm: number[], forfeited: number[]) => ({ confirm, forfeits: forfeited }) as unknown as StateMessage;

describe("asking before a move", () => {
  it("asks by default about the moves that give something up, not the end of a turn in hand", () => {
    const s = state([3, 7], [7]);
    expect(askSetting(null)).toBe("forfeits");
    expect(askSetting("bogus")).toBe("forfeits");
    expect(asks(s, 7, "forfeits")).toBe(true);
    expect(asks(s, 3, "forfeits")).toBe(false);
  });

  it("asks about every move that ends the turn in hand, or about none", () => {
    const s = state([3, 7], [7]);
    expect(asks(s, 3, "turn")).toBe(true);
    expect(asks(s, 7, "turn")).toBe(true);
    expect(asks(s, 5, "turn")).toBe(false);
    for (const a of [3, 5, 7]) expect(asks(s, a, "never")).toBe(false);
    expect(askSetting("never")).toBe("never");
  });

  it("tells a move that gives something up from one that ends the turn", () => {
    const s = state([3, 7], [7]);
    expect(forfeits(s, 7)).toBe(true);
    expect(forfeits(s, 3)).toBe(false);
    // a server that does not say which: nothing is a forfeit, nothing asked by default
    expect(asks({ confirm: [3] } as unknown as StateMessage, 3, "forfeits")).toBe(false);
  });
});
