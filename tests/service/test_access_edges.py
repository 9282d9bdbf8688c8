"""Access edges the role tests leave open (service/api/access.py, service/sealing/tokens.py,
docs/security.md): the export policy ``off``, the credential's documented format and key,
the refusal of a malformed role, and the record of a stacked deal (docs/records.md).

Each test was written against a mutant of the code that the other tests let through.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import random

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from engine import new_game
from engine.cards import CODES
from engine.deck import shuffled_deck
from engine.notation import export_position
from service.api.core import Call, Core
from service.api.errors import ServiceError
from service.api.pb import api
from service.ops.config import ExportPolicy
from service.sealing import tokens
from service.sealing.keys import KeyRing
from service.sealing.snapshot import Sealer

# a fixed key (64 hex digits), so the expected token is computed here from the spec alone
MATERIAL = bytes(range(32))
RING = KeyRing.parse("fixed-1:" + MATERIAL.hex())
GAME = bytes.fromhex("00112233445566778899aabbccddeeff")


def _call(token: str | None = None) -> Call:
    return Call(authorization=(f"Bearer {token}",) if token else ())


def _deal(core: Core, **fields: object) -> api.DealResponse:
    resp = core.handle("Deal", api.DealRequest(variant="classic", players=2, seed=5, **fields),
                       _call())
    assert isinstance(resp, api.DealResponse)
    return resp


def _spec_token(role: str, key_id: str = "fixed-1", game_id: bytes = GAME) -> str:
    """docs/security.md: HMAC-SHA256, first 16 bytes, base64url, over the format, key id,
    game id and role, keyed with a credential key derived by HKDF from the ring's key
    (never the sealing key itself)."""
    credential_key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None,
                          info=b"canasta.v1 credentials").derive(MATERIAL)
    msg = b"\x00".join((b"canasta.v1.credential\x00", b"ct1", key_id.encode(), game_id,
                        role.encode()))
    mac = hmac.new(credential_key, msg, hashlib.sha256).digest()[:16]
    return f"ct1.{role}.{key_id}.{base64.urlsafe_b64encode(mac).rstrip(b'=').decode()}"


def test_tokens_follow_the_documented_format() -> None:
    """The MAC binds the key id and is keyed by the HKDF credential key, not the raw key:
    a token computed from docs/security.md alone is the one the service issues and
    accepts, and one computed with the raw key material is refused."""
    host, seats = tokens.issue_all(RING, GAME, 4)
    assert host == _spec_token("host")
    assert seats == [_spec_token(f"s{s}") for s in range(4)]
    assert tokens.verify(RING, _spec_token("s3"), GAME) == "s3"
    raw_keyed = base64.urlsafe_b64encode(hmac.new(MATERIAL, b"\x00".join((
        b"canasta.v1.credential\x00", b"ct1", b"fixed-1", GAME, b"host")),
        hashlib.sha256).digest()[:16]).rstrip(b"=").decode()
    with pytest.raises(ServiceError) as err:
        tokens.verify(RING, f"ct1.host.fixed-1.{raw_keyed}", GAME)
    assert err.value.reason == "CREDENTIAL_INVALID"


def test_a_token_moved_to_another_key_id_is_refused() -> None:
    """The key id is signed: the same key material listed under two ids (a rotation that
    re-used a key) does not let a token be relabelled to the other id."""
    ring = KeyRing.parse(f"fixed-1:{MATERIAL.hex()},fixed-2:{MATERIAL.hex()}")
    token = tokens.issue(ring, GAME, "s1")
    assert tokens.verify(ring, token, GAME) == "s1"
    with pytest.raises(ServiceError) as err:
        tokens.verify(ring, token.replace(".fixed-1.", ".fixed-2."), GAME)
    assert err.value.reason == "CREDENTIAL_INVALID"


@pytest.mark.parametrize("role", ["s01", "x5", "admin", "5", "s"])
def test_an_unknown_role_is_invalid_whatever_the_key_id(role: str) -> None:
    """docs/security.md: a token that is not of the form ``ct1.<host|sN>.<key_id>.<mac>`` is
    CREDENTIAL_INVALID, never CREDENTIAL_KEY_RETIRED, even when its key id is one no ring
    holds: the refusal does not turn on (or echo) text of a malformed token."""
    mac = "A" * 22
    for key_id in ("fixed-1", "gone-1"):
        with pytest.raises(ServiceError) as err:
            tokens.verify(RING, f"ct1.{role}.{key_id}.{mac}", GAME)
        assert err.value.reason == "CREDENTIAL_INVALID", (role, key_id, err.value.reason)
        assert not err.value.metadata and not err.value.params
    # the same shape with a known role and a retired key is the retired-key refusal
    with pytest.raises(ServiceError) as err:
        tokens.verify(RING, f"ct1.s1.gone-1.{mac}", GAME)
    assert err.value.reason == "CREDENTIAL_KEY_RETIRED"


def test_export_policy_off_refuses_even_the_host() -> None:
    """docs/security.md, *ExportPosition and seeds*: CANASTA_EXPORT_POLICY=off refuses
    ExportPosition to every role, the host included, on dealt and imported games alike;
    ``any`` lets the host export the same snapshots."""
    off = Core(Sealer(RING), export_policy=ExportPolicy.OFF)
    dealt = _deal(off)
    imported = off.handle("ImportPosition", api.ImportPositionRequest(
        position=export_position(new_game("classic", 2, seed=5))), _call())
    for game in (dealt, imported):
        with pytest.raises(ServiceError) as err:
            off.handle("ExportPosition", api.ExportPositionRequest(snapshot=game.snapshot),
                       _call(game.host_token))
        assert (err.value.code.name, err.value.reason) == ("PERMISSION_DENIED",
                                                           "EXPORT_DISABLED")
        assert err.value.metadata == {"policy": "off"}
    any_policy = Core(Sealer(RING), export_policy=ExportPolicy.ANY)
    exported = any_policy.handle("ExportPosition", api.ExportPositionRequest(
        snapshot=dealt.snapshot), _call(dealt.host_token))
    assert exported.position.startswith("canasta-position")


def test_the_record_of_a_stacked_deal_starts_from_its_position() -> None:
    """docs/records.md: an empty record starts at the snapshot, by its deal only when the
    seed dealt it. A deal from the caller's deck (``stacked``) is not the seed's deal: its
    record starts from the position, replays to the snapshot, and a seat's record shows
    the seat the hand it really holds."""
    core = Core(Sealer(RING))
    deck = [CODES[c] for c in shuffled_deck(new_game("classic", 2, seed=5).rules,
                                            random.Random(99))]
    stacked = _deal(core, deck=deck)
    host = core.handle("ExportRecord", api.ExportRecordRequest(snapshot=stacked.snapshot),
                       _call(stacked.host_token)).record
    lines = host.splitlines()
    assert "start: position" in lines and not any(ln.startswith("seed:") for ln in lines)
    # the host's record replays to the snapshot (else BAD_NOTATION)
    again = core.handle("ExportRecord", api.ExportRecordRequest(
        snapshot=stacked.snapshot, record=host), _call(stacked.host_token)).record
    assert again == host
    views = core.handle("GetView", api.GetViewRequest(snapshot=stacked.snapshot),
                        _call(stacked.host_token)).views
    for seat, token in enumerate(stacked.seat_tokens):
        mine = core.handle("ExportRecord", api.ExportRecordRequest(snapshot=stacked.snapshot),
                           _call(token)).record
        dealt = [ln for ln in mine.splitlines() if ln.startswith("{dealt")]
        assert all(ln.startswith(f"{{dealt {seat}:") for ln in dealt)
        if dealt:  # a seat's record shows its real hand, never another deal's
            shown = dealt[0].split(":", 1)[1].strip(" }").split()
            assert sorted(shown) == sorted(views[seat].hand)
