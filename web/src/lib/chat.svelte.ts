/**
 * The chat's lines as they arrive on a table's WebSocket (a `chat` message, apart from
 * the game's `state`), handed to the chat panel of that table; and the seats a person
 * muted at a table, kept in this browser.
 */
import type { ChatLine } from "./protocol";

export type { ChatLine };

type Listener = (line: ChatLine) => void;
const listeners = new Map<string, Set<Listener>>();

export function onChat(table: string, fn: Listener): () => void {
  const set = listeners.get(table) ?? new Set<Listener>();
  set.add(fn);
  listeners.set(table, set);
  return () => set.delete(fn);
}

export function chatArrived(table: string, line: ChatLine): void {
  for (const fn of listeners.get(table) ?? []) fn(line);
}

/** A muted writer: a seat's number, or "s" for the spectators. */
export type Muted = string;

function muteKey(table: string): string {
  return `necropolis.muted.${table}`;
}

export function mutedAt(table: string): Muted[] {
  try {
    const v = JSON.parse(localStorage.getItem(muteKey(table)) ?? "[]");
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

export function setMuted(table: string, muted: Muted[]): void {
  try {
    localStorage.setItem(muteKey(table), JSON.stringify(muted));
  } catch {
    // A browser that keeps nothing forgets the mute with the page.
  }
}

export function writer(line: ChatLine): Muted {
  return line.seat === null ? "s" : String(line.seat);
}
