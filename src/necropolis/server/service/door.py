"""The one door through which a table changes, and the seats' links.

:meth:`Door.act` checks the seat, the version and the action's legality, commits the
action (with the seat's turn in hand, or holds it there when it reveals nothing, and with
the chance outcomes it leads to: :func:`chance_run`), applies it to the state in memory,
and only then tells the table's connections and the other processes; :meth:`Door.play_turn`
does the same for a bot's decisions, its turn's committed as one; :meth:`Door.undo` and
:meth:`Door.commit` take back or confirm a turn in hand.
:meth:`Door._commit` is the one place actions are appended to the record.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence

from necropolis.engine.protocol import CHANCE, State, sample_chance
from necropolis.server import tokens
from necropolis.server.accounts import Claim, Player
from necropolis.server.db import Append, VersionConflictError, now, storage_failed
from necropolis.server.live import STEPS_KEPT, LiveTable, Turn
from necropolis.server.service.base import Refusal
from necropolis.server.service.loading import Loading
from necropolis.server.service.storage import UNAVAILABLE, stored

log = logging.getLogger("necropolis.server")


class Door(Loading):
    """The door of the tables in memory (see :mod:`necropolis.server.service`)."""

    # --- the door --------------------------------------------------------------------

    async def act(
        self,
        live: LiveTable,
        seat: int,
        action: int,
        version: int,
        *,
        pending: int = 0,
        hold: bool = False,
    ) -> Refusal | None:
        """Play ``action`` for the person seat ``seat`` (the caller proved with a token
        that it holds the seat) if ``version`` is current and the action is legal.

        ``pending`` is the number of decisions the client saw in the seat's turn in hand
        (a double click is refused as stale). With ``hold`` (a client that keeps turns in
        hand), a decision that reveals nothing joins the seat's turn in hand, told to that
        seat alone; any other decision is committed together with the turn in hand, as one
        turn. None means done and told.
        """
        async with live.lock:
            refused = self._check(live, seat, version, pending)
            if refused is not None:
                return refused
            state = live.position(seat)
            if seat not in state.acting_seats():
                return Refusal("not_your_turn", "It is not your turn.")
            if action not in live.legal(state, seat):
                return Refusal("illegal_action", f"Action {action} is not one of your choices.")
            after = state.clone()
            # Just checked against the seat's legal actions: not checked again.
            after.apply_legal_action(action)
            if hold and not state.reveals(action, after):
                held_turn = live.turns.setdefault(seat, Turn(live.version))
                held_turn.actions.append(action)
                held_turn.states.append(after)
                held_turn.entries.append(after.narrate(state, action, seat))
                live.tell_seat(seat)
                return None
            turn = live.turns.get(seat)
            held = list(zip(turn.actions, turn.states, strict=True)) if turn else []
            refused = await self._commit_told(live, seat, [*held, (action, after)])
        if refused is None:
            await self._told(live)
        return refused

    async def play_turn(
        self, live: LiveTable, seat: int, actions: Sequence[int], version: int
    ) -> Refusal | None:
        """Play a bot's decisions for ``seat`` (a bot of this process plays it) at
        ``version``, one after another while each is the seat's and legal, and commit
        them as one turn with the chance outcomes they lead to. The first must be legal
        (else the refusal); a later one that is not ends the turn there (the rest is the
        bot's next turn to decide again). None means done and told."""
        async with live.lock:
            refused = self._check(live, seat, version, 0, bot=True)
            if refused is not None:
                return refused
            state = live.state
            if seat not in state.acting_seats():
                return Refusal("not_your_turn", "It is not your turn.")
            if not actions or actions[0] not in live.legal(state, seat):
                first = actions[0] if actions else None
                return Refusal("illegal_action", f"Action {first} is not one of your choices.")
            moves: list[tuple[int, State | None]] = []
            for action in actions:
                if moves and (
                    seat not in state.acting_seats() or action not in state.legal_actions(seat)
                ):
                    break
                after = state.clone()
                # Checked against the seat's legal actions just above.
                after.apply_legal_action(action)
                moves.append((action, after))
                state = after
            refused = await self._commit_told(live, seat, moves)
        if refused is None:
            await self._told(live)
        return refused

    async def undo(self, live: LiveTable, seat: int, version: int, pending: int) -> Refusal | None:
        """Take back the last decision of ``seat``'s turn in hand (never a committed one)."""
        async with live.lock:
            refused = self._check(live, seat, version, pending)
            if refused is not None:
                return refused
            turn = live.turns.get(seat)
            if turn is None:
                return Refusal("nothing_to_undo", "Nothing to take back: what was revealed stays.")
            turn.actions.pop()
            turn.states.pop()
            turn.entries.pop()
            if not turn.actions:
                del live.turns[seat]
            live.tell_seat(seat)
        return None

    async def commit(
        self, live: LiveTable, seat: int, version: int, pending: int
    ) -> Refusal | None:
        """Commit ``seat``'s turn in hand now, as one turn (the seat confirms it)."""
        async with live.lock:
            refused = self._check(live, seat, version, pending)
            if refused is not None:
                return refused
            turn = live.turns.get(seat)
            if turn is None:
                return Refusal("nothing_to_undo", "There is no turn in hand to confirm.")
            held = list(zip(turn.actions, turn.states, strict=True))
            refused = await self._commit_told(live, seat, held)
        if refused is None:
            await self._told(live)
        return refused

    async def _commit_told(
        self, live: LiveTable, seat: int, turn: Sequence[tuple[int, State | None]]
    ) -> Refusal | None:
        """:meth:`_commit` for a person's door, a storage failure answered as
        ``unavailable`` (the table put in doubt) instead of raised; the caller holds the
        lock and tells the table when it is committed."""
        try:
            return await self._commit(live, seat, turn)
        except Exception as exc:
            if not storage_failed(exc):
                raise
            self.failed(live, exc)
            return Refusal("unavailable", UNAVAILABLE)

    def _check(
        self, live: LiveTable, seat: int, version: int, pending: int, *, bot: bool = False
    ) -> Refusal | None:
        """The door's first checks: the match goes on, the seat is the caller's, and the
        client saw the table's version and the seat's turn in hand as they are."""
        if live.over:
            return Refusal("finished", "This match is over.")
        if live.is_bot(seat) != bot:
            return Refusal("seat_taken_by_bot", "A bot plays this seat now.")
        turn = live.turns.get(seat)
        held = len(turn.actions) if turn is not None else 0
        if version != live.version or pending != held:
            return Refusal(
                "stale_version",
                f"The table is at version {live.version} with {held} decisions in hand, "
                f"not {version} with {pending}: see the new state.",
            )
        return None

    async def _commit(
        self, live: LiveTable, seat: int | None, turn: Sequence[tuple[int, State | None]]
    ) -> Refusal | None:
        """Append ``turn`` (``seat``'s actions, each with the state after it if known) at
        the table's version, whole, with the chance outcomes that follow it, then apply
        them; the caller holds the lock. ``seat`` None: ``turn`` is chance's own."""
        index = live.version
        moves: list[tuple[int | None, int, State]] = []
        state = live.state
        for action, after in turn:
            if after is None:
                after = state.clone()
                after.apply_action(action)
            moves.append((seat, action, after))
            state = after
        # The chance outcomes the turn leads to go with it (see chance_run).
        room = STEPS_KEPT - len(moves)
        moves += chance_run(live.row.seed, state, index + len(moves), room)
        appends = [
            Append(live.id, index + k, by, action, after.is_terminal())
            for k, (by, action, after) in enumerate(moves)
        ]
        try:
            await self.writer.append(*appends)
        except VersionConflictError:
            # Another process got there first: take its actions, then refuse.
            missed = await stored(self.store.actions, live.id, live.version)
            for s, a in missed:
                live.apply(s, a)
            live.tell()
            self.drive(live)
            return Refusal(
                "stale_version", f"The table moved on to version {live.version}: see the new state."
            )
        for by, action, after in moves:
            live.apply(by, action, after)
        live.row.version = live.version
        live.row.updated = now()
        if self.trouble is not None:
            log.warning("the storage takes writes again")
            self.trouble = None
        return None

    async def _told(self, live: LiveTable) -> None:
        live.tell()
        self.broker.publish(live.id, live.version)
        self.drive(live)

    # --- seats -----------------------------------------------------------------------

    async def claim(self, live: LiveTable, seat: int, player: Player, token: str) -> Claim:
        """The account ``player`` claims the person seat ``seat`` (whose ``token`` it
        opened): the claim and the seat showing the account's name are written in one
        transaction, and everyone is told the name. Answers the seat's claim: the one
        made here, or one made first by someone else (then nothing changed)."""
        async with live.lock:
            seats = [dict(s) for s in live.row.seats]
            seats[seat]["account"] = player.name
            claim = await stored(self.accounts.claim, live.id, seat, player.id, token, seats)
            if claim.player_id != player.id:
                return claim
            live.row.seats = seats
        self._seats_told(live)
        return claim

    async def rename(self, live: LiveTable, seat: int, name: str) -> None:
        """The person seat ``seat`` is called ``name`` (cleaned) from now on: the guest
        who sits there chose it."""
        async with live.lock:
            seats = [dict(s) for s in live.row.seats]
            seats[seat]["name"] = name
            await stored(self.store.set_seats, live.id, seats)
            live.row.seats = seats
        self._seats_told(live)

    def _seats_told(self, live: LiveTable) -> None:
        """The seats changed, not the record: every connection is sent the new line of
        seats, and the other processes read it (they compare the stored seats)."""
        live.tell()
        self.broker.publish(live.id, live.version)

    async def new_link(self, live: LiveTable, seat: int, creator_token: str) -> str:
        """Give the person seat ``seat`` a new link (its next generation's token), and
        answer its token; the old token opens nothing from now on, and its connections
        are closed."""
        async with live.lock:
            seats = [dict(s) for s in live.row.seats]
            generation = int(seats[seat].get("link") or 0) + 1
            role = tokens.seat_role(seat, generation)
            token = tokens.derived_token(creator_token, live.id, role)
            seats[seat].update(link=generation, token_hash=tokens.token_hash(token))
            await stored(self.store.set_seats, live.id, seats)
            live.row.seats = seats
            # A turn in hand belonged to the old link's holder: the new one starts afresh.
            live.turns.pop(seat, None)
        live.end_replaced()
        # Other processes read the new seats when they hear of the table, and close theirs.
        self.broker.publish(live.id, live.version)
        return token


def chance_run(seed: str, state: State, version: int, most: int) -> list[tuple[None, int, State]]:
    """The chance outcomes due at ``state`` (the table's position at ``version``), one
    after another until a seat decides or the match ends, at most ``most`` of them, each
    with the state after it. Each is drawn from the table's seed and its own version, so
    they are the same however they are committed. A decision and the chance outcomes it
    leads to (a die rolled, a card drawn) are committed in one transaction: one sync to
    disk and one message to each connection (whose ``steps`` show them one at a time)
    instead of one each. ``most`` is kept within what ``steps`` shows
    (:data:`~necropolis.server.live.STEPS_KEPT`): a connection that was up to date is
    shown every one."""
    run: list[tuple[None, int, State]] = []
    while len(run) < most and state.current_player() == CHANCE:
        action = sample_chance(state, random.Random(f"{seed}:{version + len(run)}"))
        # One of the state's own chance outcomes: applied without a second check.
        state = state.clone()
        state.apply_legal_action(action)
        run.append((None, action, state))
    return run
