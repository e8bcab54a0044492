/**
 * Multi-step choices: how clicks on the board become one decision. Each legal action
 * lists the board targets it touches in the order a player picks them; the table keeps
 * the targets picked so far. An action is a candidate while its targets start with the
 * picked ones; a click picks the next target of some candidate. The decision is sent
 * once exactly one candidate remains, or once the only candidates left have had all
 * their targets picked and there is one of them. Candidates whose targets are all picked
 * (with no targets at all, before any click) are shown as buttons in the prompt bar.
 */
import type { ActionInfo } from "../boards/types";

export interface Choice {
  /** The targets picked so far. */
  picked: string[];
  /** The action to send now, if the picks settle it. */
  send: ActionInfo | null;
}

function startsWith(targets: string[], picked: string[]): boolean {
  return picked.length <= targets.length && picked.every((p, i) => targets[i] === p);
}

/** The actions still possible after `picked`. */
export function candidates(actions: ActionInfo[], picked: string[]): ActionInfo[] {
  return actions.filter((a) => startsWith(a.targets, picked));
}

/** The targets a click may pick next, each once, in the order the actions list them. */
export function nextTargets(actions: ActionInfo[], picked: string[]): string[] {
  const seen = new Set<string>();
  for (const a of candidates(actions, picked)) {
    if (a.targets.length > picked.length) seen.add(a.targets[picked.length]);
  }
  return [...seen];
}

/** The candidates with nothing left to pick: the prompt bar's buttons. */
export function completed(actions: ActionInfo[], picked: string[]): ActionInfo[] {
  return candidates(actions, picked).filter((a) => a.targets.length === picked.length);
}

/** The person clicked `target`: the new picks, and the action to send if it is settled. */
export function pick(actions: ActionInfo[], picked: string[], target: string): Choice {
  if (!nextTargets(actions, picked).includes(target)) return { picked, send: null };
  const now = [...picked, target];
  const left = candidates(actions, now);
  if (left.length === 1) return { picked: [], send: left[0] };
  return { picked: now, send: null };
}

/** The actions a click on `target` (after `picked`) leads on to. */
export function through(actions: ActionInfo[], picked: string[], target: string): ActionInfo[] {
  return candidates(actions, picked).filter((a) => a.targets[picked.length] === target);
}

/**
 * The parameters every action through `target` shares: what picking it decides (for an
 * adventurer card, its name and ability), so a button for it can say so.
 */
export function sharedParams(actions: ActionInfo[]): Record<string, unknown> {
  if (actions.length === 0) return {};
  const shared: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(actions[0].params)) {
    if (actions.every((a) => JSON.stringify(a.params[key]) === JSON.stringify(value))) shared[key] = value;
  }
  return shared;
}
