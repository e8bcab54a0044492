/**
 * A guest's name (a person without an account), shared by the header, where they choose
 * it, and the table page, which sits them down under it: the name this browser
 * remembers, and the seat the page shows now if a guest holds it (the header then names
 * that seat too). See docs/protocol.md, seat names.
 */
import { guestName } from "./storage";

export interface GuestSeat {
  table: string;
  seat: number;
  token: string;
  /** The name the seat shows now (null: none yet). */
  name: string | null;
}

export const guest = $state<{ name: string; seat: GuestSeat | null }>({ name: guestName(), seat: null });
