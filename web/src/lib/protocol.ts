/**
 * The table protocol's types (docs/protocol.md): every HTTP body and WebSocket message, and
 * the registries' names (levels, game ids), generated from the server's pydantic models.
 *
 * DO NOT EDIT: edit the models (src/necropolis/server/models.py, a route's), then run
 * scripts/protocol_types, which writes this file; ./test checks that it is current.
 */

export type ClientMessage = Hello | Act | Undo | Commit | Ping | LogRequest | HintRequest;
/**
 * The levels people play against, weakest first: the one list of their names, which
 * the bots' registry, the server's protocol (and through it the page's types), the
 * terminal and the reports all read.
 */
export type Level = "easy" | "medium" | "hard";
/**
 * A game's id, as the games' registry (necropolis.games) has them.
 */
export type GameId = "horus" | "luxor" | "luxor2001";
export type ServerMessage = StateMessage | LogPage | Refused | ErrorMessage | Pong | Presence | ChatLine | Hint;

export interface AccountSettings {
  email: string | null;
  lang: string;
  mail?: boolean;
}
export interface Act {
  type: "act";
  action: number;
  version: number;
  pending?: number;
}
/**
 * A legal decision's descriptor: ``targets`` are the board elements it touches as
 * ``"type:id"``, in the order a player picks them; ``then``: its ways on, if any.
 */
export interface ActionInfo {
  action: number;
  kind: string;
  params: {
    [k: string]: unknown;
  };
  targets: string[];
  text: string;
  then?: FollowUp[];
}
/**
 * A way on after a decision that reveals nothing: the board targets picked for it
 * after the decision's own, the decisions that make it (sent one after another), and
 * its words.
 */
export interface FollowUp {
  targets: string[];
  actions: number[];
  kind: string;
  params: {
    [k: string]: unknown;
  };
  text: string;
}
/**
 * A person at a finished table asks to play again, or accepts: the creator token of
 * their browser, if it has one (the first to ask makes the new table with it, and may
 * change its seats as its creator; without one, a new one is made).
 */
export interface Again {
  creator_token?: string | null;
}
/**
 * A finished table's rematch: the new table, and the seats of this one whose people
 * accepted to play again (a bot's at once).
 */
export interface AgainState {
  table: string;
  seats: number[];
}
/**
 * Where a finished match's analysis stands: ``queued``, ``running`` (``done`` of
 * ``total`` moments weighed), ``done`` or ``failed`` (``error`` says why); ``analysis``
 * is the last one made (``necropolis analyse --json``'s form), kept while a deeper one
 * is made, null before the first.
 */
export interface AnalysisState {
  status: "queued" | "running" | "done" | "failed";
  worlds: number;
  done: number;
  total: number;
  error: string | null;
  analysis: {
    [k: string]: unknown;
  } | null;
}
/**
 * One message, as the page shows it (as text).
 */
export interface ChatLine {
  type: "chat";
  index: number;
  seat: number | null;
  name: string | null;
  text: string;
  at: string;
}
export interface ChatLog {
  spectators_apart: boolean;
  messages: ChatLine[];
}
export interface ChatSettings {
  spectators_apart: boolean;
}
export interface ChatWrite {
  text: string;
}
export interface Hello {
  type: "hello";
  token: string;
  version?: number | null;
  undo?: boolean;
}
/**
 * Take back the last decision of the seat's turn in hand.
 */
export interface Undo {
  type: "undo";
  version: number;
  pending: number;
}
/**
 * Commit the seat's turn in hand now, as one turn.
 */
export interface Commit {
  type: "commit";
  version: number;
  pending: number;
}
export interface Ping {
  type: "ping";
}
/**
 * Ask for a page of the log's entries older than index ``before``.
 */
export interface LogRequest {
  type: "log";
  before: number;
}
/**
 * Ask for the seat's best moves now, at a table that allows hints.
 */
export interface HintRequest {
  type: "hint";
  version: number;
}
/**
 * How a table is timed (see docs/protocol.md, clocks): ``untimed`` (no clock, the
 * default), ``realtime`` (each seat has ``base`` seconds for the whole match and gains
 * ``increment`` after each of its turns) or ``turn`` (each turn must be played within
 * ``turn`` seconds). When a seat's time runs out, ``rule`` applies: ``bot`` (a bot of
 * ``level`` plays the seat until its person takes it back), ``skip`` (the seat's turn is
 * let go by, in a game whose rules allow it) or ``abandon`` (the match ends there).
 */
export interface ClockSettings {
  mode?: "untimed" | "realtime" | "turn";
  base?: number;
  increment?: number;
  turn?: number;
  rule?: "bot" | "skip" | "abandon";
  level?: Level;
}
/**
 * A timed table's clocks as measured at ``measured`` (the server's time, seconds
 * since 1970): a client counts the running ones down from when it got them.
 */
export interface ClockState {
  mode: "realtime" | "turn";
  base: number;
  increment: number;
  turn: number;
  rule: "bot" | "skip" | "abandon";
  level: Level;
  measured: number;
  abandoned: number | null;
  seats: SeatClock[];
}
export interface SeatClock {
  seat: number;
  left: number | null;
  running: boolean;
  deadline: string | null;
  timeouts: number;
}
export interface CreateTable {
  game: string;
  options?: {
    [k: string]: boolean | number | string;
  };
  /**
   * @minItems 1
   * @maxItems 12
   */
  seats: SeatRequest[];
  creator_token?: string | null;
  clock?: ClockSettings | null;
  rated?: boolean;
  hints?: boolean;
  lang?: "en" | "nl" | "it";
}
/**
 * A seat as the creator asks for it: their own (``me``), a friend's by link, another
 * person at their device (``hotseat``), a bot of ``level``, a seat ``open`` to anyone in
 * the lobby, or an account invited by its ``name`` (``invite``).
 */
export interface SeatRequest {
  type: "me" | "link" | "hotseat" | "bot" | "open" | "invite";
  level?: Level | null;
  name?: string | null;
}
export interface CreatedTable {
  table_id: string;
  creator_token: string;
  seats: SeatInfo[];
  spectator_token: string;
}
export interface SeatInfo {
  seat: number;
  type: "me" | "link" | "hotseat" | "bot";
  name: string | null;
  level: Level | null;
  token?: string | null;
  account?: boolean;
  waiting?: boolean;
  open?: boolean;
}
export interface Credentials {
  name: string;
  password: string;
}
/**
 * Ask for an analysis with more worlds a moment (slower, steadier).
 */
export interface DeeperAnalysis {
  worlds: number;
}
export interface ErrorBody {
  error: ErrorDetail;
}
export interface ErrorDetail {
  code: string;
  message: string;
}
export interface ErrorMessage {
  type: "error";
  code:
    | "bad_token"
    | "claimed_seat"
    | "no_such_table"
    | "hello_expected"
    | "too_large"
    | "too_many_connections"
    | "link_replaced"
    | "protocol";
  message: string;
}
/**
 * Something that happened, as the game's rules said it and as the reader may know it
 * (``docs/protocol.md``, "Events"): ``type`` names it; its other fields are the game's
 * own (its ``events.py``).
 */
export interface GameEvent {
  type: string;
  [k: string]: unknown;
}
export interface GameInfo {
  id: string;
  title: string;
  description: string;
  min_players: number;
  max_players: number;
  default_players: number;
  options: OptionInfo[];
  levels: Level[];
  skips_turns?: boolean;
}
export interface OptionInfo {
  name: string;
  kind: "int" | "bool" | "choice" | "text";
  default: boolean | number | string;
  choices: (boolean | number | string)[] | null;
  minimum: number | null;
  maximum: number | null;
  help: string;
}
export interface GameRecord {
  game: string;
  played: number;
  wins: number;
}
export interface HandToBot {
  level: Level;
}
export interface Health {
  ok: boolean;
  protocol: number;
}
/**
 * The answer to :class:`HintRequest`, to the asking seat's connection only.
 */
export interface Hint {
  type: "hint";
  version: number;
  moves: HintMove[];
}
/**
 * One of the best moves a hint names: its descriptor and the seat's chance to win
 * with it, as the analysis judges it from the seat's window.
 */
export interface HintMove {
  action: number;
  chance: number;
  info: ActionInfo;
}
/**
 * A hint a seat asked for, at version ``index`` (before that action).
 */
export interface HintUse {
  seat: number;
  index: number;
}
export interface History {
  game: string;
  points: Point[];
}
export interface Point {
  table_id: string;
  at: string;
  rating: number;
}
/**
 * A person takes a free seat of an open table: a guest's ``name`` (a signed-in
 * person plays under their account's).
 */
export interface Join {
  name?: string | null;
}
/**
 * A line of the log: ``index`` is the position in the history of the action that
 * caused it, ``seat`` the acting seat (None: chance).
 */
export interface LogEntry {
  index: number;
  kind: string;
  seat: number | null;
  params: {
    [k: string]: unknown;
  };
  text: string;
}
/**
 * The answer to :class:`LogRequest`: the entries just before ``before``, every one
 * whose index is from ``log_from`` on (0: the log's first), a page at most.
 */
export interface LogPage {
  type: "log";
  before: number;
  log_from: number;
  log: LogEntry[];
}
export interface Me {
  name: string | null;
}
export interface MyTable {
  table: TableSummary;
  seat: number;
  token: string;
}
export interface TableSummary {
  table_id: string;
  game: string;
  options: {
    [k: string]: unknown;
  };
  status: "playing" | "finished";
  version: number;
  created: string;
  updated: string;
  seats: SeatInfo[];
  players?: number | null;
  spectator_token?: string | null;
  deadline?: string | null;
}
export interface NewPassword {
  old: string;
  new: string;
}
/**
 * A table in the lobby's list: its game and options, its seats (``open`` the ones
 * free), how many are free, its clock (None: untimed), whether it is rated, and the
 * language its creator plays in.
 */
export interface OpenTable {
  table_id: string;
  game: string;
  options: {
    [k: string]: unknown;
  };
  players: number;
  seats: SeatInfo[];
  free: number;
  clock: ClockSettings | null;
  rated: boolean;
  lang: string;
  created: string;
}
/**
 * A finished match of the player's: where they sat, everyone's seat and final score,
 * the player's place (1: first, a tie sharing it) and whether they won.
 */
export interface PastMatch {
  table_id: string;
  game: string;
  finished: string;
  seat: number;
  seats: SeatInfo[];
  scores: number[];
  place: number;
  won: boolean;
  statistics?: Statistic[];
}
/**
 * A figure of a finished match, one value per seat (pairs made, wounds taken), in the
 * table language (``docs/table-language.md``).
 */
export interface Statistic {
  kind: string;
  params: {
    [k: string]: unknown;
  };
  text: string;
  values: number[];
}
export interface Pong {
  type: "pong";
}
/**
 * Who is at the table, sent when it changes (never a whole state): each seat's
 * ``connected`` as a ``state`` gives it, and for a seat's own connection ``here``, how
 * many connections of its seat are open on this server process, itself included.
 */
export interface Presence {
  type: "presence";
  seats: SeatPresence[];
  here: number | null;
}
export interface SeatPresence {
  seat: number;
  connected: boolean;
}
export interface Profile {
  name: string;
  since: string;
  games: GameRecord[];
  matches?: PastMatch[];
}
/**
 * What a seat is asked now.
 */
export interface Prompt {
  kind: string;
  params: {
    [k: string]: unknown;
  };
  text: string;
}
export interface RatedMark {
  rated: boolean;
}
export interface Refused {
  type: "refused";
  code:
    | "stale_version"
    | "not_your_turn"
    | "illegal_action"
    | "malformed"
    | "too_large"
    | "rate_limited"
    | "seat_taken_by_bot"
    | "finished"
    | "unavailable"
    | "nothing_to_undo"
    | "no_hints"
    | "waiting_for_players";
  message: string;
  version: number;
}
export interface Replay {
  step: number;
  steps: number;
  seat: number | null;
  view: {
    [k: string]: unknown;
  };
  events: GameEvent[];
  log: LogEntry[];
  breakdown: SeatScore[];
  turns: number[];
  acting_seats?: number[];
  winners?: number[];
  statistics?: Statistic[];
  yours?: number | null;
}
/**
 * One seat's score: its parts add up to ``total``.
 */
export interface SeatScore {
  seat: number;
  parts: ScorePart[];
  total: number;
  tiebreak: Tiebreak[];
}
/**
 * A part of a seat's score; ``hidden``: its points are not known to this viewer yet
 * (counted 0).
 */
export interface ScorePart {
  kind: string;
  params: {
    [k: string]: unknown;
  };
  points: number;
  text: string;
  hidden?: boolean;
}
export interface Tiebreak {
  kind: string;
  value: number;
  text: string;
}
export interface Rules {
  language: string;
  markdown: string;
}
export interface SeatChange {
  seat: number;
  player: string | null;
  bot: string | null;
  before: number;
  after: number;
}
/**
 * The name a guest chooses for the seat they sit at.
 */
export interface SeatName {
  name: string;
}
export interface SeatState {
  seat: number;
  type: "me" | "link" | "hotseat" | "bot";
  name: string | null;
  level: Level | null;
  connected: boolean;
  standin?: boolean;
  account?: boolean;
  waiting?: boolean;
  open?: boolean;
}
/**
 * Where a person now sits: the table, the seat and its token (theirs alone: the link
 * ``/t/{table_id}#{token}`` opens it); ``creator_token``, when this request made the
 * table (a rematch) with a new one.
 */
export interface Seated {
  table_id: string;
  seat: number;
  token: string;
  creator_token?: string | null;
  made?: boolean;
}
export interface StateMessage {
  type: "state";
  protocol: number;
  table: string;
  version: number;
  seat: number | null;
  status: "playing" | "finished";
  game: string;
  options: {
    [k: string]: unknown;
  };
  seats: SeatState[];
  view: {
    [k: string]: unknown;
  };
  current_player: number;
  acting_seats: number[];
  prompt: Prompt | null;
  actions: ActionInfo[];
  events: GameEvent[];
  log: LogEntry[];
  log_from: number;
  breakdown: SeatScore[];
  winners: number[];
  statistics: Statistic[];
  steps: Step[];
  pending: number;
  pending_log: LogEntry[];
  confirm: number[];
  forfeits: number[];
  hints: boolean;
  hints_used: HintUse[];
  again: AgainState | null;
  clock: ClockState | null;
}
/**
 * One version a connection missed: who acted, the seat's view after it, and the
 * events of that action as the seat may know them (None: no longer kept).
 */
export interface Step {
  version: number;
  by: number | null;
  view: {
    [k: string]: unknown;
  } | null;
  events: GameEvent[] | null;
}
export interface SettingsChange {
  email: string | null;
  lang?: string;
}
export interface Standing {
  player: string | null;
  bot: string | null;
  rating: number;
  mu: number;
  sigma: number;
  games: number;
}
export interface TableClock {
  clock: ClockState | null;
}
export interface TableRatings {
  rated: boolean;
  changes: SeatChange[] | null;
}
export interface TurnCount {
  type?: string;
  count: number;
  tables: TurnTable[];
}
export interface TurnTable {
  table_id: string;
  game: string;
  seat: number;
  token: string;
  since: string | null;
}

/** The protocol's version (a state's `protocol` above it: reload). */
export const PROTOCOL = 1 as const;

/** The levels, weakest first. */
export const LEVELS = ["easy","medium","hard"] as const;

/** A bot seat's level when none is said. */
export const DEFAULT_LEVEL = "medium" as const;

/** Every game's id. */
export const GAME_IDS = ["horus","luxor","luxor2001"] as const;
