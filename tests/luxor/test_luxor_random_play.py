"""A thousand random Luxor matches per player count: they end, conserve, and score right.

Every match is played to its end with random decisions and chance by its probabilities. At
the end the components are counted (cards, tiles, scarabs, keys, wild tiles, adventurers,
sarcophagi) and each seat's score is recounted here from the data file and the final
position, independently of the engine's scoring code (sets by exhaustive search).
"""

from __future__ import annotations

import random
import statistics
import tomllib
from functools import cache
from importlib import resources

import pytest

from necropolis.games.luxor import GAME, rules
from necropolis.games.luxor.components import NUM_CARD_KINDS
from necropolis.games.luxor.state import LuxorState
from tests.luxor.luxor_support import random_playout

_DATA = tomllib.loads(
    resources.files("necropolis.games.luxor").joinpath("luxor.toml").read_text(encoding="utf-8")
)
WALL = _DATA["path"]["points"]
SET_TABLE = _DATA["scoring"]["sets"]
VARIANT_POINTS = [v["points"] for v in _DATA["treasure_tiles"]["variants"]]


@cache
def most_sets(a: int, b: int, c: int, wild: int) -> int:
    """The most sets by trying every way to make one more set (at most two wild tiles)."""
    best = 0
    counts = (a, b, c)
    for mask in range(1, 8):  # which types this set takes as real tiles
        need_wild = 3 - bin(mask).count("1")
        if need_wild > wild or any(mask >> t & 1 and counts[t] == 0 for t in range(3)):
            continue
        rest = [counts[t] - (mask >> t & 1) for t in range(3)]
        best = max(best, 1 + most_sets(rest[0], rest[1], rest[2], wild - need_wild))
    return best


def recount(st: LuxorState, seat: int) -> int:
    nf = len(WALL)
    adventurers = sum(st.adventurers[seat * nf + f] * WALL[f] for f in range(nf))
    treasures = st.treasures[seat]
    track = sum(c * VARIANT_POINTS[k % 5] for k, c in enumerate(treasures))
    per_type = [sum(treasures[t * 5 : t * 5 + 5]) for t in range(3)]
    sets = most_sets(per_type[0], per_type[1], per_type[2], st.wilds[seat])
    set_score = SET_TABLE[min(sets, 8) - 1] if sets else 0
    sarcophagi = (5 if st.sarcophagi[0] == seat else 0) + (3 if st.sarcophagi[1] == seat else 0)
    scarabs = sum((v + 1) * c for v, c in enumerate(st.scarabs[seat]))
    return adventurers + track + set_score + sarcophagi + st.keys[seat] + scarabs


def check_conservation(st: LuxorState) -> None:
    n = st.num_players
    cards = [0] * NUM_CARD_KINDS
    for hand in st.hands:
        for k in hand:
            cards[k] += 1
    for k in range(NUM_CARD_KINDS):
        cards[k] += st.draw_counts[k] + st.discard[k] + sum(d[k] for d in st.horus_counts)
    assert cards[:7] == [6, 5, 4, 4, 4, 4, 4]
    assert sum(cards) == 31 + 24
    # Five cards in every hand, but four in the mover's between playing and drawing.
    assert all(len(h) == 5 for s, h in enumerate(st.hands) if s != st.seat or st.is_terminal())
    assert len(st.hands[st.seat]) in (4, 5)
    on_board = sum(1 for code in st.tiles if 1 <= code <= 15)
    assert on_board + sum(map(sum, st.treasures)) == 30
    temples = sum(1 for code in st.tiles if code >= 23)
    assert temples + sum(map(sum, st.temple_counts)) == 14
    assert sum(1 for code in st.tiles if 16 <= code <= 19) == 4
    assert sum(1 for code in st.tiles if 20 <= code <= 22) == 6
    assert sum(st.scarab_supply) + sum(map(sum, st.scarabs)) == 22
    assert st.key_supply + sum(st.keys) + st.keys_paid == 20
    assert st.wild_supply + sum(st.wilds) == 18
    nf = len(WALL)
    for s in range(n):
        active = sum(st.adventurers[s * nf : (s + 1) * nf])
        assert active + sum(st.sleeping[s * 3 : s * 3 + 3]) == 5
    assert st.keys_paid == st.entries == sum(st.adventurers[s * nf + nf - 1] for s in range(n))
    assert sum(1 for h in st.sarcophagi if h >= 0) == min(2, st.entries)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_thousand_random_matches(players: int) -> None:
    game = GAME(players=players)
    lengths: list[int] = []
    spreads: list[float] = []
    rounds: list[int] = []
    for seed in range(1000):
        st = game.new_initial_state()
        rng = random.Random(seed * 7 + players)
        steps = random_playout(st, rng, limit=100 + seed % 300)  # stop midway for a check
        check_conservation(st)
        steps += random_playout(st, rng)
        assert st.is_terminal()
        assert steps <= game.max_game_length()
        check_conservation(st)
        scores = st.scores()
        assert scores == [float(recount(st, s)) for s in range(players)]
        returns = st.returns()
        assert sum(returns) == pytest.approx(1.0)
        best = max(scores)
        assert all(r == 0 or scores[i] == best for i, r in enumerate(returns))
        lengths.append(steps)
        spreads.append(max(scores) - min(scores))
        rounds.append(st.round)
    print(
        f"\nluxor {players}p: length mean {statistics.mean(lengths):.0f} "
        f"min {min(lengths)} max {max(lengths)}; "
        f"score spread mean {statistics.mean(spreads):.1f} max {max(spreads):.0f}; "
        f"rounds max {max(rounds)}"
    )
    assert max(lengths) < game.max_game_length()
    assert max(rounds) < rules.MAX_ROUNDS  # the safety cap never decides a random match
    assert rules.MAX_ROUNDS * players * rules.MAX_ACTIONS_PER_TURN < game.max_game_length()
