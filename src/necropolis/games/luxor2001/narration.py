"""The table language of Luxor (Baars, 2001), its log: the English catalog of every kind
and the entries each action makes. (Prompts and action descriptors are in
:mod:`.prompts`, the score breakdown in :mod:`.breakdown`, the wall's geometry in
:mod:`.layout`.)

Everything here is computed on demand from states, never during play: :func:`narrate`
compares the state before an action with the state after it and, where one action set
off a chain (an insertion scoring several pairs, an opening resuming the pairs left),
replays that chain on a copy of the earlier state with the rules' own pair-scoring step,
so that every event gets its own entry in the order it happened. What a seat may not know
never reaches its entries: another seat's card is "a card", a sarcophagus's value goes
only to the seats that look at it, another seat's pharaoh card shows only at the end.
:data:`MESSAGES` holds the English template of every kind, documented with its
parameters in ``docs/table-language.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from necropolis.engine.frozen import added
from necropolis.engine.language import LogEntry
from necropolis.games.luxor2001 import rules
from necropolis.games.luxor2001.components import (
    ANIMALS,
    CARDS,
    CH_BACK,
    CH_CARD,
    CH_CURSE,
    CH_PHARAOH,
    CH_VALUE,
    CLAIM_BASE,
    CURSE_ANIMALS,
    DIFFERENT,
    DONE,
    FACING_NAMES,
    GIVE_BASE,
    INSERT_BASE,
    LINES,
    LINES_OF_CELL,
    MAX_SCARABS_AT_PILLAR,
    MAX_SCARABS_PER_INSERTION,
    MOVE_BASE,
    NEIGHBOURS,
    NUM_ANIMALS,
    ORDER_BASE,
    PASS_BASE,
    PHARAOH_BONUS,
    RELOCATE_BASE,
    SAME,
    SHAFTS,
    STAY,
    VALUE_EYES,
    VALUE_POINTS,
)

if TYPE_CHECKING:
    from necropolis.games.luxor2001.state import LuxorState

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

Event = tuple[str, int | None, dict[str, Any]]


# --- helpers ----------------------------------------------------------------------------------


def card_params(card: int) -> dict[str, Any]:
    t, tf, b, bf = CARDS[card]
    return {
        "card": card,
        "top": ANIMALS[t],
        "top_facing": FACING_NAMES[tf],
        "bottom": ANIMALS[b],
        "bottom_facing": FACING_NAMES[bf],
    }


def pair_cells(wall: list[int], bottom: int, top: int, sphinx: bool) -> list[tuple[int, int, int]]:
    """``(token, cell, cell)`` for each pair the card at ``bottom``/``top`` formed.

    The same pairs, in the same order, as ``rules.adjacent_pairs`` / ``rules.sphinx_pairs``
    give as tokens, with the two cells of each (a test holds them to it).
    """
    out: list[tuple[int, int, int]] = []
    if not sphinx:
        for cell, other in ((bottom, top), (top, bottom)):
            code = wall[cell]
            for nb in NEIGHBOURS[cell]:
                v = wall[nb]
                if nb != other and v >= 0 and v >> 1 == code >> 1:
                    out.append((2 * (code >> 1) + (SAME if v == code else DIFFERENT), cell, nb))
        b, t = wall[bottom], wall[top]
        if b >> 1 == t >> 1:
            out.append((b - (b & 1) + (SAME if b == t else DIFFERENT), bottom, top))
        return out
    for line_id in sorted(set(LINES_OF_CELL[bottom]) | set(LINES_OF_CELL[top])):
        line = LINES[line_id]
        added = [c for c in (bottom, top) if c in line]
        for animal in {wall[c] >> 1 for c in added}:
            cells = [c for c in line if wall[c] >= 0 and wall[c] >> 1 == animal]
            new = sum(1 for c in added if wall[c] >> 1 == animal)
            if len(cells) == 2 and len(cells) - new < 2:
                same = wall[cells[0]] == wall[cells[1]]
                out.append((2 * animal + (SAME if same else DIFFERENT), cells[0], cells[1]))
    return out


def _current_pairs(st: LuxorState) -> list[tuple[int, int, int]]:
    bottom = st.last_cells
    if bottom < 0:
        return []
    return pair_cells(st.wall, bottom, bottom + SHAFTS, st.sphinx)


def _in_final(st: LuxorState) -> bool:
    return st.final_seat >= 0 or st.phase == rules.END


# --- replaying the pair-scoring chain ----------------------------------------------------------

NO_PHASE = -1  # set on the replay copy before each step, to see where the step stopped


class _Replay:
    """Scores pairs on a copy of a state with the rules' own step, recording each event."""

    def __init__(self, st: LuxorState, pairs: list[tuple[int, int, int]]) -> None:
        self.st = st
        self.pairs = pairs
        self.events: list[Event] = []

    def emit(self, kind: str, seat: int | None, **params: Any) -> None:
        self.events.append((kind, seat, params))

    def pair_entry(self, token: int) -> None:
        """The entry of a pair starting to score: its animal, facing and cells."""
        same_tokens = [p for p in self.pairs if p[0] == token]
        # Pairs of one token are alike; the k-th scored takes the k-th one's cells.
        k = len(same_tokens) - self.st.tokens.count(token) - 1
        cells = list(same_tokens[k][1:]) if 0 <= k < len(same_tokens) else []
        kind = "pair_same" if token & 1 == SAME else "pair_different"
        self.emit(
            kind, self.st.player, animal=ANIMALS[token >> 1], facing=FACING[token & 1], cells=cells
        )

    def scarab_note(self, animal: int, before: tuple[int, int, int]) -> None:
        """The scarab a pair gave, or why it gave none.

        ``before`` is (scarabs placed there this insertion, scarabs there, scarabs on the
        slab) as they were before the pair scored; the reasons are checked in the order
        ``rules._place_scarab`` checks them.
        """
        placed, count, supply = before
        st = self.st
        name = ANIMALS[animal]
        if st.scarabs[animal] > count:
            self.emit("scarab_placed", st.player, animal=name, scarabs=st.scarabs[animal])
        elif placed >= MAX_SCARABS_PER_INSERTION:
            self.emit("scarab_limit", None, animal=name)
        elif count >= MAX_SCARABS_AT_PILLAR:
            self.emit("scarabs_full", None, animal=name)
        elif supply == 0:
            self.emit("slab_empty", None, animal=name)

    def run(self) -> None:
        """Score pending pairs as ``rules.resume_tokens`` does, until it would stop."""
        st = self.st
        while st.tokens:
            if rules.order_matters(st):
                st.phase = rules.ORDER
                return
            token = min(st.tokens)
            st.tokens.remove(token)
            self.pair_entry(token)
            if not self.step(token):
                return

    def step(self, token: int, *, relocated: bool = False) -> bool:
        """Score one pair with the rules' step and record what it did; False if it stopped.

        ``relocated``: the mover's researcher has just been taken from another pillar for
        this pair, which ``researcher_moved`` already told.
        """
        st = self.st
        animal = token >> 1
        snapshot = (st.placed_now[animal], st.scarabs[animal], st.scarab_supply)
        occ = st.occupant[animal]
        p = st.player
        st.phase = NO_PHASE
        done = rules._score(st, token)
        if st.phase == rules.RELOCATE:
            return False  # no researcher left: the prompt asks the mover
        new = st.occupant[animal]
        if new != occ:
            if occ >= 0:
                self.emit("researcher_swapped", p, animal=ANIMALS[animal], owner_seat=occ)
            elif not relocated:
                self.emit("researcher_placed", p, animal=ANIMALS[animal])
        if (token & 1 == DIFFERENT and occ >= 0) or (token & 1 == SAME and new == p):
            self.scarab_note(animal, snapshot)
        return done


def _replay(before: LuxorState, after: LuxorState, action: int) -> _Replay | None:
    """The pair-scoring chain ``action`` ran, replayed on a copy of ``before``.

    None when the action scores no pairs. The copy starts where the rules started scoring
    (after the card dropped, after the researcher moved, after the sarcophagus opened) and
    ends where they stopped, so its public fields then equal ``after``'s.
    """
    phase = before.phase
    if phase == rules.INSERT:
        st = before.clone()
        st.placed_now = [0] * NUM_ANIMALS
        pairs = _current_pairs(after)
        st.tokens = [p[0] for p in pairs]
        replay = _Replay(st, pairs)
        replay.run()
        return replay
    if phase == rules.ORDER:
        st = before.clone()
        replay = _Replay(st, _current_pairs(before))
        token = action - ORDER_BASE
        st.tokens.remove(token)
        replay.pair_entry(token)
        if replay.step(token):
            replay.run()
        return replay
    if phase == rules.RELOCATE:
        st = before.clone()
        replay = _Replay(st, _current_pairs(before))
        token, st.pending = st.pending, -1
        animal = token >> 1
        p = st.player
        if action == STAY:
            replay.emit("researchers_kept", p, animal=ANIMALS[animal])
            if token & 1 == SAME and st.occupant[animal] >= 0:
                snapshot = (st.placed_now[animal], st.scarabs[animal], st.scarab_supply)
                st.phase = NO_PHASE
                done = rules._place_scarab(st, animal)
                replay.scarab_note(animal, snapshot)
            else:
                replay.emit("pair_lapsed", None, animal=ANIMALS[animal])
                done = True
        else:
            source = action - RELOCATE_BASE
            replay.emit("researcher_moved", p, from_animal=ANIMALS[source], animal=ANIMALS[animal])
            st.occupant[source] = -1
            st.res_supply[p] += 1
            done = replay.step(token, relocated=True)
        if done:
            replay.run()
        return replay
    if phase == rules.OPEN and before.resume == rules.RESUME_TOKENS:
        st = before.clone()
        a = st.open_pillar
        # What the opening changed that pair scoring reads (the rest is not replayed).
        st.stack = added(st.stack, a, -1)
        st.scarab_supply += st.scarabs[a]
        st.scarabs[a] = 0
        st.open_pillar = st.open_for = -1
        replay = _Replay(st, _current_pairs(before))
        replay.run()
        return replay
    return None


def events(before: LuxorState, after: LuxorState, action: int, viewer: int | None) -> list[Event]:
    """Every event ``action`` caused, as ``viewer`` may know it, in order."""
    out: list[Event] = []

    def emit(kind: str, seat: int | None, **params: Any) -> None:
        out.append((kind, seat, params))

    phase = before.phase
    n = before.n
    if phase == rules.PHARAOH:
        seat = before.deal_k
        if viewer == seat:
            emit("pharaoh_dealt", seat, animal=ANIMALS[action - CH_PHARAOH])
        else:
            emit("pharaoh_dealt_hidden", seat)
    elif phase in (rules.DEAL, rules.DRAW):
        seat = before.deal_k % n if phase == rules.DEAL else before.player
        shown = "card_dealt" if phase == rules.DEAL else "card_drawn"
        if viewer == seat:
            emit(shown, seat, **card_params(action - CH_CARD))
        else:
            emit(shown + "_hidden", seat)
    elif phase == rules.BACK:
        emit("back_shown", None, back=_BACKS[action - CH_BACK])
    elif phase == rules.CURSE:
        curse = action - CH_CURSE
        a1, a2, a3 = (ANIMALS[a] for a in CURSE_ANIMALS[curse])
        emit("curse_revealed", before.player, curse=curse, animal_1=a1, animal_2=a2, animal_3=a3)
        if after.phase == rules.WINDOW:
            emit("curse_window", None)
        elif not rules.curse_victims(before):
            emit("curse_no_victim", None, drawer_seat=before.player)
        else:
            emit("curse_harmless", None)
    elif phase == rules.WINDOW:
        if action >= PASS_BASE:
            emit("curse_passed", action - PASS_BASE)
            if after.phase != rules.WINDOW:
                emit("curse_lapsed", None)
        else:
            claimant, victim = divmod(action - CLAIM_BASE, 4)
            emit("curse_claimed", claimant, victim_seat=victim)
            if after.phase != rules.GIVE:  # one value only: no choice to make
                out.append(_gift(victim, before.player, before.held[victim][0], viewer))
    elif phase == rules.GIVE:
        value = action - GIVE_BASE
        # The very sarcophagus the rules hand over (the first of that value).
        code = next(c for c in before.held[before.victim] if c & 7 == value)
        out.append(_gift(before.victim, before.player, code, viewer))
    elif phase == rules.INSERT:
        card, shaft = divmod(action - INSERT_BASE, SHAFTS)
        level = before.heights[shaft]
        emit(
            "card_inserted",
            before.player,
            **card_params(card),
            shaft=shaft + 1,
            row=2 * level + 1,
            row_top=2 * level + 2,
            pairs=len(_current_pairs(after)),
            cells=[after.last_cells, after.last_cells + SHAFTS],
        )
    elif phase == rules.OPEN:
        owner, a = before.open_for, before.open_pillar
        value = action - CH_VALUE
        eyes = VALUE_EYES[value]
        if viewer == owner:
            kind = "sarcophagus_opened"
            emit(kind, owner, animal=ANIMALS[a], eyes=eyes, points=VALUE_POINTS[value])
        else:
            emit("sarcophagus_opened_hidden", owner, animal=ANIMALS[a], eyes=eyes)
    elif phase == rules.FINAL:
        if action == DONE:
            emit("stopped_moving", before.final_seat)
        else:
            x, y = divmod(action - MOVE_BASE, NUM_ANIMALS)
            emit("scarab_moved", before.final_seat, from_animal=ANIMALS[x], animal=ANIMALS[y])
    replay = _replay(before, after, action)
    if replay is not None:
        out.extend(replay.events)
    _tail(before, after, action, out)
    return out


def _gift(victim: int, drawer: int, code: int, viewer: int | None) -> Event:
    """The gift of the sarcophagus ``code`` (its value and who has seen it), as ``viewer``
    may know it: its points for the giver, the receiver, and any seat that looked at it
    before (one that held it once), as the seat's view shows them; its eyes for others."""
    value = code & 7
    eyes = VALUE_EYES[value]
    looked = viewer is not None and bool(code >> 3 & (1 << viewer))
    if viewer in (victim, drawer) or looked:
        params = {"drawer_seat": drawer, "eyes": eyes, "points": VALUE_POINTS[value]}
        return ("sarcophagus_given", victim, params)
    return ("sarcophagus_given_hidden", victim, {"drawer_seat": drawer, "eyes": eyes})


def _tail(before: LuxorState, after: LuxorState, action: int, out: list[Event]) -> None:
    """What followed the action's own events: a turn without a draw, the final moves, the end."""
    n = before.n
    # The mover still needed a card when the action began (the pairs of the insertion
    # were being scored, or a curse interrupted the draw) and the turn passed without one.
    scoring = (rules.INSERT, rules.ORDER, rules.RELOCATE, rules.OPEN)
    drawing = (rules.BACK, rules.CURSE, rules.WINDOW, rules.GIVE)
    if (
        (before.phase in scoring or (before.phase in drawing and before.need_card))
        and after.phase == rules.INSERT
        and after.player != before.player
        and not _in_final(before)
    ):
        out.append(("no_card_drawn", before.player, {}))
    if not _in_final(after):
        return
    first = (after.player + 1) % n  # the seat after the last inserter moves first
    if not _in_final(before):
        out.append(("final_moves_begin", None, {"first_seat": first}))
        k0 = 0
    else:
        k0 = before.final_k
    for k in range(k0, after.final_k):
        seat = (first + k) % n
        if not _in_final(before) or k > k0:
            out.append(("no_scarab_moves", seat, {}))
        elif action != DONE:
            out.append(("no_more_scarab_moves", seat, {}))
    if after.phase == rules.END and before.phase != rules.END:
        _the_end(after, out)


def _the_end(st: LuxorState, out: list[Event]) -> None:
    out.append(("match_over", None, {}))
    scores = st.scores()
    for seat in range(st.n):
        values = sorted(VALUE_POINTS[code & 7] for code in st.held[seat])
        if values:
            out.append(("sarcophagi_shown", seat, {"count": len(values), "values": values}))
        else:
            out.append(("no_sarcophagi", seat, {}))
        animal = st.pharaoh[seat]
        if st.occupant[animal] == seat:
            params = {"animal": ANIMALS[animal], "points": PHARAOH_BONUS}
            out.append(("pharaoh_bonus", seat, params))
        else:
            out.append(("pharaoh_no_bonus", seat, {"animal": ANIMALS[animal]}))
    for seat in range(st.n):
        params = {"points": int(scores[seat]), "sarcophagi": len(st.held[seat])}
        out.append(("final_score", seat, params))
    winners = [s for s, share in enumerate(st.returns()) if share > 0]
    for seat in winners:
        out.append(("match_won" if len(winners) == 1 else "match_shared", seat, {}))


def narrate(
    after: LuxorState, before: LuxorState, action: int, viewer: int | None
) -> list[LogEntry]:
    """The log entries ``action`` (applied to ``before``, giving ``after``) makes for ``viewer``."""
    index = before.move_number()
    return [
        after.entry(index, kind, seat, params, viewer)
        for kind, seat, params in events(before, after, action, viewer)
    ]


# --- prompts ------------------------------------------------------------------------------------
