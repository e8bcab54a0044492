"""The terminal's menu: two steps for long lists, stable numbers, answers by number or text."""

from __future__ import annotations

from typing import Any

from necropolis.cli.choices import FLAT_LIMIT, Menu, Opened, Picked, Refused


def insert(action: int, card: int, shaft: int, name: str) -> dict[str, Any]:
    """A descriptor shaped as an insert into a shaft (0-based ids, 1-based in the text)."""
    return {
        "action": action,
        "kind": "insert",
        "params": {},
        "targets": [f"hand:{card}", f"shaft:{shaft}"],
        "text": f"Insert {name} into shaft {shaft + 1}: it makes {shaft % 3} pairs",
    }


def inserts() -> list[dict[str, Any]]:
    names = ["camel over ibis", "mule over cat", "snake over snake"]
    # Every card may go into shafts 1, 3, 4, 6, 7 and 8 (2 and 5 are full).
    shafts = [0, 2, 3, 5, 6, 7]
    return [
        insert(100 * card + shaft, card, shaft, name)
        for card, name in enumerate(names)
        for shaft in shafts
    ]


def test_a_short_list_is_one_step_numbered_from_one() -> None:
    descriptors = [
        {"action": a, "kind": "do", "params": {}, "targets": [], "text": f"Move {d}"}
        for a, d in [(16, "north"), (17, "east"), (22, "nowhere")]
    ]
    menu = Menu(descriptors)
    assert not menu.two_step
    assert [(c.number, c.label) for c in menu.top] == [
        (1, "Move north"),
        (2, "Move east"),
        (3, "Move nowhere"),
    ]
    assert menu.answer("2", None) == Picked(17)
    assert menu.answer("nowh", None) == Picked(22)
    assert isinstance(menu.answer("4", None), Refused)
    assert menu.answer("4", None) == Refused("There is no choice 4: choose 1 to 3.")
    refused = menu.answer("move", None)
    assert isinstance(refused, Refused) and "3 choices match" in refused.reason


def test_a_long_list_groups_by_the_first_target() -> None:
    menu = Menu(inserts())
    assert len(inserts()) > FLAT_LIMIT and menu.two_step
    assert [c.label for c in menu.top] == [
        "Insert camel over ibis into shaft …",
        "Insert mule over cat into shaft …",
        "Insert snake over snake into shaft …",
    ]
    assert all(c.is_group for c in menu.top)
    opened = menu.answer("2", None)
    assert opened == Opened(menu.top[1])


def test_the_second_step_numbers_shafts_as_the_board_does() -> None:
    menu = Menu(inserts())
    group = menu.top[1]
    inside = menu.inside(group)
    # shaft ids 0, 2, 3, 5, 6, 7 are written "shaft 1, 3, 4, 6, 7, 8": so are the numbers
    assert [c.number for c in inside] == [1, 3, 4, 6, 7, 8]
    assert inside[1].label == "shaft 3: it makes 2 pairs"
    assert menu.answer("3", group) == Picked(102)
    refused = menu.answer("2", group)
    assert refused == Refused("There is no choice 2: choose 1, 3, 4, 6, 7 or 8.")
    assert menu.answer("back", group) == Opened(None)
    assert isinstance(menu.answer("back", None), Refused)


def test_text_answers_pick_a_decision_or_open_its_group() -> None:
    menu = Menu(inserts())
    # a part that only one decision has picks it straight from the first step
    assert menu.answer("snake over snake into shaft 8", None) == Picked(207)
    # a part that only one card's decisions share opens that card's group
    assert menu.answer("mule", None) == Opened(menu.top[1])
    # inside a group its short labels count first
    assert menu.answer("shaft 4", menu.top[0]) == Picked(3)
    refused = menu.answer("shaft", None)
    assert isinstance(refused, Refused) and "18 choices match" in refused.reason
    assert isinstance(menu.answer("dance", None), Refused)


def test_numbers_stay_sequential_when_the_text_does_not_show_the_ids() -> None:
    descriptors = inserts()
    for d in descriptors:
        d["text"] = d["text"].replace("shaft", "column")
    menu = Menu(descriptors)
    assert [c.number for c in menu.inside(menu.top[0])] == [1, 2, 3, 4, 5, 6]


def test_no_grouping_without_two_targets_or_when_it_would_not_help() -> None:
    flat = [{**d, "targets": d["targets"][:1]} for d in inserts()]
    assert not Menu(flat).two_step
    same_card = [{**d, "targets": ["hand:0", d["targets"][1]]} for d in inserts()]
    assert not Menu(same_card).two_step
