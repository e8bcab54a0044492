"""The reconstructed board keeps every constraint the rule text states, and reads well."""

from __future__ import annotations

from necropolis.games.horus import components as cp
from necropolis.games.horus.effects import exit_reach
from tests.horus.helpers import act, chance, end_turns, keep_all, roll, square, start


def test_the_board_has_what_the_rulebook_names() -> None:
    assert sorted(n for n in cp.SQUARE_NUMBER if n) == list(range(1, 37))
    assert len(cp.ENTRANCES) == 2
    areas = {cp.AREA[sq] for sq in range(cp.NUM_SQUARES)}
    assert areas == {
        cp.MUMMIES_CORRIDOR,
        cp.SCORPION_PIT,
        cp.CROCODILE_POND,
        cp.COBRA_NEST,
        cp.ENTRANCE,
    }
    anubis, horus, thoth = cp.SECTIONS
    assert anubis[-1] == horus[0] and horus[-1] == thoth[0]  # shared corner squares
    gods = [cp.GODS[g] for g, _ in cp.SARCOPHAGI]
    assert (gods.count("anubis"), gods.count("thoth"), gods.count("horus")) == (5, 5, 4)
    for g, sq in cp.SARCOPHAGI:  # each sarcophagus lies along its own section
        assert sq in cp.SECTIONS[cp.SECTION_NAMES.index(cp.GODS[g])]
    assert [len(front) for front in cp.ALCOVE_FRONT] == [1, 1, 1, 1, 2]
    assert all(cp.AREA[sq] == cp.MUMMIES_CORRIDOR for front in cp.ALCOVE_FRONT for sq in front)


def test_moves_follow_dotted_lines_only() -> None:
    # within an area squares are joined; sand and corridor only at the openings
    assert cp.NEIGHBOURS[square(3, 1)][3] == square(3, 0)
    assert cp.NEIGHBOURS[square(2, 1)][3] == -1
    assert cp.NEIGHBOURS[square(1, 1)][0] == -1
    assert cp.NEIGHBOURS[square(8, 4)][2] == square(9, 4)
    assert cp.NEIGHBOURS[square(6, 3)][3] == -1  # no square beside the nest's corner
    for sq in range(cp.NUM_SQUARES):
        for d, nb in enumerate(cp.NEIGHBOURS[sq]):
            if nb >= 0:  # joins are symmetric
                assert cp.NEIGHBOURS[nb][(d + 2) % 4] == sq


def test_every_square_reaches_an_exit_on_the_empty_board() -> None:
    state = start([0, 1])
    assert all(exit_reach(state))


def _plain(markup: str) -> list[str]:
    from rich.text import Text

    return [Text.from_markup(line).plain for line in markup.splitlines()]


def test_the_rendering_shows_numbers_walls_figures_and_blocks() -> None:
    state = start([0, 1])
    state.square[1] = square(1, 1)
    keep_all(state)
    roll(state, [1, 1, 1, 1, 1])
    end_turns(state)
    roll(state, [1, 1, 1, 1, 1])
    chance(state, 2)  # block 3 falls on an empty square
    lines = _plain(state.game.render_view(state.view(0)))
    # line 0 is the header; grid row r is line r + 1, four columns a square
    assert lines[2][17:20] == "###"  # block 3 on row 1, column 4
    assert lines[2][5:8].strip() == "2"  # seat 1 ("Player 2") stands on square (1, 1)
    assert lines[2][4] == "│"  # a solid line between the corridor and the sand
    assert lines[2][8] == " "  # a dotted line inside the sand
    text = "\n".join(lines)
    assert "32~" in text and "15," in text and "36E" in text  # block 36 on an exit
    assert "M" in lines[1][:41]  # Sanakht in the top row
    assert any(line.startswith("you (1)") and "Shoot" in line for line in lines)
    assert any(line.startswith("Player 2") and "Dodge" in line for line in lines)


def test_a_spectator_rendering_hides_face_down_cards() -> None:
    state = start([0, 1], {0: ["Hededet treasure (6)", "Crowbar"]})
    act(state, "seat 0 keeps the rest")
    text = "\n".join(_plain(state.game.render_view(state.view(None))))
    assert "Hededet" not in text and "Your cards" not in text
    assert "2 cards 1 down" in text  # the crowbar lies face up, the treasure face down
    own = "\n".join(_plain(state.game.render_view(state.view(0))))
    assert "Your cards: Crowbar, Hededet treasure (6)" in own
