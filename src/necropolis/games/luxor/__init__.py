"""Luxor (Rüdiger Dorn, Queen Games 2018): adventurers race along a temple path to the tomb.

The package's ``GAME`` is :class:`LuxorGame`, the rules object the registry finds. The rules
are in ``rules.py``, the position in ``state.py``, views and the observation tensor in
``view.py``, text and the terminal board in ``text.py``, the component data in
``luxor.toml`` (read by ``components.py``). ``docs/rules/luxor.md`` explains the rules in the
project's own words, the action encoding, the tensor layout and every reconstruction.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from necropolis.engine.balance import MatchFacts
from necropolis.engine.events import Event
from necropolis.engine.protocol import Figure, Game, State, Told, View
from necropolis.games.luxor import layout, narration, rules, statistics, text, view
from necropolis.games.luxor.components import HAND_SIZE, OSIRIS_USED, TREASURE_FIELDS
from necropolis.games.luxor.state import LuxorState

if TYPE_CHECKING:
    from necropolis.engine.protocol import Features, Policy, TurnPlanner


class LuxorGame(Game):
    """Luxor for 2 to 4 players."""

    id = "luxor"
    title = "Luxor (Rüdiger Dorn, 2018)"
    min_players = 2
    max_players = 4
    default_players = 2
    #: medium and hard play the heuristic's move unless their search finds one better by
    #: five points of win share: the heuristic plans a whole turn, which a search of 1000
    #: iterations barely reaches the end of (docs/strength.md has the measurements).
    search_anchor = 0.05
    #: medium plays a random move at a seventh of its decisions or so: hard beat the
    #: heuristic at a tenth 70.8% and at a fifth 80.8% of 120 two-player matches; a
    #: tenth beat easy's third 81.7%, a fifth 73.3% (docs/strength.md, "Levels").
    medium_blunder_rate = 0.15
    description = (
        "Adventurers hurry through the temple of Luxor towards the pharaoh's burial chamber."
        " Each turn you may only play the card at the far left or far right of your hand,"
        " and the card you draw slides into the middle, so planning which cards reach the"
        " ends is half the game. Move your adventurers from tile to tile, gather treasures"
        " in sets, wake the companions lying at the Anubis statues, collect keys, scarabs"
        " and Horus cards, and race for the sarcophagi: the match ends in the round in which"
        " a second adventurer enters the chamber, and the further your party got, the more"
        " it scores. For 2 to 4 players."
    )
    messages: ClassVar[Mapping[str, str]] = {**narration.MESSAGES, **statistics.MESSAGES}

    def new_initial_state(self) -> LuxorState:
        return LuxorState(self)

    def num_distinct_actions(self) -> int:
        return rules.NUM_ACTIONS

    def max_chance_outcomes(self) -> int:
        return rules.MAX_CHANCE

    def max_game_length(self) -> int:
        setup = HAND_SIZE * self.num_players + OSIRIS_USED + len(TREASURE_FIELDS)
        turns = rules.MAX_ROUNDS * self.num_players
        return setup + turns * rules.MAX_ACTIONS_PER_TURN

    def observation_size(self) -> int:
        return view.OBSERVATION_SIZE

    def encode_view(self, v: View) -> list[float]:
        return view.encode_view(v)

    def message(self, kind: str, params: Mapping[str, Any], viewer: int | None) -> str:
        # Ids ("range_3", "cobra") and path indices are written as English words.
        return narration.message(kind, params, viewer, self.messages)

    def narrate_event(self, event: Event) -> list[Told]:
        return narration.narrate_event(event)

    def statistics(self, events: list[Event]) -> list[Figure]:
        return statistics.statistics(events, self.num_players)

    def board_layout(self) -> dict[str, Any]:
        return layout.board_layout()

    def render_view(self, v: View) -> str:
        return text.render_view(v)

    def balance_facts(self, state: State) -> MatchFacts:
        """Rounds completed; an early end is the one mid-round, after a whole round's worth
        of turns in which nobody could move."""
        assert isinstance(state, LuxorState)
        return MatchFacts(
            rounds=state.round,
            ended_early=state.no_move_turns >= state.game.num_players,
            seats=tuple({} for _ in range(self.num_players)),
        )

    @classmethod
    def components_file(cls) -> str:
        return "luxor.toml"

    def features(self) -> Features:
        from necropolis.games.luxor.features import FEATURES

        return FEATURES

    def heuristic_policy(self) -> Policy:
        from necropolis.games.luxor import heuristic

        return heuristic.policy

    def level_policy(self) -> Policy:
        """The heuristic with a Horus card in hand worth less (``heuristic.LEVELS``)."""
        from necropolis.games.luxor import heuristic

        return heuristic.levels_policy

    def turn_planner(self) -> TurnPlanner:
        from necropolis.games.luxor import heuristic

        return heuristic.Planner()


GAME = LuxorGame

__all__ = ["GAME", "LuxorGame", "LuxorState"]
