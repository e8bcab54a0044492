/**
 * The HTTP side of the table protocol (docs/protocol.md): the games, creating tables,
 * the creator's list, rematch, handing a seat to a bot, the replay and the record. Tokens
 * go in the Authorization header; a failure raises an ApiError with the server's plain
 * message, so the page can show it.
 */
import type { SeatScore, LogEntry } from "./protocol";
import type { ChatLine } from "./chat.svelte";
import type { ClockSettings, ClockState } from "./clock";

export interface OptionSpec {
  name: string;
  kind: "int" | "bool" | "choice" | "text";
  default: unknown;
  choices: unknown[] | null;
  minimum?: number | null;
  maximum?: number | null;
  help: string;
}

export interface GameInfo {
  id: string;
  title: string;
  description: string;
  min_players: number;
  max_players: number;
  default_players: number;
  options: OptionSpec[];
  levels: string[];
  /** The rules let a player give up a turn: the clock rule "skip" may be chosen. */
  skips_turns?: boolean;
}

export type SeatType = "me" | "link" | "hotseat" | "bot";
export interface SeatRequest { type: SeatType; level?: string; name?: string }
export interface CreatedSeat { seat: number; type: SeatType; name: string | null; level: string | null; token?: string }
export interface Created { table_id: string; creator_token: string; seats: CreatedSeat[]; spectator_token: string }
export interface TableSummary {
  table_id: string;
  game: string;
  options: Record<string, unknown>;
  status: string;
  version: number;
  created: string;
  updated: string;
  seats: CreatedSeat[];
  players?: number;
  /** For the creator: the spectator's token (the seats' tokens are in `seats`). */
  spectator_token?: string | null;
  /** In the lists of one's tables: when the next seat's time runs out, at a timed table in play. */
  deadline?: string | null;
}
/** A seat an account holds: its table, the seat and the seat's token (for this account only). */
export interface AccountTable { table: TableSummary; seat: number; token: string }
/** The account's settings: where a turn that waited is mailed (null: nowhere), in which
 *  language, and whether this server mails at all. */
export interface AccountSettings { email: string | null; lang: string; mail: boolean }
export interface Profile { name: string; since: string; games: { game: string; played: number; wins: number }[] }
export interface TableRatings { rated: boolean; changes: { seat: number; player: string | null; bot: string | null; before: number; after: number }[] | null }
export interface Standing { player: string | null; bot: string | null; rating: number; mu: number; sigma: number; games: number }
export interface RatingHistory { game: string; points: { table_id: string; at: string; rating: number }[] }
/** A replay's position; `turns` are the steps at which the match's turns begin (0 first). */
export interface ReplayStep { step: number; steps: number; view: Record<string, any>; log: LogEntry[]; breakdown: SeatScore[]; turns: number[] }

export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

async function call<T>(method: string, path: string, token?: string | null, body?: unknown): Promise<T> {
  // Says "the page itself" to the server, which a form of another site cannot (see
  // docs/protocol.md, accounts): cookie-authenticated requests need it.
  const headers: Record<string, string> = { "X-Necropolis": "1" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, "network", "");
  }
  const text = await res.text();
  let data: any = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err = data?.error ?? {};
    throw new ApiError(res.status, err.code ?? String(res.status), err.message ?? res.statusText);
  }
  return data as T;
}

export const api = {
  games: () => call<GameInfo[]>("GET", "/api/games"),
  layout: (game: string) => call<Record<string, any>>("GET", `/api/games/${encodeURIComponent(game)}/layout`),
  messages: (game: string) => call<Record<string, string>>("GET", `/api/games/${encodeURIComponent(game)}/messages`),
  rules: (game: string, lang: string) =>
    call<{ language: string; markdown: string }>("GET", `/api/games/${encodeURIComponent(game)}/rules?lang=${encodeURIComponent(lang)}`),
  // rated: marked in the same request (a second one could come after a bot's first move).
  create: (game: string, options: Record<string, unknown>, seats: SeatRequest[], creatorToken?: string | null, clock?: ClockSettings | null, rated = false) =>
    call<Created>("POST", "/api/tables", null, { game, options, seats, ...(creatorToken ? { creator_token: creatorToken } : {}), ...(clock && clock.mode !== "untimed" ? { clock } : {}), ...(rated ? { rated: true } : {}) }),
  mine: (creatorToken: string) => call<TableSummary[]>("GET", "/api/tables/mine", creatorToken),
  table: (id: string, token: string) => call<TableSummary>("GET", `/api/tables/${encodeURIComponent(id)}`, token),
  rematch: (id: string, creatorToken: string) => call<Created>("POST", `/api/tables/${encodeURIComponent(id)}/rematch`, creatorToken),
  toBot: (id: string, seat: number, level: string, creatorToken: string) =>
    call<unknown>("POST", `/api/tables/${encodeURIComponent(id)}/seats/${seat}/bot`, creatorToken, { level }),
  /** The seat's person takes it back from the bot that stood in when their time ran out. */
  takeBack: (id: string, seat: number, token: string) =>
    call<{ clock: ClockState | null }>("POST", `/api/tables/${encodeURIComponent(id)}/seats/${seat}/back`, token),
  newLink: (id: string, seat: number, creatorToken: string) =>
    call<TableSummary>("POST", `/api/tables/${encodeURIComponent(id)}/seats/${seat}/link`, creatorToken),
  replay: (id: string, step: number, seat: number | null, token: string) =>
    call<ReplayStep>(
      "GET",
      `/api/tables/${encodeURIComponent(id)}/replay?step=${step}${seat === null ? "" : `&seat=${seat}`}`,
      token,
    ),
  account: () => call<{ name: string | null }>("GET", "/api/account"),
  register: (name: string, password: string) => call<{ name: string | null }>("POST", "/api/account/register", null, { name, password }),
  signIn: (name: string, password: string) => call<{ name: string | null }>("POST", "/api/account/signin", null, { name, password }),
  signOut: () => call<{ name: string | null }>("POST", "/api/account/signout"),
  changePassword: (old: string, next: string) => call<{ name: string | null }>("POST", "/api/account/password", null, { old, new: next }),
  accountTables: () => call<AccountTable[]>("GET", "/api/account/tables"),
  accountSettings: () => call<AccountSettings>("GET", "/api/account/settings"),
  saveSettings: (email: string | null, lang: string) => call<AccountSettings>("POST", "/api/account/settings", null, { email, lang }),
  profile: (name: string) => call<Profile>("GET", `/api/players/${encodeURIComponent(name)}`),
  chat: (id: string, token: string) => call<{ spectators_apart: boolean; messages: ChatLine[] }>("GET", `/api/tables/${encodeURIComponent(id)}/chat`, token),
  say: (id: string, token: string, text: string) => call<ChatLine>("POST", `/api/tables/${encodeURIComponent(id)}/chat`, token, { text }),
  chatApart: (id: string, creatorToken: string, apart: boolean) =>
    call<unknown>("POST", `/api/tables/${encodeURIComponent(id)}/chat/settings`, creatorToken, { spectators_apart: apart }),
  tableRatings: (id: string, token: string) => call<TableRatings>("GET", `/api/tables/${encodeURIComponent(id)}/ratings`, token),
  leaderboard: (game: string) => call<Standing[]>("GET", `/api/ratings/${encodeURIComponent(game)}`),
  ratingHistory: (name: string) => call<RatingHistory[]>("GET", `/api/players/${encodeURIComponent(name)}/ratings`),
  /** The record as a file the browser saves (fetched with the token, then offered as a download). */
  async downloadRecord(id: string, token: string): Promise<void> {
    const res = await fetch(`/api/tables/${encodeURIComponent(id)}/record`, { headers: { Authorization: `Bearer ${token}` } });
    if (!res.ok) throw new ApiError(res.status, "record", res.statusText);
    const blob = await res.blob();
    const url = URL.createObjectURL(blob);
    const a = document.createElement("a");
    a.href = url;
    a.download = `necropolis-${id}.json`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 5000);
  },
};

/** The WebSocket address of a table, on the page's own host. */
export function socketUrl(id: string): string {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws/tables/${encodeURIComponent(id)}`;
}

export function inviteLink(id: string, token: string): string {
  return `${location.origin}/t/${encodeURIComponent(id)}#${token}`;
}
