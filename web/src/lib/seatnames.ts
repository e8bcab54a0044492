/**
 * The name a seat shows on the lobby's and the profile's lists: the one the server sends
 * (an account's, or the one a guest chose; see docs/protocol.md, seat names), isolated as
 * text so that right-to-left letters in it stay inside it; else, in the reader's language,
 * a bot by its level ("Hard bot") and a person by the seat's number ("Player 2").
 */
import { givenName, pageText } from "./i18n.svelte";
import { DEFAULT_LEVEL } from "./protocol";

export interface NamedSeat { seat: number; type: string; name: string | null; level: string | null }

export function shownName(s: NamedSeat): string {
  return givenName(s.name) ?? (s.type === "bot" ? pageText(`seat.bot.${s.level ?? DEFAULT_LEVEL}`) : pageText("seat.player", { n: s.seat + 1 }));
}

/** A table's seats in one line, each by its name, the reader's own marked ("you"). */
export function seatLine(seats: NamedSeat[], own: number | null = null): string {
  return seats.map((s) => (s.seat === own ? pageText("seat.own", { name: shownName(s) }) : shownName(s))).join(" · ");
}
