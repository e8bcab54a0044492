"""The terminal's menu of a seat's decisions, built from the game's action descriptors.

A seat's legal decisions arrive as descriptors (``State.action_info``: a text and the
board targets it touches, in the order a player picks them). A short list is shown as it
is, numbered. A long one becomes two steps when the descriptors allow it: the decisions
are grouped by their first target (a card in hand, say), and picking a group shows only
its decisions (the shafts that card may go into). In the second step a decision is
numbered by its second target's own number when the text shows that number (shaft 3 is
choice 3 whatever card was picked), so that the numbers stay put from turn to turn.

A person answers with a number, a unique part of a decision's text, or ``back``. This
module only interprets answers; it neither reads a state nor prints.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from necropolis.engine.language import ActionInfo

#: More decisions than this are grouped into two steps (when the targets allow it).
FLAT_LIMIT = 9


@dataclass(frozen=True)
class Choice:
    """One numbered line of the menu: a decision, or a group of them (first step)."""

    number: int
    label: str
    actions: tuple[int, ...]

    @property
    def is_group(self) -> bool:
        return len(self.actions) > 1


@dataclass(frozen=True)
class Picked:
    """The answer chose a decision."""

    action: int


@dataclass(frozen=True)
class Opened:
    """The answer opened a group (or went back to the first step when ``group`` is None)."""

    group: Choice | None


@dataclass(frozen=True)
class Refused:
    """The answer matched nothing usable; ``reason`` says why, to the person."""

    reason: str


Answer = Picked | Opened | Refused


@dataclass
class Menu:
    """The decisions of one prompt, in one or two steps."""

    descriptors: Sequence[ActionInfo]
    top: list[Choice] = field(init=False)
    two_step: bool = field(init=False)

    def __post_init__(self) -> None:
        self._text = {d["action"]: str(d["text"]) for d in self.descriptors}
        groups = _groups(self.descriptors) if len(self.descriptors) > FLAT_LIMIT else None
        self.two_step = groups is not None
        if groups is None:
            self.top = [
                Choice(n, str(d["text"]), (d["action"],)) for n, d in enumerate(self.descriptors, 1)
            ]
        else:
            self.top = [
                Choice(n, _group_label([self._text[a] for a in actions]), tuple(actions))
                for n, actions in enumerate(groups, 1)
            ]

    def text(self, action: int) -> str:
        return self._text[action]

    def inside(self, group: Choice) -> list[Choice]:
        """The second step of ``group``: its decisions, numbered stably where possible."""
        texts = [self._text[a] for a in group.actions]
        labels = _suffix_labels(texts)
        numbers = self._stable_numbers(group, labels)
        return [
            Choice(number, label, (action,))
            for number, label, action in zip(numbers, labels, group.actions, strict=True)
        ]

    def _stable_numbers(self, group: Choice, labels: list[str]) -> list[int]:
        """Each decision numbered as its text numbers its second target ("shaft 3" is 3),
        when every label shows that number after the target's type; else 1, 2, …"""
        by_action = {d["action"]: list(d.get("targets") or []) for d in self.descriptors}
        sequential = list(range(1, len(labels) + 1))
        kinds: set[str] = set()
        ids: list[int] = []
        for action in group.actions:
            targets = by_action[action]
            if len(targets) < 2:
                return sequential
            kind, _, ident = str(targets[1]).partition(":")
            if not ident.isdigit():
                return sequential
            kinds.add(kind)
            ids.append(int(ident))
        if len(kinds) != 1 or len(set(ids)) != len(ids):
            return sequential
        (kind,) = kinds
        # Ids may count from 0 where the board counts from 1: the texts tell which.
        for offset in (0, 1):
            numbers = [i + offset for i in ids]
            if all(n > 0 for n in numbers) and all(
                re.search(rf"\b{re.escape(kind)}\s+{n}(?!\d)", label, re.IGNORECASE)
                for n, label in zip(numbers, labels, strict=True)
            ):
                return numbers
        return sequential

    def answer(self, text: str, group: Choice | None) -> Answer:
        """What ``text`` asks for, at the first step (``group`` None) or inside ``group``."""
        text = text.strip()
        shown = self.inside(group) if group is not None else self.top
        if text.lower() == "back":
            if group is None:
                return Refused("You are at the first step already.")
            return Opened(None)
        if text.isdigit():
            number = int(text)
            for choice in shown:
                if choice.number == number:
                    return Opened(choice) if choice.is_group else Picked(choice.actions[0])
            numbers = sorted(c.number for c in shown)
            return Refused(f"There is no choice {number}: choose {_range_words(numbers)}.")
        return self._by_text(text, shown, group)

    def _by_text(self, text: str, shown: list[Choice], group: Choice | None) -> Answer:
        wanted = _normalise(text)
        # Inside a group, its own short labels first ("shaft 3"), then every decision.
        pools: list[list[tuple[str, int]]] = []
        if group is not None:
            pools.append([(c.label, c.actions[0]) for c in shown])
        pools.append([(self._text[d["action"]], d["action"]) for d in self.descriptors])
        for pool in pools:
            exact = [a for label, a in pool if _normalise(label) == wanted]
            if len(set(exact)) == 1:
                return Picked(exact[0])
            found = sorted({a for label, a in pool if wanted in _normalise(label)})
            if len(found) == 1:
                return Picked(found[0])
            if found:
                if group is None and self.two_step:
                    holders = [c for c in self.top if set(found) <= set(c.actions)]
                    if len(holders) == 1:
                        return Opened(holders[0])
                return Refused(f"{len(found)} choices match {text!r}: say more, or type a number.")
        return Refused(f"No choice matches {text!r}. Type help for the commands.")


def _groups(descriptors: Sequence[ActionInfo]) -> list[list[int]] | None:
    """The decisions grouped by first target, in order; None when grouping does not help."""
    order: dict[str, list[int]] = {}
    for d in descriptors:
        targets = d.get("targets") or []
        if len(targets) < 2:
            return None
        order.setdefault(str(targets[0]), []).append(d["action"])
    groups = list(order.values())
    if len(groups) < 2 or len(groups) == len(descriptors):
        return None
    return groups


def _group_label(texts: list[str]) -> str:
    """The words a group's texts share at their start, or the text of a lone decision."""
    if len(texts) == 1:
        return texts[0]
    words = [t.split(" ") for t in texts]
    common = 0
    while all(len(w) > common for w in words) and len({w[common] for w in words}) == 1:
        common += 1
    if common == 0:
        return f"{texts[0]} (and {len(texts) - 1} more)"
    return " ".join(words[0][:common]) + " …"


def _suffix_labels(texts: list[str]) -> list[str]:
    """What tells a group's decisions apart: each text less the words all of them start
    with, keeping the word before a bare number ("shaft 3", not "3")."""
    if len(texts) == 1:
        return texts
    words = [t.split(" ") for t in texts]
    common = 0
    while all(len(w) > common + 1 for w in words) and len({w[common] for w in words}) == 1:
        common += 1
    labels = []
    for w in words:
        start = common
        if start > 0 and w[start][:1].isdigit():
            start -= 1
        labels.append(" ".join(w[start:]))
    return labels


def _normalise(text: str) -> str:
    return " ".join(text.lower().split())


def _range_words(numbers: list[int]) -> str:
    if numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"{numbers[0]} to {numbers[-1]}" if len(numbers) > 1 else str(numbers[0])
    return ", ".join(str(n) for n in numbers[:-1]) + f" or {numbers[-1]}"
