/**
 * Game id → its board component (a game without one gets the generic board), and the
 * board's rule for targets that may be picked in any order (none, unless it says so).
 */
import type { Component } from "svelte";
import GenericBoard from "./GenericBoard.svelte";
import HorusBoard, { anyOrder as horusAnyOrder } from "./HorusBoard.svelte";
import { inOrder, type AnyOrder } from "../lib/choices";
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

const anyOrders: Record<string, AnyOrder> = {
  horus: horusAnyOrder,
};

export function anyOrderFor(game: string): AnyOrder {
  return anyOrders[game] ?? inOrder;
}
