/**
 * Multi-step choices: how clicks on the board become one decision. Each legal action
 * lists the board targets it touches in the order a player picks them; the table keeps
 * the targets picked so far. An action is a candidate while its targets start with the
 * picked ones; a click picks the next target of some candidate. The decision is sent
 * once exactly one candidate remains, or once the only candidates left have had all
 * their targets picked and there is one of them. Candidates whose targets are all picked
 * (with no targets at all, before any click) are shown as buttons in the prompt bar.
 *
 * A board may say that some targets are picked in any order (`AnyOrder`: the dice of a
 * reroll are a set): a run of adjacent such targets in an action matches the picks made
 * in its place in whatever order they came, so a person never has to know the order in
 * which the engine happens to list them.
 */
import type { ActionInfo } from "../boards/types";

export interface Choice {
  /** The targets picked so far. */
  picked: string[];
  /** The action to send now, if the picks settle it. */
  send: ActionInfo | null;
}

/** Whether a target may be picked in any order among the adjacent targets like it. */
export type AnyOrder = (target: string) => boolean;

/** Every target in the order its action lists it. */
export const inOrder: AnyOrder = () => false;

/**
 * What an action with `targets` may pick next after `picked`: null when the picks do not
 * fit it, [] when all its targets are picked, else the targets a click may add (one, or
 * the members of an any-order run not picked yet).
 */
export function nextOf(targets: string[], picked: string[], anyOrder: AnyOrder = inOrder): string[] | null {
  if (picked.length > targets.length) return null;
  let i = 0;
  while (i <= targets.length) {
    if (i === targets.length) return picked.length === i ? [] : null;
    if (!anyOrder(targets[i])) {
      if (i === picked.length) return [targets[i]];
      if (picked[i] !== targets[i]) return null;
      i += 1;
      continue;
    }
    let end = i;
    while (end < targets.length && anyOrder(targets[end])) end += 1;
    // The run targets[i..end): the picks made in its place are some of its members, each once.
    const left = targets.slice(i, end);
    for (const p of picked.slice(i, end)) {
      const k = left.indexOf(p);
      if (k < 0) return null;
      left.splice(k, 1);
    }
    if (picked.length < end) return left;
    i = end;
  }
  return null;
}

/** The actions still possible after `picked`. */
export function candidates(actions: ActionInfo[], picked: string[], anyOrder: AnyOrder = inOrder): ActionInfo[] {
  return actions.filter((a) => nextOf(a.targets, picked, anyOrder) !== null);
}

/** The targets a click may pick next, each once, in the order the actions list them. */
export function nextTargets(actions: ActionInfo[], picked: string[], anyOrder: AnyOrder = inOrder): string[] {
  const seen = new Set<string>();
  for (const a of actions) for (const target of nextOf(a.targets, picked, anyOrder) ?? []) seen.add(target);
  return [...seen];
}

/** The candidates with nothing left to pick: the prompt bar's buttons. */
export function completed(actions: ActionInfo[], picked: string[], anyOrder: AnyOrder = inOrder): ActionInfo[] {
  return candidates(actions, picked, anyOrder).filter((a) => a.targets.length === picked.length);
}

/** The person clicked `target`: the new picks, and the action to send if it is settled. */
export function pick(actions: ActionInfo[], picked: string[], target: string, anyOrder: AnyOrder = inOrder): Choice {
  if (!nextTargets(actions, picked, anyOrder).includes(target)) return { picked, send: null };
  const now = [...picked, target];
  const left = candidates(actions, now, anyOrder);
  if (left.length === 1) return { picked: [], send: left[0] };
  return { picked: now, send: null };
}

/** The actions a click on `target` (after `picked`) leads on to. */
export function through(actions: ActionInfo[], picked: string[], target: string, anyOrder: AnyOrder = inOrder): ActionInfo[] {
  return actions.filter((a) => nextOf(a.targets, picked, anyOrder)?.includes(target));
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
