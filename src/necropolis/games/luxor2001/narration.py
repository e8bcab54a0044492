"""The table language of Luxor (Baars, 2001), its log: the English catalog of every kind
and the entries each event makes. (Prompts and action descriptors are in
:mod:`.prompts`, the score breakdown in :mod:`.breakdown`, the wall's geometry in
:mod:`.layout`.)

The rules emit what happened as events (:mod:`.events`); the kernel redacts each for the
viewer (``Event.seen_by``) and :func:`narrate_event` says it in the table language, so
nothing here works out a rule again and nothing a seat may not know reaches its log:
another seat's card is "a card", a sarcophagus's value goes only to the seats that look
at it, another seat's pharaoh card shows only at the end. :data:`MESSAGES` holds the
English template of every kind, documented with its parameters in
``docs/table-language.md``.
"""

from __future__ import annotations

from typing import Any

from necropolis.engine.events import Event
from necropolis.engine.protocol import Told
from necropolis.games.luxor2001 import events as ev
from necropolis.games.luxor2001.components import (
    ANIMALS,
    CARDS,
    CURSE_ANIMALS,
    FACING_NAMES,
    PHARAOH_BONUS,
    SHAFTS,
    VALUE_POINTS,
)

#: English template of every message kind (see docs/table-language.md, section luxor2001).
MESSAGES: dict[str, str] = {
    # --- log: setup and cards
    "pharaoh_dealt": "{seat} got the pharaoh card of the {animal}",
    "pharaoh_dealt_hidden": "{seat} got a secret pharaoh card",
    "card_dealt": "{seat} got {top} ({top_facing}) over {bottom} ({bottom_facing})",
    "card_dealt_hidden": "{seat} got a hieroglyph card",
    "card_drawn": "{seat} drew {top} ({top_facing}) over {bottom} ({bottom_facing})",
    "card_drawn_hidden": "{seat} drew a hieroglyph card",
    "no_card_drawn": "The draw pile is empty: {seat} drew nothing",
    "back_shown": "The top card of the second pile shows a {back} back",
    # --- log: insertion and pairs
    "card_inserted": "{seat} inserted {top} ({top_facing}) over {bottom} ({bottom_facing}) "
    "into shaft {shaft}; it fell to rows {row}–{row_top} and made {pairs|# pair|# pairs}",
    "pair_same": "{seat} paired two {animal} hieroglyphs looking the same way",
    "pair_different": "{seat} paired two {animal} hieroglyphs looking different ways",
    "researcher_placed": "{seat} placed a researcher at the {animal} pillar",
    "researcher_swapped": "{seat} took over the {animal} pillar from {owner_seat}, "
    "whose researcher went home",
    "researcher_moved": "{seat} moved a researcher from the {from_animal} pillar "
    "to the {animal} pillar",
    "researchers_kept": "{seat} left every researcher where it stood",
    "pair_lapsed": "The {animal} pair gave nothing: no researcher stands at its pillar",
    "scarab_placed": "{seat} placed a scarab at the {animal} pillar "
    "({scarabs|# scarab|# scarabs} there)",
    "scarab_limit": "No further scarab at the {animal} pillar: two per insertion at most",
    "scarabs_full": "No scarab at the {animal} pillar: it already has three",
    "slab_empty": "No scarab at the {animal} pillar: the slab is empty",
    "sarcophagus_opened": "{seat} won the top sarcophagus of the {animal} pillar "
    "({eyes|# eye|# eyes}, worth {points}); its scarabs went back to the slab",
    "sarcophagus_opened_hidden": "{seat} won the top sarcophagus of the {animal} pillar "
    "({eyes|# eye|# eyes}); its scarabs went back to the slab",
    # --- log: the curse
    "curse_revealed": "{seat} turned up a curse card: {animal_1}, {animal_2} and {animal_3}",
    "curse_window": "Those three animals stand side by side on the wall: "
    "the first to claim the curse names its victim",
    "curse_harmless": "Those three animals stand nowhere side by side in a line: "
    "the curse card left the game",
    "curse_no_victim": "Nobody but {drawer_seat} holds a sarcophagus: the curse card left the game",
    "curse_passed": "{seat} passed",
    "curse_lapsed": "Nobody claimed the curse: the card left the game",
    "curse_claimed": "{seat} claimed the curse and named {victim_seat}",
    "sarcophagus_given": "{seat} gave {drawer_seat} a sarcophagus "
    "({eyes|# eye|# eyes}, worth {points})",
    "sarcophagus_given_hidden": "{seat} gave {drawer_seat} a sarcophagus ({eyes|# eye|# eyes})",
    # --- log: the end
    "final_moves_begin": "The wall is full: from {first_seat} on, each player may move "
    "scarabs between pillars where they have a researcher",
    "scarab_moved": "{seat} moved a scarab from the {from_animal} pillar to the {animal} pillar",
    "stopped_moving": "{seat} stopped moving scarabs",
    "no_scarab_moves": "{seat} had no scarab to move",
    "no_more_scarab_moves": "{seat} had no further scarab to move",
    "match_over": "The match is over",
    "sarcophagi_shown": "{seat} turned up {count|# sarcophagus|# sarcophagi} worth {values}",
    "no_sarcophagi": "{seat} won no sarcophagus",
    "pharaoh_bonus": "{seat} showed the pharaoh card of the {animal} and holds its pillar: "
    "{points} bonus points",
    "pharaoh_no_bonus": "{seat} showed the pharaoh card of the {animal}, "
    "with no researcher at its pillar: no bonus",
    "final_score": "{seat} scored {points|# point|# points} "
    "with {sarcophagi|# sarcophagus|# sarcophagi}",
    "match_won": "{seat} won the match",
    "match_shared": "{seat} shared the win",
    # --- prompts
    "prompt_insert": "Insert one of your cards into a shaft of the wall",
    "prompt_order": "Choose which of your {pairs|# pair|# pairs} scores next: "
    "the order can change what they give",
    "prompt_relocate": "You have no researcher left: move one of yours to the {animal} "
    "pillar, or leave them all where they stand",
    "prompt_claim": "Claim the curse if you see {animal_1}, {animal_2} and {animal_3} "
    "side by side in a line, or pass",
    "prompt_give": "Pick the sarcophagus to give {drawer_seat}",
    "prompt_final": "Move a scarab between two of your pillars, or stop",
    # --- action descriptors
    "insert": "Insert {top} ({top_facing}) over {bottom} ({bottom_facing}) into shaft "
    "{shaft}: it falls to rows {row}–{row_top} and makes {pairs|# pair|# pairs}",
    "score_same": "Score the {animal} pair looking the same way next",
    "score_different": "Score the {animal} pair looking different ways next",
    "score_same_opens": "Score the {animal} pair looking the same way next: "
    "it opens a sarcophagus for {owner_seat}",
    "score_different_opens": "Score the {animal} pair looking different ways next: "
    "it opens a sarcophagus for {owner_seat}",
    "move_researcher": "Move your researcher from the {from_animal} pillar to the {animal} pillar",
    "keep_researchers": "Leave your researchers where they stand "
    "(no researcher of yours goes to the {animal} pillar)",
    "claim_curse": "Claim the curse: {victim_seat} gives a sarcophagus to {drawer_seat}",
    "pass_curse": "Pass",
    "give_sarcophagus": "Give {drawer_seat} your sarcophagus of {eyes|# eye|# eyes} worth {points}",
    "move_scarab": "Move a scarab from the {from_animal} pillar to the {animal} pillar",
    "move_scarab_opens": "Move a scarab from the {from_animal} pillar to the {animal} "
    "pillar: the third one there opens its sarcophagus of {eyes|# eye|# eyes}",
    "stop_moving": "Stop moving scarabs",
    # --- score parts and tiebreak
    "part_sarcophagus": "Sarcophagus of {eyes|# eye|# eyes}",
    "part_sarcophagi_closed": "{count|# sarcophagus|# sarcophagi}, "
    "values hidden until the end (eyes: {eyes})",
    "part_pharaoh_bonus": "Pharaoh card ({animal}) with a researcher at its pillar",
    "part_pharaoh_none": "Pharaoh card ({animal}) without a researcher at its pillar",
    "part_pharaoh_hidden": "Pharaoh card, secret until the end: 0 or {bonus} points",
    "tiebreak_sarcophagi": "{value|# sarcophagus|# sarcophagi}",
}

FACING = ("different", "same")  # by pair kind: DIFFERENT = 0, SAME = 1
_BACKS = ("hieroglyph", "curse")
_CURSE_FATES = ("curse_window", "curse_harmless", "curse_no_victim")
_NO_SCARAB = ("scarab_limit", "scarabs_full", "slab_empty")


def card_params(card: int) -> dict[str, Any]:
    t, tf, b, bf = CARDS[card]
    return {
        "card": card,
        "top": ANIMALS[t],
        "top_facing": FACING_NAMES[tf],
        "bottom": ANIMALS[b],
        "bottom_facing": FACING_NAMES[bf],
    }


def narrate_event(event: Event) -> list[Told]:
    """The log entries ``event`` (as the viewer may know it) makes: ``(kind, seat, params)``.

    Events that no log tells (a pair formed, pairs waiting, a sarcophagus unsealed) make
    none: the entries of those moments come from the events that follow.
    """
    match event:
        case ev.PharaohDealt(seat, animal):
            if animal is None:
                return [("pharaoh_dealt_hidden", seat, {})]
            return [("pharaoh_dealt", seat, {"animal": ANIMALS[animal]})]
        case ev.CardDealt(seat, card) | ev.CardDrawn(seat, card):
            kind = "card_dealt" if isinstance(event, ev.CardDealt) else "card_drawn"
            if card is None:
                return [(kind + "_hidden", seat, {})]
            return [(kind, seat, card_params(card))]
        case ev.NoCardDrawn(seat):
            return [("no_card_drawn", seat, {})]
        case ev.BackShown(back):
            return [("back_shown", None, {"back": _BACKS[back]})]
        case ev.CardInserted(seat, card, shaft, level, bottom, pairs):
            params = {
                **card_params(card),
                "shaft": shaft + 1,
                "row": 2 * level + 1,
                "row_top": 2 * level + 2,
                "pairs": pairs,
                "cells": [bottom, bottom + SHAFTS],
            }
            return [("card_inserted", seat, params)]
        case ev.PairScored(seat, animal, same, cells):
            kind = "pair_same" if same else "pair_different"
            params = {"animal": ANIMALS[animal], "facing": FACING[same], "cells": list(cells)}
            return [(kind, seat, params)]
        case ev.ResearcherPlaced(seat, animal, source, displaced):
            out: list[Told] = []
            if source >= 0:
                params = {"from_animal": ANIMALS[source], "animal": ANIMALS[animal]}
                out.append(("researcher_moved", seat, params))
            if displaced >= 0:
                params = {"animal": ANIMALS[animal], "owner_seat": displaced}
                out.append(("researcher_swapped", seat, params))
            elif source < 0:
                out.append(("researcher_placed", seat, {"animal": ANIMALS[animal]}))
            return out
        case ev.ResearchersKept(seat, animal):
            return [("researchers_kept", seat, {"animal": ANIMALS[animal]})]
        case ev.PairLapsed(animal):
            return [("pair_lapsed", None, {"animal": ANIMALS[animal]})]
        case ev.ScarabPlaced(seat, animal, scarabs):
            return [("scarab_placed", seat, {"animal": ANIMALS[animal], "scarabs": scarabs})]
        case ev.ScarabWithheld(animal, reason):
            return [(_NO_SCARAB[reason], None, {"animal": ANIMALS[animal]})]
        case ev.SarcophagusOpened(seat, animal, eyes, value):
            params = {"animal": ANIMALS[animal], "eyes": eyes}
            if value is None:
                return [("sarcophagus_opened_hidden", seat, params)]
            return [("sarcophagus_opened", seat, {**params, "points": VALUE_POINTS[value]})]
        case ev.CurseRevealed(seat, curse):
            a1, a2, a3 = (ANIMALS[a] for a in CURSE_ANIMALS[curse])
            params = {"curse": curse, "animal_1": a1, "animal_2": a2, "animal_3": a3}
            return [("curse_revealed", seat, params)]
        case ev.CurseJudged(drawer, outcome):
            params = {"drawer_seat": drawer} if outcome == ev.CURSE_NO_VICTIM else {}
            return [(_CURSE_FATES[outcome], None, params)]
        case ev.CursePassed(seat):
            return [("curse_passed", seat, {})]
        case ev.CurseLapsed():
            return [("curse_lapsed", None, {})]
        case ev.CurseClaimed(seat, victim):
            return [("curse_claimed", seat, {"victim_seat": victim})]
        case ev.SarcophagusGiven(seat, drawer, eyes, value):
            if value is None:
                return [("sarcophagus_given_hidden", seat, {"drawer_seat": drawer, "eyes": eyes})]
            params = {"drawer_seat": drawer, "eyes": eyes, "points": VALUE_POINTS[value]}
            return [("sarcophagus_given", seat, params)]
        case ev.FinalMovesBegin(first):
            return [("final_moves_begin", None, {"first_seat": first})]
        case ev.ScarabMoved(seat, source, animal):
            params = {"from_animal": ANIMALS[source], "animal": ANIMALS[animal]}
            return [("scarab_moved", seat, params)]
        case ev.StoppedMoving(seat):
            return [("stopped_moving", seat, {})]
        case ev.NoScarabMoves(seat, further):
            return [("no_more_scarab_moves" if further else "no_scarab_moves", seat, {})]
        case ev.MatchOver():
            return [("match_over", None, {})]
        case ev.SarcophagiShown(seat, values):
            if not values:
                return [("no_sarcophagi", seat, {})]
            points = sorted(VALUE_POINTS[v] for v in values)
            return [("sarcophagi_shown", seat, {"count": len(points), "values": points})]
        case ev.PharaohShown(seat, animal, bonus):
            if bonus:
                params = {"animal": ANIMALS[animal], "points": PHARAOH_BONUS}
                return [("pharaoh_bonus", seat, params)]
            return [("pharaoh_no_bonus", seat, {"animal": ANIMALS[animal]})]
        case ev.FinalScore(seat, points, sarcophagi):
            return [("final_score", seat, {"points": points, "sarcophagi": sarcophagi})]
        case ev.MatchWon(seat, shared):
            return [("match_shared" if shared else "match_won", seat, {})]
    return []
