"""Luxor by Gunter Baars (Ravensburger, 2001): the hieroglyph wall game, 2 to 4 players.

Players drop two-animal hieroglyph cards into an 8-shaft wall; equal animals side by side
place researchers and scarabs at the seven animal pillars, a third scarab opens a
sarcophagus for the researcher standing there, and the best sarcophagi (plus the secret
pharaoh card's bonus) win. Options switch on the two printed variants, the Pharaoh's curse
and the eyes of the Sphinx. Rules: ``docs/rules/luxor2001.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from necropolis.engine.balance import MatchFacts, Variant
from necropolis.engine.errors import OptionError
from necropolis.engine.events import Event
from necropolis.engine.options import Option
from necropolis.engine.protocol import Figure, Game, State, Told, View
from necropolis.games.luxor2001 import layout, narration, rules, statistics, text, view
from necropolis.games.luxor2001.components import (
    ANIMALS,
    NUM_CHANCE_OUTCOMES,
    NUM_DISTINCT_ACTIONS,
)
from necropolis.games.luxor2001.state import LuxorState

if TYPE_CHECKING:
    from necropolis.engine.protocol import Features, Policy


class Luxor2001Game(Game):
    """Luxor (Baars, 2001)."""

    id: ClassVar[str] = "luxor2001"
    title: ClassVar[str] = "Luxor (Gunter Baars, Ravensburger 2001)"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    default_players: ClassVar[int] = 3
    # An iteration costs about 0.17 ms of CPU here (docs/strength.md): 2000 of them
    # stay well inside hard's second, and played stronger than 1000.
    hard_iterations: ClassVar[int | None] = 2000
    # The levels' rates. hard beat the heuristic 76.0% of 200 two-player matches, but
    # with a random move a tenth of the time 85.8% of 120 and a twentieth 88.4% of 43: in
    # luxor2001 even a few random moves cost much. So medium is the heuristic itself, and
    # easy blunders a quarter of the time, which the heuristic beat 71.3% of 300 (a third:
    # 77.7% of 420). docs/strength.md, "Levels", has the runs.
    medium_blunder_rate: ClassVar[float] = 0.0
    easy_blunder_rate: ClassVar[float] = 0.25
    description: ClassVar[str] = (
        "An explorers' race before a crumbling wall of hieroglyphs. Each turn you slide one "
        "card of two animals into a shaft of the wall; wherever two equal animals now touch, "
        "you send a researcher to that animal's pillar or add a scarab in front of it, and "
        "the third scarab opens a sarcophagus for whoever's researcher stands there, even if "
        "that is a rival. How the two animals look (the same way or not) decides whether you "
        "may push a rival's researcher aside. Sarcophagi stay face down until the end, and a "
        "secret pharaoh card pays a bonus for holding its pillar, so nobody quite knows who "
        "leads. For 2 to 4 players, with two variants: a curse that lets sharp eyes take a "
        "sarcophagus from a rival, and the Sphinx's eyes that pair animals along whole lines."
    )
    messages: ClassVar[Mapping[str, str]] = {**narration.MESSAGES, **statistics.MESSAGES}
    extra_options: ClassVar[tuple[Option, ...]] = (
        Option("curse", bool, False, "variant 'the Pharaoh's curse' (six curse cards)"),
        Option("sphinx", bool, False, "variant 'the eyes of the Sphinx' (pairs along lines)"),
        Option(
            "pillar_order",
            str,
            "",
            "the pillars' slots left to right, animal names separated by commas "
            "(display only; empty: " + ",".join(ANIMALS) + ")",
            display_only=True,
        ),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        order = str(self.options["pillar_order"]).strip()
        if order:
            names = [x.strip().lower() for x in order.split(",")]
            if sorted(names) != sorted(ANIMALS):
                raise OptionError(
                    "option 'pillar_order' must name each of "
                    + ", ".join(ANIMALS)
                    + f" once; got {order!r}"
                )
            self.pillar_order: tuple[int, ...] = tuple(ANIMALS.index(x) for x in names)
        else:
            self.pillar_order = tuple(range(len(ANIMALS)))

    def new_initial_state(self) -> LuxorState:
        return LuxorState(self)

    def num_distinct_actions(self) -> int:
        return NUM_DISTINCT_ACTIONS

    def max_chance_outcomes(self) -> int:
        return NUM_CHANCE_OUTCOMES

    def max_game_length(self) -> int:
        return rules.max_game_length(self.num_players, bool(self.options["curse"]))

    def observation_size(self) -> int:
        return view.OBSERVATION_SIZE

    def encode_view(self, v: View) -> list[float]:
        return view.encode_view(v)

    def narrate_event(self, event: Event) -> list[Told]:
        return narration.narrate_event(event)

    def statistics(self, events: list[Event]) -> list[Figure]:
        return statistics.statistics(events, self.num_players)

    def render_view(self, v: View) -> str:
        return text.render_view(v)

    def board_layout(self) -> dict[str, Any]:
        """The wall's geometry and the components' figures (docs/rules/luxor2001.md)."""
        return layout.board_layout(
            self.pillar_order, bool(self.options["curse"]), bool(self.options["sphinx"])
        )

    def balance_facts(self, state: State) -> MatchFacts:
        """A round is every seat inserting one card (the last may be short); no early end
        (the match always ends with the fortieth card); per seat its pharaoh card."""
        assert isinstance(state, LuxorState)
        n = self.num_players
        return MatchFacts(
            rounds=-(-state.inserted // n),
            ended_early=None,
            seats=tuple({"pharaoh": ANIMALS[animal]} for animal in state.pharaoh),
        )

    @classmethod
    def balance_variants(cls) -> tuple[Variant, ...]:
        """Each printed variant alone and both together (the pillars' order is display
        only: nothing to compare)."""
        return (
            Variant("curse", {"curse": True}),
            Variant("sphinx", {"sphinx": True}),
            Variant("curse+sphinx", {"curse": True, "sphinx": True}),
        )

    @classmethod
    def components_file(cls) -> str:
        return "luxor2001.toml"

    def features(self) -> Features:
        from necropolis.games.luxor2001.features import FEATURES

        return FEATURES

    def heuristic_policy(self) -> Policy:
        from necropolis.games.luxor2001 import heuristic

        return heuristic.policy


GAME = Luxor2001Game

__all__ = ["GAME", "Luxor2001Game", "LuxorState"]
