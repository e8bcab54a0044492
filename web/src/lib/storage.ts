/**
 * What this browser remembers of its tables, in localStorage: the creator token (it lists
 * "my tables", asks for rematches and hands seats to bots), and the tokens of the seats
 * this browser holds, so that a reload, a hot-seat device and "my tables" find them
 * again. Storage may be refused (private windows): everything then works for the visit.
 */

export interface HeldSeat { seat: number; token: string; hotseat: boolean }
export interface HeldTable {
  table_id: string;
  game: string;
  created: string;
  seats: HeldSeat[];
  spectator?: string;
  /** This browser made the table: its creator token may ask for a rematch or hand seats to bots. */
  creator?: boolean;
  /** Links of the friends' seats, kept for the creator to copy again. */
  links?: { seat: number; token: string }[];
}

const CREATOR = "necropolis.creator";
const TABLES = "necropolis.tables";

const memory = new Map<string, string>();

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return memory.get(key) ?? null;
  }
}

function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    memory.set(key, value);
  }
}

export function creatorToken(): string | null {
  return read(CREATOR);
}

export function setCreatorToken(token: string): void {
  write(CREATOR, token);
}

export function heldTables(): HeldTable[] {
  try {
    const list = JSON.parse(read(TABLES) ?? "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

export function heldTable(id: string): HeldTable | undefined {
  return heldTables().find((t) => t.table_id === id);
}

/** Remember a table, merging the seats with what is already known of it. */
export function rememberTable(table: HeldTable): void {
  const all = heldTables();
  const old = all.find((t) => t.table_id === table.table_id);
  if (old) {
    const seats = [...old.seats];
    for (const n of table.seats) {
      const i = seats.findIndex((s) => s.seat === n.seat);
      if (i < 0) seats.push(n);
      else seats[i] = { ...n, hotseat: n.hotseat || (seats[i].token === n.token && seats[i].hotseat) };
    }
    seats.sort((a, b) => a.seat - b.seat);
    Object.assign(old, { seats, links: table.links ?? old.links, spectator: table.spectator ?? old.spectator, creator: table.creator || old.creator });
  } else {
    all.unshift(table);
  }
  // Only the newest tables: storage is small and old links are in the server's list.
  write(TABLES, JSON.stringify(all.slice(0, 50)));
}

/** Remember that this browser holds `token` for `seat` (a link someone opened here). */
export function rememberSeat(id: string, game: string, seat: number | null, token: string): void {
  if (seat === null) {
    rememberTable({ table_id: id, game, created: new Date().toISOString(), seats: [], spectator: token });
  } else {
    rememberTable({ table_id: id, game, created: new Date().toISOString(), seats: [{ seat, token, hotseat: false }] });
  }
}

/** Remember a table this browser just made: every token it was given. */
export function rememberCreated(
  result: { table_id: string; spectator_token: string; seats: { seat: number; type: string; token?: string | null }[] },
  game: string,
): void {
  rememberTable({
    table_id: result.table_id,
    game,
    created: new Date().toISOString(),
    creator: true,
    // The seats played on this device ("me" and hot seats) open together as one hot-seat table.
    seats: result.seats
      .filter((s) => s.token && (s.type === "me" || s.type === "hotseat"))
      .map((s) => ({ seat: s.seat, token: s.token!, hotseat: true })),
    spectator: result.spectator_token,
    links: result.seats.filter((s) => s.token && s.type === "link").map((s) => ({ seat: s.seat, token: s.token! })),
  });
}

const SPEED = "necropolis.speed";

/** The pace chosen for other seats' moves ("normal", "fast", "instant"), if one was. */
export function storedSpeed(): string | null {
  return read(SPEED);
}

export function rememberSpeed(speed: string): void {
  write(SPEED, speed);
}

const WHOLE = "necropolis.whole-board";

/** Whether this browser shows the whole board on a phone, smaller, instead of scrolling it sideways. */
export function storedWholeBoard(): boolean {
  return read(WHOLE) === "1";
}

export function rememberWholeBoard(whole: boolean): void {
  write(WHOLE, whole ? "1" : "0");
}

const GUEST = "necropolis.guest-name";

/** The name this browser's guest chose last (for the seats they create or join), if any. */
export function guestName(): string {
  return read(GUEST) ?? "";
}

export function rememberGuestName(name: string): void {
  if (name.trim()) write(GUEST, name.trim());
}

const ASK = "necropolis.ask";

/** Which moves this browser asks about before sending them ("forfeits", "turn", "never"), if chosen. */
export function storedAsk(): string | null {
  return read(ASK);
}

export function rememberAsk(ask: string): void {
  write(ASK, ask);
}
