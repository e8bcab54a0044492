"""The table language's templates: parameters, plurals, seats written for their reader."""

from __future__ import annotations

import pytest

from necropolis.engine.language import message, render, seat_label, template_fields


def test_a_seat_is_you_for_itself_and_player_n_for_others() -> None:
    assert seat_label(0, 0) == "you"
    assert seat_label(2, 0) == "Player 3"
    assert seat_label(2, None) == "Player 3"
    assert render("{seat} took the {animal} card", {"seat": 1, "animal": "cat"}, 1) == (
        "You took the cat card"
    )
    assert render("{victim_seat} lost a card", {"victim_seat": 0}, 3) == "Player 1 lost a card"


@pytest.mark.parametrize(("count", "text"), [(0, "0 scarabs"), (1, "1 scarab"), (2, "2 scarabs")])
def test_plurals_choose_their_form_by_the_number(count: int, text: str) -> None:
    assert render("{n|# scarab|# scarabs}", {"n": count}, None) == text


def test_fields_lists_every_parameter_a_template_uses() -> None:
    assert template_fields("{seat} moved {n|# step|# steps} to {square}") == {
        "seat",
        "n",
        "square",
    }


def test_an_unknown_kind_is_an_error_and_kernel_kinds_are_fallbacks() -> None:
    with pytest.raises(KeyError):
        message({}, "no_such_kind", {}, None)
    assert message({}, "score", {"points": 7.0}, 0) == "Score: 7"
    assert message({"score": "{points} points"}, "score", {"points": 2}, 0) == "2 points"
