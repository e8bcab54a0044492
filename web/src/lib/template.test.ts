import { describe, expect, it } from "vitest";
import { render, templateFields } from "./template";

const ctx = {
  seatLabel: (seat: number | null) => (seat === null ? "nobody" : seat === 0 ? "you" : `Player ${seat + 1}`),
};

describe("render", () => {
  it("fills plain parameters", () => {
    expect(render("Shaft {shaft} is open", { shaft: 3 }, ctx)).toBe("Shaft 3 is open");
  });
  it("chooses the plural form and puts the number for #", () => {
    const t = "{seat} took {count|# scarab|# scarabs}";
    expect(render(t, { seat: 1, count: 1 }, ctx)).toBe("Player 2 took 1 scarab");
    expect(render(t, { seat: 1, count: 0 }, ctx)).toBe("Player 2 took 0 scarabs");
    expect(render(t, { seat: 1, count: 4 }, ctx)).toBe("Player 2 took 4 scarabs");
  });
  it("writes seats as you or Player N and capitalises the sentence", () => {
    expect(render("{seat} drew a card", { seat: 0 }, ctx)).toBe("You drew a card");
    expect(render("Waiting for {acting_seat}", { acting_seat: 0 }, ctx)).toBe("Waiting for you");
    expect(render("{winner_seat} won", { winner_seat: 2 }, ctx)).toBe("Player 3 won");
    expect(render("{seat} passed", { seat: null }, ctx)).toBe("Nobody passed");
  });
  it("leaves a seat-named parameter holding text as text", () => {
    expect(render("{seat}", { seat: "north" }, ctx)).toBe("North");
  });
  it("translates string parameters as terms and keeps unknown ones", () => {
    const terms: Record<string, string> = { crocodile: "krokodil" };
    const c = { ...ctx, term: (id: string) => terms[id] };
    expect(render("een {animal} en een {other}", { animal: "crocodile", other: "ibis" }, c)).toBe(
      "Een krokodil en een ibis",
    );
  });
  it("writes a whole number by `numbered` where it has words for it, else as digits", () => {
    const places: Record<number, string> = { 0: "the stairs", 42: "the chamber" };
    const c = { ...ctx, numbered: (name: string, n: number) => (name === "field" ? (places[n] ?? `field ${n}`) : undefined) };
    expect(render("from {field} to {field2}", { field: 0, field2: 3 }, c)).toBe("From the stairs to 3");
    expect(render("{seat} reached {field}", { seat: 1, field: 42 }, c)).toBe("Player 2 reached the chamber");
    expect(render("on {field}, {field|# step|# steps}", { field: 12 }, c)).toBe("On field 12, 12 steps");
  });
  it("joins lists and prints whole floats as integers", () => {
    expect(render("{dice}", { dice: [1, 4, 6] }, ctx)).toBe("1, 4, 6");
    expect(render("{points} points", { points: 5.0 }, ctx)).toBe("5 points");
  });
  it("renders a missing parameter as empty rather than 'undefined'", () => {
    expect(render("a{x}b", {}, ctx)).toBe("Ab");
  });
  it("lists the fields of a template", () => {
    expect([...templateFields("{seat} took {count|#|#s} from {shaft}")].sort()).toEqual(["count", "seat", "shaft"]);
  });
});
