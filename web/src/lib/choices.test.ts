import { describe, expect, it } from "vitest";
import type { ActionInfo, FollowUp } from "../boards/types";
import { candidates, chained, chainOf, choiceKey, completed, inOrder, nextOf, nextTargets, pick, settle, sharedParams, through } from "./choices";

function act(action: number, targets: string[], kind = "move"): ActionInfo {
  return { action, kind, params: {}, targets, text: `action ${action}` };
}

const actions = [
  act(1, ["hand:0", "shaft:1"]),
  act(2, ["hand:0", "shaft:2"]),
  act(3, ["hand:1", "shaft:1"]),
  act(4, [], "pass"),
];

describe("choices", () => {
  it("offers the first target of every action at the start, each once", () => {
    expect(nextTargets(actions, [])).toEqual(["hand:0", "hand:1"]);
  });
  it("keeps the pick while several actions remain", () => {
    const c = pick(actions, [], "hand:0");
    expect(c).toEqual({ picked: ["hand:0"], send: null });
    expect(nextTargets(actions, c.picked)).toEqual(["shaft:1", "shaft:2"]);
    expect(candidates(actions, c.picked).map((a) => a.action)).toEqual([1, 2]);
  });
  it("sends the action once its targets are all picked", () => {
    const c = pick(actions, ["hand:0"], "shaft:2");
    expect(c.send?.action).toBe(2);
    expect(c.picked).toEqual([]);
  });
  it("sends as soon as exactly one action remains", () => {
    const c = pick(actions, [], "hand:1");
    expect(c.send?.action).toBe(3);
  });
  it("ignores a click on something that is not a next target", () => {
    expect(pick(actions, [], "shaft:1")).toEqual({ picked: [], send: null });
    expect(pick(actions, ["hand:1"], "shaft:2")).toEqual({ picked: ["hand:1"], send: null });
  });
  it("shows target-less actions as buttons before any pick", () => {
    expect(completed(actions, []).map((a) => a.action)).toEqual([4]);
    expect(completed(actions, ["hand:0"])).toEqual([]);
  });
  it("leaves a choice between actions with the same targets to the buttons", () => {
    const same = [act(5, ["tile:3"], "take"), act(6, ["tile:3"], "discard"), act(7, ["tile:4"])];
    const c = pick(same, [], "tile:3");
    expect(c).toEqual({ picked: ["tile:3"], send: null });
    expect(completed(same, c.picked).map((a) => a.action)).toEqual([5, 6]);
  });
  it("sends an action with one target on a single click even when it is a prefix of none", () => {
    const mixed = [act(8, ["die:1"]), act(9, ["die:2", "square:4"]), act(10, ["die:2", "square:5"])];
    expect(pick(mixed, [], "die:1").send?.action).toBe(8);
    expect(pick(mixed, [], "die:2").send).toBeNull();
  });
});

describe("targets a board picks in any order", () => {
  // A reroll of a set of dice, listed by the engine in die order; "stop" has no targets.
  const dice = (mask: number) => [0, 1, 2, 3].filter((i) => (mask >> i) & 1).map((i) => `die:${i}`);
  const rerolls = [act(0, [], "stop"), ...Array.from({ length: 15 }, (_, k) => act(k + 1, dice(k + 1), "reroll"))];
  const anyDie = (target: string) => target.startsWith("die:");

  it("offers every die after any die, not only the later ones", () => {
    expect(nextTargets(rerolls, ["die:3"], anyDie).sort()).toEqual(["die:0", "die:1", "die:2"]);
    expect(nextTargets(rerolls, ["die:3"])).toEqual([]);
  });
  it("maps the dice picked in any order to the action of that set", () => {
    let picked: string[] = [];
    for (const die of ["die:2", "die:0", "die:3"]) {
      const c = pick(rerolls, picked, die, anyDie);
      expect(c.send).toBeNull();
      picked = c.picked;
    }
    expect(picked).toEqual(["die:2", "die:0", "die:3"]);
    // the set {0, 2, 3} is mask 13; adding die 1 would still be possible
    expect(completed(rerolls, picked, anyDie).map((a) => a.action)).toEqual([13]);
    expect(candidates(rerolls, picked, anyDie).map((a) => a.action)).toEqual([13, 15]);
    expect(through(rerolls, picked, "die:1", anyDie).map((a) => a.action)).toEqual([15]);
    expect(pick(rerolls, picked, "die:1", anyDie).send?.action).toBe(15);
  });
  it("never takes a die twice: a click on a picked die puts it back, alone", () => {
    expect(pick(rerolls, ["die:2"], "die:2", anyDie)).toEqual({ picked: [], send: null });
    expect(pick(rerolls, ["die:2", "die:0", "die:3"], "die:0", anyDie)).toEqual({ picked: ["die:2", "die:3"], send: null });
  });
  it("keeps the order of targets outside the run", () => {
    const mixed = ["card:1", "die:0", "die:1", "square:4"];
    expect(nextOf(mixed, [], anyDie)).toEqual(["card:1"]);
    expect(nextOf(mixed, ["card:1"], anyDie)).toEqual(["die:0", "die:1"]);
    expect(nextOf(mixed, ["card:1", "die:1"], anyDie)).toEqual(["die:0"]);
    expect(nextOf(mixed, ["card:1", "die:1", "die:0"], anyDie)).toEqual(["square:4"]);
    expect(nextOf(mixed, ["card:1", "die:1", "die:0", "square:4"], anyDie)).toEqual([]);
    expect(nextOf(mixed, ["die:0"], anyDie)).toBeNull();
    expect(nextOf(mixed, ["card:1", "square:4"], anyDie)).toBeNull();
  });
});

describe("a target's meaning", () => {
  const pickAdventurer = [
    { action: 0, kind: "c", params: { adventurer: "Gore", entrance: "west" }, targets: ["adventurer:0", "square:74"], text: "" },
    { action: 1, kind: "c", params: { adventurer: "Gore", entrance: "east" }, targets: ["adventurer:0", "square:75"], text: "" },
    { action: 2, kind: "c", params: { adventurer: "Sarti", entrance: "west" }, targets: ["adventurer:1", "square:74"], text: "" },
  ];
  it("lists the actions a target leads to and what they share", () => {
    const via = through(pickAdventurer, [], "adventurer:0");
    expect(via.map((a) => a.action)).toEqual([0, 1]);
    expect(sharedParams(via)).toEqual({ adventurer: "Gore" });
    expect(sharedParams(through(pickAdventurer, ["adventurer:0"], "square:75"))).toEqual({ adventurer: "Gore", entrance: "east" });
    expect(sharedParams([])).toEqual({});
  });
});

describe("a step that is no choice", () => {
  // Two cat pairs made at once: both are scored at the cats' pillar, in either kind first.
  const pairs = [act(1, ["pillar:6"], "score_different"), act(2, ["pillar:6"], "score_same")];
  it("is picked for the person, who goes straight to the real choice", () => {
    expect(settle(pairs, [])).toEqual(["pillar:6"]);
    expect(completed(pairs, settle(pairs, [])).map((a) => a.action)).toEqual([1, 2]);
  });
  it("goes on through every forced step, and stops at a real one", () => {
    const chain = [act(1, ["a:1", "b:1", "c:1"]), act(2, ["a:1", "b:1", "c:2"])];
    expect(settle(chain, [])).toEqual(["a:1", "b:1"]);
    expect(settle(actions, [])).toEqual([]);
    expect(settle(actions, ["hand:0"])).toEqual(["hand:0"]);
  });
  it("never makes a decision: one action left is the person's click", () => {
    expect(settle([act(1, ["pillar:6"])], [])).toEqual([]);
  });
  it("stops where a decision is already complete", () => {
    expect(settle([act(1, []), act(2, ["x:1"])], [])).toEqual([]);
  });
});

describe("a card chosen with the move it makes (ways on, `then`)", () => {
  // Two cards at the hand's ends: the left one moves the adventurer on the stairs or the
  // one on field 4 (two ways from field 4); the right one is a die card, which has none.
  const way = (targets: string[], actions: number[]): FollowUp => ({ targets, actions, kind: "move", params: {}, text: `move ${targets.join(" ")}` });
  const card: ActionInfo = {
    ...act(1, ["hand:0"], "play_card"),
    then: [way(["field:0", "field:2"], [10]), way(["field:4", "field:5"], [11, 20]), way(["field:4", "field:3"], [11, 21])],
  };
  const die = act(2, ["hand:4"], "play_card");
  const offered = chained([card, die]);
  const holdCards = (target: string) => target.startsWith("hand:");

  it("offers one choice per way, each with the card's targets and the way's", () => {
    expect(offered.map((a) => a.targets)).toEqual([
      ["hand:0", "field:0", "field:2"],
      ["hand:0", "field:4", "field:5"],
      ["hand:0", "field:4", "field:3"],
      ["hand:4"],
    ]);
    expect(offered.map(chainOf)).toEqual([[10], [11, 20], [11, 21], []]);
    expect(offered.every((a) => a.then === undefined)).toBe(true);
    expect(new Set(offered.map(choiceKey)).size).toBe(4);
  });
  it("selects a card on a click, sending nothing, and offers the adventurers it moves", () => {
    const c = pick(offered, [], "hand:0", inOrder, holdCards);
    expect(c).toEqual({ picked: ["hand:0"], send: null });
    expect(nextTargets(offered, c.picked)).toEqual(["field:0", "field:4"]);
  });
  it("plays card and move with the click on an adventurer that goes one way", () => {
    const c = pick(offered, ["hand:0"], "field:0", inOrder, holdCards);
    expect(c.send?.action).toBe(1);
    expect(chainOf(c.send!)).toEqual([10]);
  });
  it("asks where an adventurer goes when it may go two ways, then plays all three", () => {
    const c = pick(offered, ["hand:0"], "field:4", inOrder, holdCards);
    expect(c).toEqual({ picked: ["hand:0", "field:4"], send: null });
    const d = pick(offered, c.picked, "field:3", inOrder, holdCards);
    expect(chainOf(d.send!)).toEqual([11, 21]);
  });
  it("changes the selection on a click on the other card, and drops it on the same card again", () => {
    expect(pick(offered, ["hand:0"], "hand:4", inOrder, holdCards)).toEqual({ picked: ["hand:4"], send: null });
    expect(pick(offered, ["hand:0", "field:4"], "hand:4", inOrder, holdCards)).toEqual({ picked: ["hand:4"], send: null });
    expect(pick(offered, ["hand:4"], "hand:4", inOrder, holdCards)).toEqual({ picked: [], send: null });
    expect(pick(offered, ["hand:0", "field:4"], "hand:0", inOrder, holdCards)).toEqual({ picked: [], send: null });
    // an adventurer of the card's other way, picked at the earlier step instead
    expect(pick(offered, ["hand:0", "field:4"], "field:0", inOrder, holdCards).send?.via?.actions).toEqual([10]);
  });
  it("leaves a card without ways on to the prompt's button once selected", () => {
    const c = pick(offered, [], "hand:4", inOrder, holdCards);
    expect(c).toEqual({ picked: ["hand:4"], send: null });
    expect(completed(offered, c.picked).map((a) => a.action)).toEqual([2]);
    // without the board's rule a click on it plays it at once, as before
    expect(pick(offered, [], "hand:4").send?.action).toBe(2);
  });
  it("picks the adventurer for the person when the card moves only one", () => {
    const one: ActionInfo = { ...act(3, ["hand:0"], "play_card"), then: [way(["field:7", "field:9"], [30]), way(["field:7", "field:8"], [31])] };
    expect(settle(chained([one]), ["hand:0"])).toEqual(["hand:0", "field:7"]);
  });
});
