"""Fuzzing the snapshot opener (``Sealer.open``) with random and damaged real snapshots.

Whatever the bytes, opening raises :class:`ServiceError` ``SNAPSHOT_INVALID``,
or ``SNAPSHOT_VERSION_UNSUPPORTED`` exactly when the version byte names a
format this server does not know, or ``SNAPSHOT_KEY_RETIRED`` exactly when an
otherwise well-formed clear header names a valid key id the ring does not hold
(decided before any decryption); never another exception, and never a state
from bytes that are not a snapshot the key sealed. The opener under test has no
cache, so every call goes through the whole check.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.api.errors import ServiceError
from service.sealing.keys import KEY_ID, KeyRing, new_key_entry
from service.sealing.snapshot import MAGIC, SUPPORTED_VERSIONS, Sealer, new_game_id, read_header
from tests.hardening.pool import EXAMPLES, states

KEYS = KeyRing.parse(f"{new_key_entry('fuzz-2')},{new_key_entry('fuzz-1')}")
SEALER = Sealer(KEYS, cache_size=0)
SEALED = [SEALER.seal(s, new_game_id(), i, i % 3 == 0)[0] for i, s in enumerate(states(11)[::3])]
assert len(SEALED) > 20


def expected_reason(blob: bytes) -> str:
    """What opening bytes that are not an authentic snapshot must answer."""
    if 4 <= len(blob) <= SEALER.max_bytes and blob[:2] == MAGIC \
            and blob[2] not in SUPPORTED_VERSIONS:
        return "SNAPSHOT_VERSION_UNSUPPORTED"
    try:
        key_id = read_header(blob)[0].key_id if 0 < len(blob) <= SEALER.max_bytes else ""
    except ServiceError:
        key_id = ""
    if KEY_ID.fullmatch(key_id) and KEYS.get(key_id) is None:
        return "SNAPSHOT_KEY_RETIRED"
    return "SNAPSHOT_INVALID"


@st.composite
def damaged(draw: st.DrawFn) -> bytes:
    """A real snapshot with one to three kinds of damage."""
    blob = draw(st.sampled_from(SEALED))
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["flip", "flips", "truncate", "extend", "version",
                                     "splice", "header", "zero"]))
        at = draw(st.integers(0, len(blob) - 1)) if blob else 0
        if kind == "flip" and blob:
            blob = blob[:at] + bytes((blob[at] ^ (1 << draw(st.integers(0, 7))),)) + blob[at + 1:]
        elif kind == "flips" and blob:
            b = bytearray(blob)
            for i in draw(st.lists(st.integers(0, len(b) - 1), min_size=2, max_size=8)):
                b[i] ^= draw(st.integers(1, 255))
            blob = bytes(b)
        elif kind == "truncate":
            blob = blob[:at]
        elif kind == "extend":
            blob += draw(st.binary(min_size=1, max_size=64) | st.just(bytes(SEALER.max_bytes)))
        elif kind == "version" and len(blob) > 2:
            blob = blob[:2] + bytes((draw(st.integers(0, 255)),)) + blob[3:]
        elif kind == "splice":  # the header of one snapshot, the sealed body of another
            other = draw(st.sampled_from(SEALED))
            cut = draw(st.integers(0, min(len(blob), len(other))))
            blob = blob[:cut] + other[cut:]
        elif kind == "header" and len(blob) > 4:  # the key id / variant length bytes
            blob = blob[:4] + bytes((draw(st.integers(0, 255)),)) + blob[5:]
        elif kind == "zero":
            end = draw(st.integers(at, len(blob)))
            blob = blob[:at] + bytes(end - at) + blob[end:]
    return blob


def _random() -> st.SearchStrategy[bytes]:
    """Random bytes, some behind a valid magic and version so the deeper checks run."""
    prefix = st.sampled_from([b"", MAGIC, *(MAGIC + bytes((v,)) for v in SUPPORTED_VERSIONS)])
    return st.builds(lambda p, rest: p + rest, prefix, st.binary(max_size=700))


@pytest.mark.parametrize("name", ["random", "damaged"])
def test_open_refuses_what_the_key_did_not_seal(name: str) -> None:
    originals = set(SEALED)
    strategy = {"random": _random, "damaged": damaged}[name]()
    outcomes: Counter[str] = Counter()

    @settings(max_examples=10 * EXAMPLES, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(blob=strategy)
    def fuzz(blob: bytes) -> None:
        if blob in originals:  # damage that cancelled out (a bit flipped twice)
            outcomes["unchanged"] += 1
            return
        try:
            opened = SEALER.open(blob)
        except ServiceError as err:
            assert err.reason == expected_reason(blob), (err.reason, blob[:40])
            outcomes[err.reason] += 1
            return
        raise AssertionError(f"altered bytes opened: {opened[0]}")

    fuzz()
    assert sum(outcomes.values()) >= 10 * EXAMPLES
    assert outcomes["SNAPSHOT_INVALID"] > 0


def test_the_originals_open() -> None:
    """The control: every undamaged snapshot opens (so the refusals above are earned)."""
    for blob in SEALED:
        header, state = SEALER.open(blob)
        assert state.rules.variant == header.variant


@pytest.mark.parametrize("change", [
    lambda b: b[:2] + bytes((b[2] ^ 0xFF,)) + b[3:],
    lambda b: b[:3] + bytes((b[3] | 0x02,)) + b[4:],
], ids=["unknown-version", "unknown-flag"])
def test_header_bytes(change: Callable[[bytes], bytes]) -> None:
    """A version this server does not know, unknown flag bits: typed refusals."""
    for blob in SEALED:
        bad = change(blob)
        with pytest.raises(ServiceError) as err:
            SEALER.open(bad)
        assert err.value.reason == expected_reason(bad)
