/** Game id → its board component; a game without one gets the generic board. */
import type { Component } from "svelte";
import GenericBoard from "./GenericBoard.svelte";
import HorusBoard from "./HorusBoard.svelte";
import LuxorBoard from "./LuxorBoard.svelte";
import Luxor2001Board from "./Luxor2001Board.svelte";
import type { BoardProps } from "./types";

export const boards: Record<string, Component<BoardProps>> = {
  horus: HorusBoard,
  luxor: LuxorBoard,
  luxor2001: Luxor2001Board,
};

export function boardFor(game: string): Component<BoardProps> {
  return boards[game] ?? GenericBoard;
}
