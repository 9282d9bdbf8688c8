"""Shared helpers for the engine tests, and the hypothesis profiles of every test.

``HYPOTHESIS_PROFILE`` picks the profile: ``ci`` (the default, what ``make test`` runs)
is derandomized, so a run replays the same examples on every machine; ``fuzz`` (``make
fuzz``) draws fresh random examples, :data:`FUZZ_FACTOR` times as many, and runs the
tests marked ``slow``. A failure shrinks to a short move sequence and prints it.
"""

from __future__ import annotations

import os
from collections import Counter

from hypothesis import HealthCheck, settings

from engine.cards import Card
from engine.state import State

_COMMON = settings(
    deadline=None, database=None, print_blob=True,
    # a playout draws its moves as it goes: slow to generate by design
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("ci", _COMMON, derandomize=True, max_examples=3)
settings.register_profile("fuzz", _COMMON, max_examples=60)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
settings.load_profile(PROFILE)
FUZZ = PROFILE == "fuzz"
FUZZ_FACTOR = 20


def examples(ci: int) -> int:
    """A test's example count: ``ci`` in the ci profile, :data:`FUZZ_FACTOR` times more
    under ``fuzz``."""
    return ci * FUZZ_FACTOR if FUZZ else ci


def all_cards(state: State) -> Counter[Card]:
    """Every card in every zone of a state, as a multiset (for conservation checks)."""
    total: Counter[Card] = Counter(state.stock) + Counter(state.pile)
    for zone in (*state.hands, *state.red3):
        total.update(zone)
    for team in state.melds:
        for meld in team:
            total.update(meld.cards)
    return total
