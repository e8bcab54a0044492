/**
 * The name a seat shows on the lobby's and the profile's lists: the one the server sends
 * (an account's, or the one a guest chose; see docs/protocol.md, seat names), isolated as
 * text so that right-to-left letters in it stay inside it; else, in the reader's language,
 * a bot by its level ("Hard bot") and a person by the seat's number ("Player 2"). Where two
 * seats of a table would read the same (two easy bots, two guests who both chose "Ann"),
 * each of them is told apart by its seat's number ("Easy bot (2)"), everywhere the table
 * names them: the panels, the log, the prompts, the results and the lists.
 */
import { givenName, pageText } from "./i18n.svelte";
import { DEFAULT_LEVEL } from "./protocol";

export interface NamedSeat { seat: number; type: string; name: string | null; level: string | null }

export function shownName(s: NamedSeat): string {
  return givenName(s.name) ?? (s.type === "bot" ? pageText(`seat.bot.${s.level ?? DEFAULT_LEVEL}`) : pageText("seat.player", { n: s.seat + 1 }));
}

/** Every seat's name (see the module), in the order of ``seats``. */
export function shownNames(seats: NamedSeat[]): string[] {
  const names = seats.map(shownName);
  // Compared as a reader would: case, spacing and the isolating marks aside.
  const key = (name: string) => name.replace(/[\u2066-\u2069]/g, "").trim().normalize("NFC").toLocaleLowerCase();
  const count = new Map<string, number>();
  for (const name of names) count.set(key(name), (count.get(key(name)) ?? 0) + 1);
  return names.map((name, i) => ((count.get(key(name)) ?? 0) > 1 ? pageText("seat.numbered", { name, n: seats[i].seat + 1 }) : name));
}

/** A table's seats in one line, each by its name, the reader's own marked ("you"). */
export function seatLine(seats: NamedSeat[], own: number | null = null): string {
  const names = shownNames(seats);
  return seats.map((s, i) => (s.seat === own ? pageText("seat.own", { name: names[i] }) : names[i])).join(" · ");
}
