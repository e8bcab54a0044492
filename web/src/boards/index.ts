/** Game id → its board component; a game without one gets the generic board. */
import type { Component } from "svelte";
import GenericBoard from "./GenericBoard.svelte";
import HorusBoard from "./HorusBoard.svelte";
import LuxorBoard from "./LuxorBoard.svelte";
import type { BoardProps } from "./types";

export const boards: Record<string, Component<BoardProps>> = {
  horus: HorusBoard,
  luxor: LuxorBoard,
};

export function boardFor(game: string): Component<BoardProps> {
  return boards[game] ?? GenericBoard;
}
