/**
 * Seats' names at a table: a person's as given, a bot by its level, a person without a name
 * by the seat's number; two seats that would read the same are told apart by their numbers.
 */
import { expect, test } from "vitest";
import { seatLine, shownNames, type NamedSeat } from "./seatnames";

const bot = (seat: number, level = "easy"): NamedSeat => ({ seat, type: "bot", name: null, level });
const person = (seat: number, name: string | null = null): NamedSeat => ({ seat, type: "link", name, level: null });
const plain = (names: string[]) => names.map((n) => n.replace(/[\u2066-\u2069]/g, ""));

test("names that differ are left as they are", () => {
  expect(plain(shownNames([person(0, "Ann"), bot(1), bot(2, "hard"), person(3)]))).toEqual(["Ann", "Easy bot", "Hard bot", "Player 4"]);
});

test("two bots of one level are told apart by their seats' numbers", () => {
  expect(plain(shownNames([bot(0), bot(1), bot(2, "hard")]))).toEqual(["Easy bot (1)", "Easy bot (2)", "Hard bot"]);
});

test("two people who chose the same name, whatever its case and spacing, are told apart", () => {
  expect(plain(shownNames([person(0, "Ann"), person(1, " ann "), person(2, "Bo")]))).toEqual(["Ann (1)", "ann (2)", "Bo"]);
});

test("a line of seats marks the reader's own, numbered where names are shared", () => {
  expect(plain([seatLine([bot(0), bot(1)], 1)])).toEqual(["Easy bot (1) · Easy bot (2) (you)"]);
});
