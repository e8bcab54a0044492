/**
 * Which of a seat's moves the page asks about before sending (a setting of the page,
 * remembered in the browser): "forfeits", the default, the moves that end or give up
 * something for good (leaving the pyramid, ending a turn with actions left: the state's
 * `forfeits`); "turn", those and every move that ends the seat's turn in hand, so that
 * what could still be taken back goes to the table (the state's `confirm`); "never".
 */
import type { StateMessage } from "./protocol";

export type Ask = "forfeits" | "turn" | "never";
export const ASKS: Ask[] = ["forfeits", "turn", "never"];

/** The setting a person chose, or the default. */
export function askSetting(stored: string | null): Ask {
  return stored && (ASKS as string[]).includes(stored) ? (stored as Ask) : "forfeits";
}

/** Whether the page asks before sending `action`, chosen in `state`, under the setting `ask`. */
export function asks(state: StateMessage | null, action: number, ask: Ask): boolean {
  if (!state || ask === "never") return false;
  if (ask === "turn") return !!state.confirm?.includes(action);
  return !!state.forfeits?.includes(action);
}

/** Whether `action` gives something up for good (else it ends what may be taken back). */
export function forfeits(state: StateMessage | null, action: number): boolean {
  return !!state?.forfeits?.includes(action);
}
