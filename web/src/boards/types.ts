/** The contract between the table shell and each game's board component. */
import type { GameEvent, SeatScore } from "../lib/protocol";

import type { ActionInfo as Described, FollowUp } from "../lib/protocol";

export type { FollowUp };

/**
 * One legal decision of the seat, as the server's action descriptor. A decision with
 * `then` is offered as one choice per way on (lib/choices.ts, `chained`): such a choice
 * carries its way as `via` and its targets followed by the way's.
 */
export interface ActionInfo extends Described {
  via?: FollowUp;
}

/**
 * A board component's props. The board draws `layout` and `view`, and makes clickable, for
 * every action whose `targets` start with `picked`, the target `targets[picked.length]`;
 * a click calls `onpick("type:id")`. The shell keeps `picked` and sends the action.
 */
export interface BoardProps {
  layout: Record<string, any>;   // GET /api/games/{game}/layout
  view: Record<string, any>;     // the seat's view from the last state message
  seat: number | null;           // null: spectator
  actions: ActionInfo[];         // the seat's legal decisions (empty when it may not act)
  picked: string[];              // targets already picked in a multi-step choice
  onpick: (target: string) => void;  // the person clicked target "type:id"
  t: (key: string, params?: Record<string, unknown>) => string;  // the translator
  names?: string[];              // each seat's name as the side panel writes it
  events?: GameEvent[];          // the rules' events of the action that made `view` (its marks)
  portrait?: boolean;            // a narrow screen held upright (a phone): a board may draw itself taller than wide
}

/**
 * A game's part of a seat's panel (the table's column of players, one panel per seat):
 * what that seat holds, drawn from the view the board draws, as far as the reader may
 * know it (another seat's hidden things as "?", never as 0). The shell draws the rest of
 * the panel (the seat's mark, name, turn, clock and score).
 */
export interface PanelProps {
  layout: Record<string, any>;
  view: Record<string, any>;
  seat: number;                  // the seat the panel is for
  viewer: number | null;         // the reader's seat (null: spectator)
  t: (key: string, params?: Record<string, unknown>) => string;
  names?: string[];
  /** The seat's row of the score breakdown at the same position (its parts' parameters). */
  score?: SeatScore;
}
