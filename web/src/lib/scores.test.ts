/** A score with hidden parts reads as what is known so far, never as a plain 0. */
import { expect, test } from "vitest";
import { hasHidden, scoreText } from "./scores";
import type { SeatScore } from "./protocol";

const row = (parts: SeatScore["parts"]): SeatScore => ({ seat: 1, parts, total: parts.reduce((a, p) => a + p.points, 0), tiebreak: [] });
const known = { kind: "part_sarcophagus", params: { eyes: 1, points: 3 }, points: 3, text: "Sarcophagus of 1 eye" };
const secret = { kind: "part_pharaoh_hidden", params: { bonus: 7 }, points: 0, text: "Pharaoh card, secret until the end: 0 or 7 points", hidden: true };

test("a row with a hidden part is known only in part", () => {
  expect(hasHidden(row([known]))).toBe(false);
  expect(hasHidden(row([known, secret]))).toBe(true);
  expect(hasHidden(undefined)).toBe(false);
});

test("the shown score says what is known and that more may come", () => {
  expect(scoreText(3, false)).toBe("3");
  expect(scoreText(0, false)).toBe("0");
  expect(scoreText(3, true)).toBe("3+?");
  expect(scoreText(0, true)).toBe("?");
});
