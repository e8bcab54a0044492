import { describe, expect, it } from "vitest";
import type { ActionInfo } from "../boards/types";
import { candidates, completed, nextOf, nextTargets, pick, sharedParams, through } from "./choices";

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
  it("never takes a die twice", () => {
    expect(pick(rerolls, ["die:2"], "die:2", anyDie)).toEqual({ picked: ["die:2"], send: null });
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
