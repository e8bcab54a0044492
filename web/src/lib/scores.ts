/**
 * How a seat's score reads during play: the points the viewer knows, and whether part of
 * the score is out of its sight (a breakdown part marked `hidden`: face-down values, a
 * secret card), in which case the total is a lower bound and reads `12+?`, or `?` when
 * nothing of it is known, never a plain 0.
 */
import type { SeatScore } from "./protocol";

/** Whether some of the seat's score is hidden from this viewer. */
export function hasHidden(score: SeatScore | undefined): boolean {
  return !!score?.parts.some((p) => p.hidden);
}

/** The score as shown: `12`, `12+?` or `?`. */
export function scoreText(points: number, hidden: boolean): string {
  if (!hidden) return String(points);
  return points === 0 ? "?" : `${points}+?`;
}
