/** The contract between the table shell and each game's board component. */
import type { GameEvent } from "../lib/protocol";

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
}
