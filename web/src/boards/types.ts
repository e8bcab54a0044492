/** The contract between the table shell and each game's board component. */

/** One legal decision of the seat, as the server's action descriptor. */
export interface ActionInfo { action: number; kind: string; params: Record<string, unknown>; targets: string[]; text: string }

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
}
