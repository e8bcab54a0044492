/**
 * Multi-step choices: how clicks on the board become one decision. Each legal action
 * lists the board targets it touches in the order a player picks them; the table keeps
 * the targets picked so far. An action is a candidate while its targets start with the
 * picked ones; a click picks the next target of some candidate. The decision is sent
 * once exactly one candidate remains, or once the only candidates left have had all
 * their targets picked and there is one of them. Candidates whose targets are all picked
 * (with no targets at all, before any click) are shown as buttons in the prompt bar.
 *
 * A step at which every candidate left goes on through one and the same target, and none
 * is complete yet, is no choice: `settle` picks it for the person, so that the page goes
 * straight to the real choice (two pairs of one animal both score at one pillar: the
 * person chooses the pair, not the pillar).
 *
 * A board may say that some targets are picked in any order (`AnyOrder`: the dice of a
 * reroll are a set): a run of adjacent such targets in an action matches the picks made
 * in its place in whatever order they came, so a person never has to know the order in
 * which the engine happens to list them.
 *
 * A decision whose descriptor lists ways on (`then`: a card, then the adventurer it moves)
 * is offered as one choice per way (`chained`): the person picks the decision's targets and
 * the way's together, and nothing is sent until the last of them. A board may also say that
 * a click on some targets only selects them (`Holds`: a hand card): such a click never
 * sends, even when it settles the decision (a button in the prompt bar then sends it). A
 * click on a picked target takes it back (with what was picked after it, unless the picks
 * left still fit a decision: a die out of a set), and a click on a
 * target offered at an earlier step goes back to that step and picks it instead, so that a
 * person changes a selection by clicking, as on a card table.
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

/** Whether a click on a target only selects it, never sending a decision. */
export type Holds = (target: string) => boolean;

/** No target is only selected: a click that settles a decision sends it. */
export const sends: Holds = () => false;

/**
 * `actions` with each decision that lists ways on (`then`) replaced by one choice per
 * way: its own targets followed by the way's, the way kept as `via`.
 */
export function chained(actions: ActionInfo[]): ActionInfo[] {
  return actions.flatMap((a) => {
    if (!a.then?.length) return [a];
    const { then, ...own } = a;
    return then.map((way) => ({ ...own, targets: [...a.targets, ...way.targets], via: way }));
  });
}

/** A choice's key among the others: a chained decision is offered once per way. */
export function choiceKey(a: ActionInfo): string {
  return a.via ? `${a.action}:${a.targets.join(",")}` : String(a.action);
}

/** The decisions to send after a choice's own, in order (none unless it is chained). */
export function chainOf(a: ActionInfo): number[] {
  return a.via?.actions ?? [];
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

/**
 * The person clicked `target`: the new picks, and the action to send if it is settled. A
 * next target is picked; a picked one is taken back with the picks after it; a target
 * offered at an earlier step is picked there instead; anything else changes nothing.
 */
export function pick(actions: ActionInfo[], picked: string[], target: string, anyOrder: AnyOrder = inOrder, holds: Holds = sends): Choice {
  if (!nextTargets(actions, picked, anyOrder).includes(target)) {
    const at = picked.indexOf(target);
    if (at >= 0) {
      // Taken back alone where the picks left still make a choice (a die out of a set),
      // else with everything picked after it (a card, with the adventurer it was to move).
      const without = [...picked.slice(0, at), ...picked.slice(at + 1)];
      return { picked: candidates(actions, without, anyOrder).length ? without : picked.slice(0, at), send: null };
    }
    for (let k = picked.length - 1; k >= 0; k--) {
      if (nextTargets(actions, picked.slice(0, k), anyOrder).includes(target)) return pick(actions, picked.slice(0, k), target, anyOrder, holds);
    }
    return { picked, send: null };
  }
  const now = [...picked, target];
  const left = candidates(actions, now, anyOrder);
  if (left.length === 1 && !holds(target)) return { picked: [], send: left[0] };
  return { picked: now, send: null };
}

/**
 * `picked` with every step that is no choice picked too: while two or more candidates are
 * left, none of them complete, and they all go on through one single target, that target.
 * (One candidate left is a decision a click makes, so its targets are never picked for it.)
 */
export function settle(actions: ActionInfo[], picked: string[], anyOrder: AnyOrder = inOrder): string[] {
  let now = picked;
  for (;;) {
    const left = candidates(actions, now, anyOrder);
    if (left.length < 2 || left.some((a) => nextOf(a.targets, now, anyOrder)!.length === 0)) return now;
    const next = nextTargets(actions, now, anyOrder);
    if (next.length !== 1) return now;
    now = [...now, next[0]];
  }
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
