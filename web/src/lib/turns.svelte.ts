/**
 * Your turn: the tables where it is the signed-in player's turn, pushed by the server on
 * the account's WebSocket (`/ws/account`, docs/protocol.md), shared by every part of the
 * page (the header's count, the tab's title, the lobby). When a table joins the list
 * while the page is open, the player is told: a short tone if they chose it (made with
 * the Web Audio API, off by default), and the browser's notification when the page is in
 * the background and they allowed it (asked on a click, never on load).
 */
import { account } from "./account.svelte";

export interface TurnTable { table_id: string; game: string; seat: number; token: string; since: string | null }

export const turns = $state<{ count: number; tables: TurnTable[]; connected: boolean }>({ count: 0, tables: [], connected: false });

/** What a notice says, in the page's language (set by the App, which knows the texts). */
let describe: (t: TurnTable) => { title: string; body: string } = (t) => ({ title: "necropolis", body: t.game });
/** How the page opens an address without reloading (set by the App). */
let navigate: (url: string) => void = (url) => location.assign(url);

export function setNoticeTexts(fn: typeof describe): void {
  describe = fn;
}

export function setNavigator(fn: (url: string) => void): void {
  navigate = fn;
}

// --- the stream ----------------------------------------------------------------------

let socket: WebSocket | null = null;
let retry: ReturnType<typeof setTimeout> | null = null;
let wait = 1000;
let wanted = false;
/** The tables known to wait already: only a table that joins them is announced. */
let known: Set<string> | null = null;

function streamUrl(): string {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws/account`;
}

function open(): void {
  if (!wanted || socket) return;
  const ws = new WebSocket(streamUrl());
  socket = ws;
  ws.onopen = () => {
    turns.connected = true;
    wait = 1000;
  };
  ws.onmessage = (e) => {
    let message: any;
    try {
      message = JSON.parse(String(e.data));
    } catch {
      return;
    }
    if (message?.type === "turns" && Array.isArray(message.tables)) arrived(message.tables as TurnTable[]);
    else if (message?.type === "error" && message.code === "not_signed_in") wanted = false;
  };
  ws.onclose = () => {
    if (socket === ws) socket = null;
    turns.connected = false;
    if (!wanted) return;
    // Back again after a while, longer each time (a server restarting, a network gone).
    retry = setTimeout(() => {
      retry = null;
      open();
    }, wait);
    wait = Math.min(wait * 2, 30000);
  };
}

function close(): void {
  wanted = false;
  if (retry) clearTimeout(retry);
  retry = null;
  const ws = socket;
  socket = null;
  ws?.close();
  turns.count = 0;
  turns.tables = [];
  turns.connected = false;
  known = null;
}

/** Follow the signed-in player's turns (call once; it follows signing in and out). */
export function followTurns(): void {
  $effect.root(() => {
    $effect(() => {
      if (account.name) {
        wanted = true;
        open();
      } else {
        close();
      }
    });
    const wake = () => {
      if (wanted && !socket && document.visibilityState === "visible") {
        if (retry) clearTimeout(retry);
        retry = null;
        open();
      }
    };
    document.addEventListener("visibilitychange", wake);
    window.addEventListener("online", wake);
  });
}

/** Ask the server to count again (the page just took a seat, say). */
export function recheckTurns(): void {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "check" }));
}

function arrived(tables: TurnTable[]): void {
  const fresh = known === null ? [] : tables.filter((t) => !known!.has(t.table_id));
  known = new Set(tables.map((t) => t.table_id));
  turns.tables = tables;
  turns.count = tables.length;
  if (fresh.length) announce(fresh);
}

/** Whether a table is among those where it is the player's turn. */
export function myTurnAt(table: string): boolean {
  return turns.tables.some((t) => t.table_id === table);
}

// --- telling the player ---------------------------------------------------------------

const SOUND_KEY = "necropolis.turn_sound";

export const noticeSettings = $state<{ sound: boolean; permission: NotificationPermission | "unsupported" }>({
  sound: readSound(),
  permission: typeof Notification === "undefined" ? "unsupported" : Notification.permission,
});

function readSound(): boolean {
  try {
    return localStorage.getItem(SOUND_KEY) === "on";
  } catch {
    return false;
  }
}

export function setSound(on: boolean): void {
  noticeSettings.sound = on;
  try {
    localStorage.setItem(SOUND_KEY, on ? "on" : "off");
  } catch {
    // A browser that keeps nothing keeps the choice for this page only.
  }
  // Chosen by a click: the browser lets sound start now (and so later, on this page).
  if (on) tone();
}

/** Ask for the browser's permission to show notifications: only ever from a click. */
export async function askNotices(): Promise<void> {
  if (typeof Notification === "undefined") return;
  try {
    noticeSettings.permission = await Notification.requestPermission();
  } catch {
    noticeSettings.permission = Notification.permission;
  }
}

function inBackground(): boolean {
  return document.visibilityState === "hidden" || !document.hasFocus();
}

function announce(tables: TurnTable[]): void {
  if (noticeSettings.sound) tone();
  if (typeof Notification === "undefined") return;
  noticeSettings.permission = Notification.permission;
  if (Notification.permission !== "granted" || !inBackground()) return;
  for (const t of tables) {
    const { title, body } = describe(t);
    try {
      const n = new Notification(title, { body, tag: `necropolis-turn-${t.table_id}` });
      n.onclick = () => {
        window.focus();
        navigate(`/t/${encodeURIComponent(t.table_id)}#${t.token}`);
        n.close();
      };
    } catch {
      // A browser that shows notifications only from a service worker: the count and
      // the title still tell.
    }
  }
}

let audio: AudioContext | null = null;

/** Two short rising notes (about a third of a second), made on the spot. */
export function tone(): void {
  const Context = window.AudioContext ?? (window as any).webkitAudioContext;
  if (!Context) return;
  try {
    audio ??= new Context() as AudioContext;
    const ctx = audio;
    if (ctx.state === "suspended") ctx.resume().catch(() => {});
    const start = ctx.currentTime + 0.02;
    [660, 880].forEach((frequency, i) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      const at = start + i * 0.16;
      osc.type = "sine";
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.14);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + 0.15);
    });
  } catch {
    // No sound here: the other signs still tell.
  }
}

/** Browsers let a page's sound start only after a click or key on it: the first one
 *  readies the tone for later, when the player chose to hear it. */
export function readySound(): void {
  const ready = () => {
    if (noticeSettings.sound && !audio) {
      const Context = window.AudioContext ?? (window as any).webkitAudioContext;
      if (Context) {
        try {
          audio = new Context() as AudioContext;
        } catch {
          audio = null;
        }
      }
    }
    if (audio?.state === "suspended") audio.resume().catch(() => {});
  };
  window.addEventListener("pointerdown", ready, { capture: true });
  window.addEventListener("keydown", ready, { capture: true });
}
