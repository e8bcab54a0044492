/**
 * The HTTP side of the table protocol (docs/protocol.md): the games, creating tables,
 * the creator's list, rematch, handing a seat to a bot, the replay and the record. Tokens
 * go in the Authorization header; a failure raises an ApiError with the server's plain
 * message, so the page can show it.
 */
import type { ChatLine } from "./chat.svelte";
import type { ClockSettings, ClockState } from "./clock";
import type { AnalysisState, CreatedTable, GameInfo, History, Level, MyTable, OpenTable, OptionInfo, Replay, Seated, SeatInfo, SeatRequest, TableSummary, AccountSettings, Profile, TableRatings, Standing } from "./protocol";

// The bodies are the server's types (lib/protocol.ts, generated from its models), under
// the names the pages know them by.
export type { AccountSettings, GameInfo, OpenTable, Profile, Seated, SeatRequest, Standing, TableRatings, TableSummary };
export type OptionSpec = OptionInfo;
export type SeatType = SeatRequest["type"];
export type CreatedSeat = SeatInfo;
export type Created = CreatedTable;
/** A seat an account holds: its table, the seat and the seat's token (for this account only). */
export type AccountTable = MyTable;
export type RatingHistory = History;
/** A replay's position; `turns` are the steps at which the match's turns begin (0 first). */
export type ReplayStep = Replay;

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
  // lang: the language the creator plays in, which the lobby shows beside an open table.
  create: (game: string, options: Record<string, unknown>, seats: SeatRequest[], creatorToken?: string | null, clock?: ClockSettings | null, rated = false, hints = false, lang: "en" | "nl" | "it" = "en") =>
    call<Created>("POST", "/api/tables", null, { game, options, seats, lang, ...(creatorToken ? { creator_token: creatorToken } : {}), ...(clock && clock.mode !== "untimed" ? { clock } : {}), ...(rated ? { rated: true } : {}), ...(hints ? { hints: true } : {}) }),
  mine: (creatorToken: string) => call<TableSummary[]>("GET", "/api/tables/mine", creatorToken),
  table: (id: string, token: string) => call<TableSummary>("GET", `/api/tables/${encodeURIComponent(id)}`, token),
  rematch: (id: string, creatorToken: string) => call<Created>("POST", `/api/tables/${encodeURIComponent(id)}/rematch`, creatorToken),
  toBot: (id: string, seat: number, level: Level, creatorToken: string) =>
    call<unknown>("POST", `/api/tables/${encodeURIComponent(id)}/seats/${seat}/bot`, creatorToken, { level }),
  /** The seat's person takes it back from the bot that stood in when their time ran out. */
  takeBack: (id: string, seat: number, token: string) =>
    call<{ clock: ClockState | null }>("POST", `/api/tables/${encodeURIComponent(id)}/seats/${seat}/back`, token),
  newLink: (id: string, seat: number, creatorToken: string) =>
    call<TableSummary>("POST", `/api/tables/${encodeURIComponent(id)}/seats/${seat}/link`, creatorToken),
  /** The open tables in play, newest first (the lobby's list). */
  lobby: () => call<OpenTable[]>("GET", "/api/lobby"),
  /** Take a free seat of an open table (a guest's `name`; an account plays under its own). */
  join: (id: string, name: string | null) => call<Seated>("POST", `/api/tables/${encodeURIComponent(id)}/join`, null, name ? { name } : {}),
  /** Ask to play again at a finished table, or accept (`creatorToken`: this browser's, if it has one). */
  again: (id: string, token: string, creatorToken: string | null) =>
    call<Seated>("POST", `/api/tables/${encodeURIComponent(id)}/again`, token, creatorToken ? { creator_token: creatorToken } : {}),
  /** The guest at the seat (its own token) chooses the name it shows. */
  nameSeat: (id: string, seat: number, name: string, token: string) =>
    call<TableSummary>("POST", `/api/tables/${encodeURIComponent(id)}/seats/${seat}/name`, token, { name }),
  replay: (id: string, step: number, seat: number | null, token: string) =>
    call<ReplayStep>(
      "GET",
      `/api/tables/${encodeURIComponent(id)}/replay?step=${step}${seat === null ? "" : `&seat=${seat}`}`,
      token,
    ),
  /** Where the finished match's analysis stands (the first ask queues it), and it once made. */
  analysis: (id: string, token: string) => call<AnalysisState>("GET", `/api/tables/${encodeURIComponent(id)}/analysis`, token),
  deeperAnalysis: (id: string, worlds: number, token: string) =>
    call<AnalysisState>("POST", `/api/tables/${encodeURIComponent(id)}/analysis`, token, { worlds }),
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
