"""The one door through which a table changes: its actions and its seats.

Every change of a table in memory goes through :class:`Door`, whoever asks for it: a
person's decision (:meth:`Door.act`, :meth:`Door.undo`, :meth:`Door.commit`), chance
(:meth:`Door.draw_chance`) and a bot's turn (:meth:`Door.play_turn`), which the door's
:class:`~necropolis.server.service.driving.Driver` plays; a clock's consequence (a
skipped turn, a stand-in, an abandonment, a seat taken back); a seat's new link, its
hand-over to a bot, its claim by an account or its guest's name; and what other
processes committed (:meth:`Door.catch_up`). Each holds the table's lock while it checks
and writes, makes the change in memory only once it is stored, and then does what
follows every change in one place (:meth:`Door._changed`): tell the table's connections,
publish the news to the other processes, drive the table's chance and bots on.

:meth:`Door._commit` is the one place actions are appended to the record: a decision is
committed with the chance outcomes it leads to (:func:`chance_run`), a person's turn in
hand (decisions that reveal nothing, kept beside the record: see
:mod:`necropolis.server.live`) with the decision that reveals something.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import TypeVar

from necropolis.bots.levels import Level
from necropolis.engine.events import Event
from necropolis.engine.protocol import CHANCE, State, sample_chance
from necropolis.server import tokens
from necropolis.server.accounts import Accounts, Claim, Player
from necropolis.server.analyses import AnalysisStore, attach_hints
from necropolis.server.broker import Broker
from necropolis.server.db import (
    FINISHED,
    Append,
    Store,
    TableRow,
    VersionConflictError,
    now,
    storage_failed,
)
from necropolis.server.live import STEPS_KEPT, Again, LiveTable, Turn
from necropolis.server.lobby import Claiming, Lobby
from necropolis.server.seats import Seat, changed
from necropolis.server.service.driving import Driver
from necropolis.server.service.health import Health, Refusal
from necropolis.server.service.storage import UNAVAILABLE, Writer, stored
from necropolis.server.service.thinking import Thinker

T = TypeVar("T")

#: How a change of seats is written: given the seats as they will be, and the moment the
#: match begins if the change takes the last seat that waited for its person (the table's
#: ``created`` from then on), it stores them (with whatever goes with them in the same
#: transaction) and answers what it wrote, or None when it wrote nothing (the table moved
#: on meanwhile, or someone else took the seat first: nothing changes).
SeatsWrite = Callable[[list[Seat], datetime | None], Awaitable[T | None]]


class Door:
    """The door of the tables in memory (see the module)."""

    def __init__(
        self, store: Store, writer: Writer, broker: Broker, health: Health, thinker: Thinker
    ) -> None:
        self.store = store
        self.writer = writer
        self.broker = broker
        self.health = health
        #: The accounts' store, for the claims that change a table's seats.
        self.accounts = Accounts(store.engine)
        #: Finished tables' analyses and the tables' hints (server/analyses.py).
        self.analyses = AnalysisStore(store.engine)
        #: Open tables and rematches, whose seats people take.
        self.lobby = Lobby(store.engine)
        #: Plays the tables' chance and bots through this door.
        self.driver = Driver(self, thinker, health)

    # --- what follows every change -----------------------------------------------------

    def _changed(self, live: LiveTable) -> None:
        """The table changed (and the change is stored): every connection is sent the
        table as it is now, the other processes hear that it moved (they read the record
        and the seats again), and its chance and bots are driven on."""
        live.tell()
        self.broker.publish(live.id, live.version)
        self.driver.drive(live)

    def drive(self, live: LiveTable) -> None:
        """Make sure the table's chance and bot turns are being played (see :class:`Driver`)."""
        self.driver.drive(live)

    def failed(self, live: LiveTable | None, exc: BaseException) -> None:
        """The storage failed (``exc``) while working on ``live``: remember what is wrong,
        and put the table in doubt, so that its driver catches up with the record once the
        database is back (the commit may have landed), then plays on."""
        self.health.failed(exc)
        if live is not None:
            self.health.doubt.add(live.id)
            self.driver.drive(live)

    # --- a person's decisions --------------------------------------------------------

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
                # Nothing committed: the seat alone is shown its turn in hand.
                live.tell_seat(seat)
                return None
            turn = live.turns.get(seat)
            held = list(zip(turn.actions, turn.states, strict=True)) if turn else []
            refused = await self._commit_answered(live, seat, [*held, (action, after)])
        if refused is None:
            self._changed(live)
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
            refused = await self._commit_answered(live, seat, held)
        if refused is None:
            self._changed(live)
        return refused

    # --- chance, bots and clocks -------------------------------------------------------

    async def draw_chance(self, live: LiveTable) -> bool:
        """Commit the chance outcomes due at the table's position (a run of them, as after
        a decision); False if none is due (a seat decides, or the match is over). A storage
        failure is raised (the driver retries)."""
        async with live.lock:
            if live.over or live.waiting or live.state.current_player() != CHANCE:
                return False
            # (an empty turn: _commit adds the chance outcomes due)
            refused = await self._commit(live, None, [])
        if refused is None:
            self._changed(live)
        return True

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
            refused = await self._commit_answered(live, seat, moves)
        if refused is None:
            self._changed(live)
        return refused

    async def skip(
        self,
        live: LiveTable,
        seat: int,
        action: int,
        version: int,
        noted: Callable[[], Awaitable[None]],
    ) -> bool:
        """Commit ``action`` as the decision of ``seat``, a person's whose time ran out
        (server/clocks/: the turn it lets go by), if the table is still at ``version`` and
        the seat is still its person's; ``noted`` (the clock's own record of it) runs once
        it is committed, before anyone is told. False if the table moved on first (or
        another process committed first)."""
        async with live.lock:
            if live.version != version or live.over or live.is_bot(seat):
                return False
            refused = await self._commit(live, seat, [(action, None)])
        if refused is not None:
            return False
        await noted()
        self._changed(live)
        return True

    # --- seats -----------------------------------------------------------------------

    async def _reseat(
        self,
        live: LiveTable,
        seats: Callable[[list[Seat]], list[Seat] | None],
        write: SeatsWrite[T],
        *,
        drop: int | None = None,
        done: Callable[[T], None] | None = None,
    ) -> T | None:
        """Change the table's seats: ``seats`` gives them as they will be from the seats
        as they are (None: nothing to change), ``write`` stores them, and only then are
        they the table's; a turn in hand of seat ``drop`` goes (it belonged to whoever sat
        there before), ``done`` runs with what was written, and then what follows every
        change. None if nothing changed."""
        async with live.lock:
            new = seats(live.row.seats)
            if new is None:
                return None
            # The last seat that waited is taken: the match begins now.
            began = now() if live.waiting and not any(s.waiting for s in new) else None
            written = await write(new, began)
            if written is None:
                return None
            live.row.seats = new
            if drop is not None:
                live.turns.pop(drop, None)
            if began is not None:
                live.row.created = began
                if live.clock is not None:
                    live.clock.began(live)
            if done is not None:
                done(written)
        self._changed(live)
        return written

    def _plain(self, live: LiveTable) -> SeatsWrite[bool]:
        """The write of a change of seats that has nothing else to go with it."""

        async def write(seats: list[Seat], began: datetime | None) -> bool:
            await stored(self.store.set_seats, live.id, seats, began)
            return True

        return write

    async def new_link(self, live: LiveTable, seat: int, creator_token: str) -> str:
        """Give the person seat ``seat`` a new link (its next generation's token), and
        answer its token; the old token opens nothing from now on, and its connections
        are closed."""
        found: list[str] = []

        def relinked(seats: list[Seat]) -> list[Seat]:
            generation = seats[seat].link + 1
            token = tokens.derived_token(creator_token, live.id, tokens.seat_role(seat, generation))
            found.append(token)
            # (a seat open to the lobby, or kept for someone, is a friend's seat from now
            # on: the creator passes its link on)
            return changed(
                seats,
                seat,
                link=generation,
                token_hash=tokens.token_hash(token),
                own_token=False,
                waiting=False,
                open=False,
            )

        # A turn in hand belonged to the old link's holder: the new one starts afresh.
        await self._reseat(
            live,
            relinked,
            self._plain(live),
            drop=seat,
            done=self._unlinked(live),
        )
        return found[0]

    @staticmethod
    def _unlinked(live: LiveTable) -> Callable[[bool], None]:
        # (the other processes read the new seats when they hear of the table, and
        # close theirs)
        return lambda _written: live.end_replaced()

    async def hand_to_bot(self, live: LiveTable, seat: int, level: Level) -> None:
        """The person seat ``seat`` is played by a bot of ``level`` from now on."""
        # The person's turn in hand was never committed: the bot plays from the record.
        await self._reseat(
            live,
            # (a seat that waited for its person, given up on, waits no more)
            lambda seats: changed(
                seats, seat, type="bot", level=level, token_hash=None, waiting=False, open=False
            ),
            self._plain(live),
            drop=seat,
        )

    async def claim(self, live: LiveTable, seat: int, player: Player, token: str) -> Claim:
        """The account ``player`` claims the person seat ``seat`` (whose ``token`` it
        opened): the claim and the seat showing the account's name are written in one
        transaction, and everyone is told the name. Answers the seat's claim: the one
        made here, or one made first by someone else (then nothing changed)."""
        claims: list[Claim] = []

        async def write(seats: list[Seat], _began: datetime | None) -> Claim | None:
            claim = await stored(self.accounts.claim, live.id, seat, player.id, token, seats)
            claims.append(claim)
            return claim if claim.player_id == player.id else None

        await self._reseat(live, lambda seats: changed(seats, seat, account=player.name), write)
        return claims[0]

    async def rename(self, live: LiveTable, seat: int, name: str) -> None:
        """The person seat ``seat`` is called ``name`` (cleaned) from now on: the guest
        who sits there chose it."""
        await self._reseat(
            live,
            lambda seats: changed(seats, seat, name=name),
            self._plain(live),
        )

    async def join(
        self, live: LiveTable, token: str, name: str | None, player: Player | None
    ) -> int | Refusal:
        """A person takes an open seat of the table from the lobby (the first open one),
        with the seat's new ``token`` (their own: the creator is never shown it), their
        ``name`` as a guest or their account (``player``), which claims the seat in the
        same transaction. Answers the seat, or why not."""
        taken: list[int] = []
        refused: list[Refusal] = []

        def seats(now: list[Seat]) -> list[Seat] | None:
            free = [s for s in now if s.open]
            if live.over or not free:
                refused.append(Refusal("no_free_seat", "This table has no free seat any more."))
                return None
            if player is not None and any(s.account == player.name for s in now):
                refused.append(Refusal("already_seated", "You have a seat at this table."))
                return None
            seat = free[0].seat
            taken.append(seat)
            return changed(
                now,
                seat,
                open=False,
                waiting=False,
                own_token=True,
                token_hash=tokens.token_hash(token),
                name=name,
                account=None if player is None else player.name,
            )

        async def write(new: list[Seat], began: datetime | None) -> bool | None:
            seat = taken[0]
            claiming = None if player is None else Claiming(seat, player.id, token)
            done = await stored(self.lobby.take, live.id, seat, new, claiming, began)
            return True if done else None

        if await self._reseat(live, seats, write) is None:
            # (nothing written: the seat was taken first, on another process)
            return refused[0] if refused else Refusal("no_free_seat", "Someone took it first.")
        return taken[0]

    async def sit(self, live: LiveTable, seat: int) -> None:
        """The account that holds the waiting seat ``seat`` (a player invited by name, or
        to a rematch) opened it: they sit down, and the match begins once nobody else is
        waited for."""

        def seats(now: list[Seat]) -> list[Seat] | None:
            return changed(now, seat, waiting=False) if now[seat].waiting else None

        await self._reseat(live, seats, self._plain(live))

    async def accept(
        self,
        live: LiveTable,
        seat: int,
        token: str | None,
        finished: str,
        accepted: Callable[[], list[int]],
    ) -> bool:
        """The person of ``seat`` of this table, the rematch of the ``finished`` one,
        accepted it: they sit down with ``token`` (their own new one; None: the seat's
        own, made for their account with the rematch), ``accepted`` giving the finished
        table's seats that accepted with them. False when the seat was taken first."""

        def seats(now: list[Seat]) -> list[Seat] | None:
            if not now[seat].waiting:
                return None
            if token is None:
                return changed(now, seat, waiting=False)
            return changed(
                now, seat, waiting=False, own_token=True, token_hash=tokens.token_hash(token)
            )

        async def write(new: list[Seat], began: datetime | None) -> bool | None:
            done = await stored(
                self.lobby.accept_again, finished, accepted(), live.id, seat, new, began
            )
            return True if done else None

        return await self._reseat(live, seats, write) is not None

    def again(self, live: LiveTable, again: Again) -> None:
        """The finished table's rematch is ``again`` now (made, or accepted by one more
        seat): everyone at it is told."""
        live.again = again
        live.sent = None  # (the messages kept for this version did not say it)
        self._changed(live)

    async def stand_in(
        self,
        live: LiveTable,
        seat: int,
        version: int,
        level: Level,
        write: SeatsWrite[T],
        done: Callable[[T], None],
    ) -> T | None:
        """A bot of ``level`` stands in for the person of ``seat``, whose time ran out at
        ``version`` (server/clocks/): ``write`` stores the seats with the clock's event,
        ``done`` tells the clock. None if the table moved on meanwhile (or another process
        wrote it first)."""

        def seats(now: list[Seat]) -> list[Seat] | None:
            if live.version != version or live.over or now[seat].bot:
                return None
            return changed(now, seat, standin=True, level=level)

        # The person's turn in hand was never committed: the bot plays from the record.
        return await self._reseat(live, seats, write, drop=seat, done=done)

    async def take_back(
        self, live: LiveTable, seat: int, write: SeatsWrite[T], done: Callable[[T], None]
    ) -> Refusal | None:
        """The person of ``seat`` takes it back from the bot that stood in for them:
        ``write`` stores the seats with the clock's event, ``done`` tells the clock."""
        if live.over:
            return Refusal("finished", "This match is over.")
        refused: list[Refusal] = []

        def seats(now: list[Seat]) -> list[Seat] | None:
            if live.over:
                refused.append(Refusal("finished", "This match is over."))
                return None
            if not now[seat].standin or now[seat].type == "bot":
                refused.append(Refusal("not_standin", "No bot stands in for this seat."))
                return None
            return changed(now, seat, standin=False, level=None)

        written = await self._reseat(live, seats, write, done=done)
        if refused:
            return refused[0]
        return Refusal("finished", "This match is over.") if written is None else None

    async def abandon(
        self,
        live: LiveTable,
        seat: int,
        version: int,
        write: Callable[[], Awaitable[T | None]],
        done: Callable[[T], None],
    ) -> T | None:
        """The match ends at ``version`` because ``seat``'s time ran out (server/clocks/):
        ``write`` stores it, ``done`` tells the clock. None if the table moved on
        meanwhile (or another process wrote it first)."""
        async with live.lock:
            if live.version != version or live.over or live.is_bot(seat):
                return None
            written = await write()
            if written is None:
                return None
            live.row.status = FINISHED
            done(written)
        self._changed(live)
        return written

    def hinted(self, live: LiveTable, seat: int, version: int) -> None:
        """The seat ``seat`` was given a hint at ``version`` (noted already): every viewer
        is told, here and on the other processes (server/analyses.py)."""
        live.hints_used.append((seat, version))
        live.sent = None  # (the messages kept for this version did not say it)
        self._changed(live)

    # --- what other processes did ------------------------------------------------------

    async def catch_up(self, live: LiveTable) -> bool:
        """Read what other processes committed (actions, seats, the end of a match) and
        tell the connections; True if the table changed."""
        async with live.lock:
            row, missed = await stored(self._read_since, live.id, live.version)
            seated = row is not None and row.seats != live.row.seats
            if row is not None:
                live.row.seats = row.seats
                live.row.status = row.status  # abandoned on another process (clocks)
                live.row.created = row.created  # the match began (its seats all taken)
            if seated:
                live.end_replaced()  # a seat given a new link on another process
            for seat, action in missed:
                live.apply(seat, action)
            # A hint asked on another process is every viewer's to see.
            hinted = live.hints and attach_hints(
                live, await stored(self.analyses.hints_of, live.id)
            )
            again = None
            if live.over:
                # A rematch asked for, or accepted, on another process.
                found = await stored(self.lobby.again_of, live.id)
                again = None if found is None else Again(found[0], tuple(found[1]))
                if again == live.again:
                    again = None
                else:
                    live.again = again
                    live.sent = None
        if seated or missed or hinted or again is not None:
            live.tell()
            # The turn may now be chance's or a bot's: nothing else would play it here.
            self.driver.drive(live)
        return seated or bool(missed) or hinted or again is not None

    def _read_since(
        self, table_id: str, version: int
    ) -> tuple[TableRow | None, list[tuple[int | None, int]]]:
        return self.store.get(table_id), self.store.actions(table_id, version)

    # --- the checks and the commit -----------------------------------------------------

    def _check(
        self, live: LiveTable, seat: int, version: int, pending: int, *, bot: bool = False
    ) -> Refusal | None:
        """The door's first checks: the match goes on, the seat is the caller's, and the
        client saw the table's version and the seat's turn in hand as they are."""
        if live.over:
            return Refusal("finished", "This match is over.")
        if live.waiting:
            return Refusal("waiting_for_players", "The match begins once every seat is taken.")
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

    async def _commit_answered(
        self, live: LiveTable, seat: int, turn: Sequence[tuple[int, State | None]]
    ) -> Refusal | None:
        """:meth:`_commit`, a storage failure answered as ``unavailable`` (the table put in
        doubt) instead of raised; the caller holds the lock and tells the table when it is
        committed."""
        try:
            return await self._commit(live, seat, turn)
        except Exception as exc:
            if not storage_failed(exc):
                raise
            self.failed(live, exc)
            return Refusal("unavailable", UNAVAILABLE)

    async def _commit(
        self, live: LiveTable, seat: int | None, turn: Sequence[tuple[int, State | None]]
    ) -> Refusal | None:
        """Append ``turn`` (``seat``'s actions, each with the state after it if known) at
        the table's version, whole, with the chance outcomes that follow it, then apply
        them; the caller holds the lock. ``seat`` None: ``turn`` is chance's own."""
        index = live.version
        # (each with its events where the state after it is made here: not played again)
        moves: list[tuple[int | None, int, State, list[Event] | None]] = []
        state = live.state
        for action, after in turn:
            events = None
            if after is None:
                after = state.clone()
                events = after.apply_events(action)
            moves.append((seat, action, after, events))
            state = after
        # The chance outcomes the turn leads to go with it (see chance_run).
        room = STEPS_KEPT - len(moves)
        moves += chance_run(live.row.seed, state, index + len(moves), room)
        appends = [
            Append(live.id, index + k, by, action, after.is_terminal())
            for k, (by, action, after, _) in enumerate(moves)
        ]
        try:
            await self.writer.append(*appends)
        except VersionConflictError:
            # Another process got there first: take its actions, then refuse.
            missed = await stored(self.store.actions, live.id, live.version)
            for s, a in missed:
                live.apply(s, a)
            live.tell()
            self.driver.drive(live)
            return Refusal(
                "stale_version", f"The table moved on to version {live.version}: see the new state."
            )
        for by, action, after, events in moves:
            live.apply(by, action, after, events)
        live.row.version = live.version
        live.row.updated = now()
        self.health.wrote()
        return None


def chance_run(
    seed: str, state: State, version: int, most: int
) -> list[tuple[None, int, State, list[Event]]]:
    """The chance outcomes due at ``state`` (the table's position at ``version``), one
    after another until a seat decides or the match ends, at most ``most`` of them, each
    with the state after it. Each is drawn from the table's seed and its own version, so
    they are the same however they are committed. A decision and the chance outcomes it
    leads to (a die rolled, a card drawn) are committed in one transaction: one sync to
    disk and one message to each connection (whose ``steps`` show them one at a time)
    instead of one each. ``most`` is kept within what ``steps`` shows
    (:data:`~necropolis.server.live.STEPS_KEPT`): a connection that was up to date is
    shown every one. Each comes with the events its rules emitted."""
    run: list[tuple[None, int, State, list[Event]]] = []
    while len(run) < most and state.current_player() == CHANCE:
        action = sample_chance(state, random.Random(f"{seed}:{version + len(run)}"))
        # One of the state's own chance outcomes: applied without a second check.
        state = state.clone()
        run.append((None, action, state, state.apply_legal_events(action)))
    return run
