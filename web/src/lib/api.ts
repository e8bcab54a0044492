/**
 * The HTTP side of the table protocol (docs/protocol.md): the games, creating tables,
 * the creator's list, rematch, handing a seat to a bot, the replay and the record. Tokens
 * go in the Authorization header; a failure raises an ApiError with the server's plain
 * message, so the page can show it.
 */
import type { SeatScore, LogEntry } from "./protocol";

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
}
export interface ReplayStep { step: number; steps: number; view: Record<string, any>; log: LogEntry[]; breakdown: SeatScore[] }

export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

async function call<T>(method: string, path: string, token?: string | null, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
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
  create: (game: string, options: Record<string, unknown>, seats: SeatRequest[], creatorToken?: string | null) =>
    call<Created>("POST", "/api/tables", null, { game, options, seats, ...(creatorToken ? { creator_token: creatorToken } : {}) }),
  mine: (creatorToken: string) => call<TableSummary[]>("GET", "/api/tables/mine", creatorToken),
  table: (id: string, token: string) => call<TableSummary>("GET", `/api/tables/${encodeURIComponent(id)}`, token),
  rematch: (id: string, creatorToken: string) => call<Created>("POST", `/api/tables/${encodeURIComponent(id)}/rematch`, creatorToken),
  toBot: (id: string, seat: number, level: string, creatorToken: string) =>
    call<unknown>("POST", `/api/tables/${encodeURIComponent(id)}/seats/${seat}/bot`, creatorToken, { level }),
  replay: (id: string, step: number, seat: number | null, token: string) =>
    call<ReplayStep>(
      "GET",
      `/api/tables/${encodeURIComponent(id)}/replay?step=${step}${seat === null ? "" : `&seat=${seat}`}`,
      token,
    ),
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
