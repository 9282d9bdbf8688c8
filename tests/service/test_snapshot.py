"""Sealed snapshots: round trip, size, every kind of damage, key rotation, the state cache."""

from __future__ import annotations

import dataclasses
import os
import random
import uuid
import zlib

import grpc
import pytest

from engine import Phase, apply, new_game
from engine.bots import random_move
from engine.codec import encode_state
from engine.notation import export_position
from engine.state import State
from service.api.errors import ServiceError
from service.api.pb import api, game
from service.ops.metrics import REGISTRY
from service.sealing import tokens
from service.sealing.keys import KeyRing, new_key_entry
from service.sealing.snapshot import (
    AAD_PREFIX,
    FORMAT_VERSION,
    NONCE_BYTES,
    ZLIB_VERSION,
    Header,
    Sealer,
    new_game_id,
    read_header,
)
from tests.service.helpers import Failure, call_grpc, ok
from tests.service.servers import running

OLD = new_key_entry("k-2026-01")
NEW = new_key_entry("k-2026-02")


def mid_hand(players: int = 4, seed: int = 1) -> State:
    """The position halfway through a random-play hand."""
    state = new_game("classic", players, seed=seed)
    rng = random.Random(seed)
    states = [state]
    while state.phase not in (Phase.HAND_OVER, Phase.GAME_OVER) and len(states) < 2000:
        state = apply(state, random_move(state, rng))
        states.append(state)
    return states[len(states) // 2]


def _reason(err: pytest.ExceptionInfo[ServiceError]) -> tuple[grpc.StatusCode, str]:
    return err.value.code, err.value.reason


def _sealer(*entries: str, cache: int = 0) -> Sealer:
    return Sealer(KeyRing.parse(",".join(entries)), cache_size=cache)


def test_round_trip_and_clear_header() -> None:
    state = mid_hand()
    sealer = _sealer(NEW)
    gid = new_game_id()
    blob, header = sealer.seal(state, gid, 41, imported=True)
    assert header == Header(FORMAT_VERSION, "k-2026-02", "classic", gid, 41, True)
    opened_header, opened = sealer.open(blob)
    assert opened == state and opened_header == header
    assert read_header(blob)[0] == header  # readable with no key at all
    assert export_position(state).encode() not in blob


def test_the_game_id_is_written_as_a_uuid() -> None:
    """``game_uuid`` is the id's canonical UUID text, as ``uuid`` writes it."""
    for gid in [bytes(16), b"\xff" * 16, *(new_game_id() for _ in range(200))]:
        header = Header(FORMAT_VERSION, "k", "classic", gid, 0, False)
        assert header.game_uuid == str(uuid.UUID(bytes=gid))


def test_the_header_flags_are_sealed() -> None:
    """Both flags (imported, stacked) round-trip through the clear header, and setting or
    clearing either one in a sealed snapshot fails the tag; an unknown flag bit is refused
    before any key is tried."""
    state, sealer = mid_hand(), _sealer(NEW)
    for imported in (False, True):
        for stacked in (False, True):
            blob, header = sealer.seal(state, new_game_id(), 5, imported, stacked)
            assert (header.imported, header.stacked) == (imported, stacked)
            assert blob[3] == imported | stacked << 1
            assert read_header(blob)[0] == header == sealer.open(blob)[0]
            for bit in (0x01, 0x02):
                flipped = blob[:3] + bytes((blob[3] ^ bit,)) + blob[4:]
                assert read_header(flipped)[0] != header  # it parses: only the tag fails
                with pytest.raises(ServiceError) as err:
                    sealer.open(flipped)
                assert _reason(err) == (grpc.StatusCode.INVALID_ARGUMENT, "SNAPSHOT_INVALID")
            with pytest.raises(ServiceError) as err:
                read_header(blob[:3] + bytes((blob[3] | 0x04,)) + blob[4:])
            assert err.value.reason == "SNAPSHOT_INVALID"


@pytest.mark.parametrize("players", [2, 4, 6])
def test_sealed_mid_hand_snapshots_stay_under_1kb(players: int) -> None:
    sealer = _sealer(NEW)
    sizes = [len(sealer.seal(mid_hand(players, seed), new_game_id(), 99, False)[0])
             for seed in range(12)]
    limit = 1024 if players == 4 else 1536  # the target is for classic 4-player hands
    assert max(sizes) <= limit, sizes


def test_every_flipped_byte_is_refused() -> None:
    sealer = _sealer(NEW)
    blob, _ = sealer.seal(mid_hand(seed=3), new_game_id(), 7, False)
    for i in range(len(blob)):
        damaged = bytearray(blob)
        damaged[i] ^= 0x80
        with pytest.raises(ServiceError) as err:
            sealer.open(bytes(damaged))
        expected = ("SNAPSHOT_VERSION_UNSUPPORTED" if i == 2 else "SNAPSHOT_INVALID")
        assert err.value.reason == expected, i


def test_every_truncation_and_extension_is_refused() -> None:
    sealer = _sealer(NEW)
    blob, _ = sealer.seal(mid_hand(seed=4), new_game_id(), 7, False)
    for cut in range(len(blob)):
        with pytest.raises(ServiceError) as err:
            sealer.open(blob[:cut])
        assert _reason(err) == (grpc.StatusCode.INVALID_ARGUMENT, "SNAPSHOT_INVALID")
    with pytest.raises(ServiceError):
        sealer.open(blob + b"\0")


def test_unknown_version_is_a_snapshot_error() -> None:
    """docs/api.md, Errors: a snapshot that does not open is INVALID_ARGUMENT (category
    snapshot); FAILED_PRECONDITION is a rule refusal only."""
    sealer = _sealer(NEW)
    blob, _ = sealer.seal(mid_hand(), new_game_id(), 0, False)
    with pytest.raises(ServiceError) as err:
        sealer.open(blob[:2] + bytes((FORMAT_VERSION + 1,)) + blob[3:])
    assert _reason(err) == (grpc.StatusCode.INVALID_ARGUMENT, "SNAPSHOT_VERSION_UNSUPPORTED")
    assert err.value.category == "snapshot"
    assert err.value.metadata["supported"] == "1,2"


def _seal_raw(sealer: Sealer, plaintext: bytes, variant: str = "classic",
              version: int = FORMAT_VERSION) -> bytes:
    """Seal arbitrary plaintext with a real key, as only a key holder could."""
    key = sealer.keys.sealing
    clear = Header(version, key.key_id, variant, new_game_id(), 0, False).encode()
    nonce = os.urandom(NONCE_BYTES)
    return clear + nonce + key.aead.encrypt(nonce, plaintext, AAD_PREFIX + clear)


def test_authentic_but_unreadable_contents() -> None:
    """Contents only a key holder could seal: each refused with a typed reason."""
    sealer = _sealer(NEW)
    text = encode_state(mid_hand())
    bomb = zlib.compress(b" " * (8 << 20))  # inflates far past the bound
    cases = {  # name: (plaintext, format version, reason)
        "not zlib": (b"plain text", ZLIB_VERSION, "SNAPSHOT_INVALID"),
        "zip bomb": (bomb, ZLIB_VERSION, "SNAPSHOT_INVALID"),
        "dirty padding": (zlib.compress(text) + b"\x01", ZLIB_VERSION, "SNAPSHOT_INVALID"),
        "other variant, format 1": (zlib.compress(text), ZLIB_VERSION, "SNAPSHOT_INVALID"),
        "other variant": (text, FORMAT_VERSION, "SNAPSHOT_INVALID"),
        "old notation": (zlib.compress(b"canasta-position 0\n"), ZLIB_VERSION,
                         "SNAPSHOT_VERSION_UNSUPPORTED"),
        "not an encoded state": (b"plain text", FORMAT_VERSION, "SNAPSHOT_VERSION_UNSUPPORTED"),
        "dirty padding, format 2": (text + b"\x01", FORMAT_VERSION,
                                    "SNAPSHOT_VERSION_UNSUPPORTED"),
    }
    for name, (plain, version, reason) in cases.items():
        variant = "samba" if name.startswith("other variant") else "classic"
        with pytest.raises(ServiceError) as err:
            sealer.open(_seal_raw(sealer, plain, variant, version))
        assert err.value.reason == reason, name


def test_format_1_snapshots_still_open() -> None:
    """The previous format (zlib inside the seal) opens to the same state (N-1)."""
    sealer = _sealer(NEW)
    state = mid_hand()
    packed = zlib.compress(encode_state(state))
    blob = _seal_raw(sealer, packed + bytes(-len(packed) % 32), version=ZLIB_VERSION)
    header, opened = sealer.open(blob)
    assert header.format_version == ZLIB_VERSION
    assert opened == state
    new_blob, new_header = sealer.seal(opened, header.game_id, header.seq + 1, False)
    assert new_header.format_version == FORMAT_VERSION == new_blob[2]


def test_key_rotation_in_the_sealer() -> None:
    state = mid_hand()
    before = _sealer(OLD)
    old_blob, _ = before.seal(state, new_game_id(), 3, False)
    during = _sealer(NEW, OLD)  # new key first: it seals, both open
    assert during.open(old_blob)[1] == state
    new_blob, header = during.seal(state, new_game_id(), 4, False)
    assert header.key_id == "k-2026-02"
    with pytest.raises(ServiceError) as err:
        before.open(new_blob)  # a server not yet rotated cannot open it: a key it never held
    assert _reason(err) == (grpc.StatusCode.INVALID_ARGUMENT, "SNAPSHOT_KEY_RETIRED")
    assert err.value.metadata["key_id"] == "k-2026-02"
    after = _sealer(NEW)  # old key dropped
    assert after.open(new_blob)[1] == state
    with pytest.raises(ServiceError) as err:
        after.open(old_blob)
    assert _reason(err) == (grpc.StatusCode.INVALID_ARGUMENT, "SNAPSHOT_KEY_RETIRED")
    assert err.value.metadata["key_id"] == "k-2026-01"


def test_a_retired_key_is_told_from_the_clear_header_alone() -> None:
    """SNAPSHOT_KEY_RETIRED comes from the clear header's key id before anything is
    decrypted: the same answer whatever follows the header (so it is no oracle). A key id
    the ring holds under another key, or one no key could have, stays SNAPSHOT_INVALID."""
    old_blob, _ = _sealer(OLD).seal(mid_hand(), new_game_id(), 3, False)
    after = _sealer(NEW)
    at = read_header(old_blob)[1]
    for body in (old_blob[at:], os.urandom(len(old_blob) - at), bytes(NONCE_BYTES + 16)):
        with pytest.raises(ServiceError) as err:
            after.open(old_blob[:at] + body)
        assert err.value.reason == "SNAPSHOT_KEY_RETIRED"
        assert err.value.message("ru").startswith("Снимок запечатан ключом k-2026-01")
    same_id = _sealer(new_key_entry("k-2026-02")).seal(mid_hand(), new_game_id(), 3, False)[0]
    with pytest.raises(ServiceError) as err:
        after.open(same_id)  # the id is held, the key is not the one that sealed it
    assert err.value.reason == "SNAPSHOT_INVALID"
    header = read_header(old_blob)[0]
    for bad_id in ("k 2026", "k\n", "ключ".encode().decode("latin-1")[:4]):
        clear = dataclasses.replace(header, key_id=bad_id)
        try:
            forged = clear.encode() + old_blob[at:]
        except UnicodeEncodeError:  # not ASCII: written by hand below
            kid = bad_id.encode("latin-1")
            forged = old_blob[:4] + bytes((len(kid),)) + kid + old_blob[5 + old_blob[4]:]
        with pytest.raises(ServiceError) as err:
            after.open(forged)
        assert err.value.reason == "SNAPSHOT_INVALID", bad_id


def test_key_rotation_over_the_wire() -> None:
    """A rotation keeps games and their credentials working while the old key stays in the
    ring; once it is retired, a credential it signed is refused with its own reason."""
    with running(KeyRing.parse(OLD)) as old_server, \
            running(KeyRing.parse(f"{NEW},{OLD}")) as rotated, \
            running(KeyRing.parse(NEW)) as retired:
        old_channel, old_stub = old_server.stub()
        new_channel, new_stub = rotated.stub()
        retired_channel, retired_stub = retired.stub()
        with old_channel, new_channel, retired_channel:
            deal = ok(call_grpc(old_stub, "Deal", api.DealRequest(variant="classic", players=4,
                                                                   seed=5)))
            assert deal.header.key_id == "k-2026-01"
            seat0 = deal.seat_tokens[0]
            assert seat0.split(".")[2] == "k-2026-01"
            # the rotated ring still holds the old key: the old seat token acts
            moved = ok(call_grpc(new_stub, "ApplyMove", api.ApplyMoveRequest(
                snapshot=deal.snapshot, move=game.Move(text="draw"), expected_seq=0),
                token=seat0))
            assert moved.header.key_id == "k-2026-02" and moved.header.seq == 1
            assert [v.seat for v in moved.views] == [0]
            refused = call_grpc(old_stub, "LegalMoves",
                                api.LegalMovesRequest(snapshot=moved.snapshot), token=seat0)
            assert isinstance(refused, Failure) and refused.reason == "SNAPSHOT_KEY_RETIRED"
            # the old key retired: the snapshot the rotated server sealed still opens, the
            # credential signed with the retired key does not, and says why
            retired_call = call_grpc(retired_stub, "LegalMoves",
                                     api.LegalMovesRequest(snapshot=moved.snapshot), token=seat0)
            assert isinstance(retired_call, Failure)
            assert (retired_call.code, retired_call.reason) == (
                "UNAUTHENTICATED", "CREDENTIAL_KEY_RETIRED")
            assert "k-2026-01" in retired_call.message
            # the game's credentials signed with the new key (as the host's next call
            # answers them) act there
            new_seat0 = tokens.issue(KeyRing.parse(NEW), uuid.UUID(
                moved.header.game_id).bytes, tokens.seat_role(0))
            assert len(ok(call_grpc(retired_stub, "LegalMoves", api.LegalMovesRequest(
                snapshot=moved.snapshot), token=new_seat0)).moves) > 1


def test_cache_serves_only_exact_bytes() -> None:
    sealer = _sealer(NEW, cache=2)
    states = [mid_hand(seed=s) for s in (1, 2, 3)]
    blobs = [sealer.seal(s, new_game_id(), 0, False)[0] for s in states]
    assert sealer.open(blobs[2])[1] is states[2]  # a hit: the very object
    assert sealer.open(blobs[0])[1] == states[0]  # evicted, opened again
    damaged = bytearray(blobs[2])
    damaged[-1] ^= 1
    with pytest.raises(ServiceError):
        sealer.open(bytes(damaged))
    assert sealer.open(blobs[1])[1] == states[1]


def test_cache_lookups_are_counted() -> None:
    """canasta_state_cache_lookups_total tells hits from misses (a miss decrypts and decodes:
    what a call pays on a replica or worker that did not seal the snapshot)."""
    def count(result: str) -> float:
        return REGISTRY.get_sample_value("canasta_state_cache_lookups_total",
                                         {"result": result}) or 0.0

    blob = _sealer(NEW, cache=4).seal(mid_hand(), new_game_id(), 0, False)[0]
    other = _sealer(NEW, cache=4)  # another process with the same keys: its cache is empty
    hits, misses = count("hit"), count("miss")
    other.open(blob)
    assert (count("hit") - hits, count("miss") - misses) == (0, 1)
    other.open(blob)
    assert (count("hit") - hits, count("miss") - misses) == (1, 1)
    _sealer(NEW, cache=0).open(blob)  # no cache: nothing to count
    assert (count("hit") - hits, count("miss") - misses) == (1, 1)


def test_nonces_never_repeat() -> None:
    sealer = _sealer(NEW)
    state, gid = mid_hand(), new_game_id()
    blobs = {sealer.seal(state, gid, 1, False)[0] for _ in range(200)}
    assert len(blobs) == 200


def test_the_size_limit_is_exact() -> None:
    """CANASTA_MAX_SNAPSHOT_BYTES: a snapshot of exactly the limit opens, one byte more is
    SNAPSHOT_INVALID before anything is read (the limit is what a deployment promises)."""
    ring = KeyRing.parse(NEW)
    blob = Sealer(ring, cache_size=0).seal(mid_hand(), new_game_id(), 0, False)[0]
    assert Sealer(ring, max_bytes=len(blob), cache_size=0).open(blob)[0].seq == 0
    with pytest.raises(ServiceError) as err:
        Sealer(ring, max_bytes=len(blob) - 1, cache_size=0).open(blob)
    assert _reason(err) == (grpc.StatusCode.INVALID_ARGUMENT, "SNAPSHOT_INVALID")


def test_sealed_contents_are_padded_to_32_bytes() -> None:
    """Format 2 pads the encoded state to a multiple of 32 bytes before sealing, so a
    snapshot's size tells only roughly how long the state's encoding is."""
    sealer = _sealer(NEW)
    for seed in range(1, 6):
        blob, _ = sealer.seal(mid_hand(seed=seed), new_game_id(), 0, False)
        sealed = len(blob) - read_header(blob)[1] - NONCE_BYTES - 16  # the GCM tag
        assert sealed % 32 == 0, seed
