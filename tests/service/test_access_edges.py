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
from engine.events import EventKind, deal_events
from engine.notation import export_position
from service.api import access, convert
from service.api.core import Call, Core
from service.api.errors import ServiceError
from service.api.pb import api
from service.api.pb import game as pb_game
from service.ops.config import ExportPolicy
from service.sealing import tokens
from service.sealing.keys import KeyRing
from service.sealing.snapshot import FORMAT_VERSION, Header, Sealer

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


@pytest.mark.parametrize(("role", "reason"), [
    ("s0", "CREDENTIAL_KEY_RETIRED"), ("s10", "CREDENTIAL_KEY_RETIRED"),
    ("s99", "CREDENTIAL_KEY_RETIRED"), ("s100", "CREDENTIAL_INVALID")])
def test_a_seat_role_is_s_and_one_or_two_digits(role: str, reason: str) -> None:
    """docs/security.md ``s<N>``, as tests/hardening/credentials.py reads it: a seat role of
    one or two digits has the form of a token (its retired key is named); three digits do
    not, and the refusal echoes nothing."""
    with pytest.raises(ServiceError) as err:
        tokens.verify(RING, f"ct1.{role}.gone-1.{'A' * 22}", GAME)
    assert err.value.reason == reason, role


def test_a_retired_key_is_named_in_the_refusal() -> None:
    """docs/api.md: CREDENTIAL_KEY_RETIRED names the key in its metadata (``key_id``) and
    its message, in every language, so an operator can tell which key left the ring."""
    with pytest.raises(ServiceError) as err:
        tokens.verify(RING, f"ct1.s1.gone-1.{'A' * 22}", GAME)
    assert err.value.metadata == {"key_id": "gone-1"}
    assert all("gone-1" in err.value.message(lang) for lang in ("en", "ru"))


@pytest.mark.parametrize(("version", "reason"), [
    ("ct0", "CREDENTIAL_VERSION_UNSUPPORTED"), ("ct9999", "CREDENTIAL_VERSION_UNSUPPORTED"),
    ("ct10000", "CREDENTIAL_INVALID"), ("ct", "CREDENTIAL_INVALID")])
def test_a_credential_version_is_echoed_only_as_ct_and_one_to_four_digits(
        version: str, reason: str) -> None:
    """docs/api.md: a credential format this server does not know (``ct`` and one to four
    digits) is CREDENTIAL_VERSION_UNSUPPORTED, the version and ``ct1`` in its metadata and
    message in every language; a longer one is the caller's text, CREDENTIAL_INVALID, and
    comes back nowhere."""
    with pytest.raises(ServiceError) as err:
        tokens.verify(RING, f"{version}.host.fixed-1.{'A' * 22}", GAME)
    assert err.value.reason == reason, version
    if reason == "CREDENTIAL_INVALID":
        assert not err.value.metadata and not err.value.params
        return
    assert err.value.metadata == {"version": version, "supported": "ct1"}
    for lang in ("en", "ru"):
        assert version in err.value.message(lang) and "ct1" in err.value.message(lang), lang


def test_a_token_is_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/security.md: a token's MAC is checked with a constant-time comparison on every
    call (``hmac.compare_digest``; ``==`` stops at the first wrong character, so its time
    would tell a forger how much of a guessed MAC is right)."""
    compared: list[tuple[bytes, bytes]] = []
    constant_time = hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        compared.append((a, b))
        return constant_time(a, b)

    monkeypatch.setattr(tokens.hmac, "compare_digest", spy)
    token = tokens.issue(RING, GAME, "s2")
    assert tokens.verify(RING, token, GAME) == "s2"
    with pytest.raises(ServiceError):
        tokens.verify(RING, token[:-22] + "A" * 22, GAME)
    assert compared == [(token[-22:].encode(),) * 2, (token[-22:].encode(), b"A" * 22)]


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


def test_red_threes_laid_show_their_cards_to_every_role() -> None:
    """service/api/access.py, *events*: a public event's cards (the red threes a seat lays)
    are shown to every role, the other seats and a spectator too; only a private event's
    cards are its seat's and the host's alone."""
    state = next(s for s in (new_game("classic", 4, seed=n) for n in range(100))
                 if any(e.kind is EventKind.RED_THREES_LAID for e in deal_events(s)))
    host = convert.events_pb(deal_events(state))
    laid = [e for e in host if e.type == pb_game.EVENT_TYPE_RED_THREES_LAID]
    assert laid and all(e.cards for e in laid)
    for viewer in (-1, 0, 1, 2, 3):
        assert convert.events_pb(deal_events(state), viewer) == host, viewer


def test_a_seat_may_name_its_own_seat_for_views_and_records() -> None:
    """service/api/access.py: a seat sees its own view whether it names its seat or not,
    in GetView and ExportRecord alike; naming another seat is refused."""
    core = Core(Sealer(RING))
    dealt = _deal(core)
    host = core.handle("GetView", api.GetViewRequest(snapshot=dealt.snapshot),
                       _call(dealt.host_token)).views
    for seat, token in enumerate(dealt.seat_tokens):
        (named,) = core.handle("GetView", api.GetViewRequest(snapshot=dealt.snapshot, seat=seat),
                               _call(token)).views
        assert named == host[seat]
        record = core.handle("ExportRecord", api.ExportRecordRequest(
            snapshot=dealt.snapshot, view_seat=seat), _call(token)).record
        assert record == core.handle("ExportRecord", api.ExportRecordRequest(
            snapshot=dealt.snapshot), _call(token)).record
        with pytest.raises(ServiceError) as err:
            core.handle("GetView", api.GetViewRequest(snapshot=dealt.snapshot, seat=1 - seat),
                        _call(token))
        assert err.value.reason == "SEAT_NOT_ALLOWED"


def test_a_refused_seat_is_named_in_the_refusal() -> None:
    """docs/api.md: SEAT_NOT_ALLOWED names the seat whose credential asked (metadata
    ``seat``), and its message says which in every language."""
    core = Core(Sealer(RING))
    dealt = _deal(core)
    with pytest.raises(ServiceError) as err:
        core.handle("GetView", api.GetViewRequest(snapshot=dealt.snapshot, seat=0),
                    _call(dealt.seat_tokens[1]))
    assert (err.value.reason, err.value.metadata) == ("SEAT_NOT_ALLOWED", {"seat": "1"})
    assert err.value.message("en").startswith("seat 1's credential does not allow this: ")
    assert err.value.message("ru") == "Ключ доступа места 1 этого не разрешает."


def test_spaces_after_the_bearer_scheme_are_not_part_of_the_token() -> None:
    """service/api/access.py ``bearer``: whatever whitespace separates ``Bearer`` from the
    token (a hand-written header, a proxy) is not read as part of the token."""
    core = Core(Sealer(RING))
    dealt = _deal(core)
    token = dealt.seat_tokens[1]
    (plain,) = core.handle("GetView", api.GetViewRequest(snapshot=dealt.snapshot),
                           _call(token)).views
    for value in (f"Bearer   {token}", f"bearer \t{token}", f"  Bearer  {token}  "):
        (view,) = core.handle("GetView", api.GetViewRequest(snapshot=dealt.snapshot),
                              Call(authorization=(value,))).views
        assert view == plain and view.seat == 1, value


def test_remembered_credentials_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal is open to anyone, so a caller can mint credentials of new games without end:
    the verified ones the service remembers stay within VERIFIED_CACHE, and a credential
    verified before the bound was reached still grants its role after."""
    monkeypatch.setattr(access, "VERIFIED_CACHE", 4)
    checker = access.Access(RING)
    first = Header(FORMAT_VERSION, "fixed-1", "classic", GAME, 0, False)
    token = tokens.issue(RING, GAME, "s1")
    assert checker.role((f"Bearer {token}",), first).seat == 1
    for n in range(10):
        header = Header(FORMAT_VERSION, "fixed-1", "classic", bytes([n]) * 16, 0, False)
        assert checker.role((f"Bearer {tokens.issue(RING, header.game_id, 'host')}",),
                            header).is_host
        assert len(checker._verified) <= 4
    assert checker.role((f"Bearer {token}",), first).seat == 1


def _hand_over(core: Core) -> api.ImportPositionResponse:
    resp = core.handle("ImportPosition", api.ImportPositionRequest(position="\n".join([
        "canasta-position 1", "variant: classic", "players: 2", "phase: hand_over",
        "hand0: 4H 5S KD", "hand1: 7D 8C", "stock: *", "melds0: -", "melds1: -",
        "result: -1 0", ""])), _call())
    assert isinstance(resp, api.ImportPositionResponse)
    return resp


def test_once_the_hand_is_over_every_role_sees_the_whole_score() -> None:
    """service/api/access.py, *ScoreHand*: mid-hand a seat counts its own hand alone, but
    once the hand is over the hands are shown, and every role (each seat, a spectator)
    gets the host's full score."""
    core = Core(Sealer(RING))
    over = _hand_over(core)
    request = api.ScoreHandRequest(snapshot=over.snapshot)
    full = core.handle("ScoreHand", request, _call(over.host_token))
    assert [side.breakdown.in_hand for side in full.sides] == [20, 15]
    for token in (*over.seat_tokens, None):
        assert core.handle("ScoreHand", request, _call(token)) == full, token


def test_export_policy_imported_exports_imported_games_only() -> None:
    """docs/security.md, *ExportPosition and seeds*: CANASTA_EXPORT_POLICY=imported lets the
    host export a game that started from ImportPosition (its position came from the host),
    and refuses a dealt game, whose hidden cards follow from a secret seed."""
    core = Core(Sealer(RING), export_policy=ExportPolicy.IMPORTED)
    dealt = _deal(core)
    with pytest.raises(ServiceError) as err:
        core.handle("ExportPosition", api.ExportPositionRequest(snapshot=dealt.snapshot),
                    _call(dealt.host_token))
    assert (err.value.reason, err.value.metadata) == ("EXPORT_DISABLED", {"policy": "imported"})
    imported = _hand_over(core)
    exported = core.handle("ExportPosition", api.ExportPositionRequest(
        snapshot=imported.snapshot), _call(imported.host_token))
    assert exported.position.startswith("canasta-position")


@pytest.mark.parametrize("role, mac", [
    ("s1", "é" * 22),  # a MAC of 22 characters that are not ASCII
    ("s²", "A" * 22),  # a digit str.isdigit accepts and int() does not
    ("s" + "9" * 5000, "A" * 22),  # more digits than int() converts
])
def test_a_token_of_unusual_characters_is_invalid_not_a_crash(role: str, mac: str) -> None:
    """Bad input gets a typed refusal: a token whose MAC or seat number is of characters
    the format does not allow is CREDENTIAL_INVALID, never an internal error."""
    with pytest.raises(ServiceError) as err:
        tokens.verify(RING, f"ct1.{role}.fixed-1.{mac}", GAME)
    assert err.value.reason == "CREDENTIAL_INVALID"


def test_an_expected_seq_either_side_of_the_snapshots_is_stale() -> None:
    """service/api/core.py: ``expected_seq`` guards a host against acting on the wrong
    snapshot: a seq below the snapshot's (an older turn) is refused as SNAPSHOT_STALE as
    surely as one above it, and only the snapshot's own seq is answered."""
    core = Core(Sealer(RING))
    dealt = _deal(core)
    moved = core.handle("ApplyMove", api.ApplyMoveRequest(
        snapshot=dealt.snapshot, move=pb_game.Move(text="draw")), _call(dealt.host_token))
    assert moved.header.seq == 1
    move = core.handle("LegalMoves", api.LegalMovesRequest(snapshot=moved.snapshot),
                       _call(dealt.host_token)).moves[0]
    for expected in (0, 2):
        with pytest.raises(ServiceError) as err:
            core.handle("ApplyMove", api.ApplyMoveRequest(
                snapshot=moved.snapshot, move=move, expected_seq=expected),
                _call(dealt.host_token))
        assert (err.value.code.name, err.value.reason) == ("ABORTED", "SNAPSHOT_STALE")
    again = core.handle("ApplyMove", api.ApplyMoveRequest(
        snapshot=moved.snapshot, move=move, expected_seq=1), _call(dealt.host_token))
    assert again.header.seq == 2


def test_the_imported_flag_stays_with_every_later_snapshot() -> None:
    """docs/security.md, *Forged positions*: a game from ImportPosition is ``imported`` in
    every later snapshot's header, so a host (and the export policy) can tell it from a
    game it dealt; a move does not clear the flag."""
    core = Core(Sealer(RING))
    start = core.handle("ImportPosition", api.ImportPositionRequest(
        position=export_position(new_game("classic", 2, seed=5))), _call())
    moved = core.handle("ApplyMove", api.ApplyMoveRequest(
        snapshot=start.snapshot, move=pb_game.Move(text="draw")), _call(start.host_token))
    assert start.header.imported and moved.header.imported


def test_a_record_for_a_seat_the_game_lacks_is_bad_input() -> None:
    """ExportRecord's ``view_seat`` is a seat of the game or -1 (the public record): the
    host naming the seat after the last is refused as BAD_SEAT on that field."""
    core = Core(Sealer(RING))
    dealt = _deal(core)
    with pytest.raises(ServiceError) as err:
        core.handle("ExportRecord", api.ExportRecordRequest(snapshot=dealt.snapshot,
                                                            view_seat=2),
                    _call(dealt.host_token))
    assert (err.value.reason, err.value.field) == ("BAD_SEAT", "view_seat")


def test_a_seat_naming_a_seat_the_game_lacks_is_refused_its_access_first() -> None:
    """docs/security.md, *What each role gets*: a seat token that names a seat the game lacks
    as the view or record to return is refused ``SEAT_NOT_ALLOWED`` on every call, as it is
    for a seat the game has: the role is checked before the argument's range (Google's
    AIP-211). GetView and ApplyMove answered ``BAD_SEAT`` where ExportRecord answered
    ``SEAT_NOT_ALLOWED``; the host still gets ``BAD_SEAT``."""
    core = Core(Sealer(RING))
    dealt = _deal(core)
    seat = _call(dealt.seat_tokens[0])
    for method, req in (
            ("GetView", api.GetViewRequest(snapshot=dealt.snapshot, seat=2)),
            ("ApplyMove", api.ApplyMoveRequest(snapshot=dealt.snapshot, view_seat=2,
                                               move=pb_game.Move(text="draw"))),
            ("ExportRecord", api.ExportRecordRequest(snapshot=dealt.snapshot, view_seat=2))):
        with pytest.raises(ServiceError) as err:
            core.handle(method, req, seat)
        assert (err.value.code.name, err.value.reason) == ("PERMISSION_DENIED",
                                                           "SEAT_NOT_ALLOWED"), method
        with pytest.raises(ServiceError) as err:
            core.handle(method, req, _call(dealt.host_token))
        assert err.value.reason == "BAD_SEAT", method


def test_a_view_is_refused_before_the_move_or_the_deal_is_tried() -> None:
    """docs/security.md, *What each role gets*: the role is checked before the arguments, so
    a view the caller may not have is refused before ApplyMove plays its move and NextDeal
    deals: a move the rules refuse or a mid-hand deal, with another seat's view, is
    ``SEAT_NOT_ALLOWED`` to a seat, not the rule's refusal, and with a seat the game lacks
    ``BAD_SEAT`` to the host. Both answered the rule's refusal (the view came after)."""
    core = Core(Sealer(RING))
    dealt = _deal(core)
    meld = pb_game.Move(text="meld 4S 4H 4D")  # in the draw phase, of cards not held
    for token, view, reason in ((dealt.seat_tokens[0], 1, "SEAT_NOT_ALLOWED"),
                                (dealt.host_token, 2, "BAD_SEAT")):
        for method, req in (
                ("ApplyMove", api.ApplyMoveRequest(snapshot=dealt.snapshot, view_seat=view,
                                                   move=meld)),
                ("NextDeal", api.NextDealRequest(snapshot=dealt.snapshot, view_seat=view))):
            with pytest.raises(ServiceError) as err:
                core.handle(method, req, _call(token))
            assert err.value.reason == reason, method


def test_a_spectator_naming_a_seat_the_game_lacks_needs_a_credential() -> None:
    """docs/api.md, *Views*: a call without a credential may ask for the public view only;
    a seat the game lacks is refused ``CREDENTIAL_REQUIRED`` as another seat is (the role
    first), no longer ``BAD_SEAT``."""
    core = Core(Sealer(RING))
    dealt = _deal(core)
    for seat in (1, 2, -2):
        with pytest.raises(ServiceError) as err:
            core.handle("GetView", api.GetViewRequest(snapshot=dealt.snapshot, seat=seat),
                        _call())
        assert (err.value.code.name, err.value.reason) == ("UNAUTHENTICATED",
                                                           "CREDENTIAL_REQUIRED"), seat


def test_the_record_of_an_imported_deal_starts_from_its_position() -> None:
    """docs/records.md: an empty record starts by the seed's deal only when the seed dealt
    the game. An imported position at its first ply names a seed too, but its hands are the
    importer's: its record starts from the position, and a seat's shows its real hand."""
    text = export_position(new_game("classic", 2, seed=5))
    first, second = (next(ln for ln in text.splitlines() if ln.startswith(f"hand{s}:"))
                     for s in (0, 1))
    # the seats' hands swapped: hands the seed would not deal
    position = text.replace(first, "hand0:" + second[6:]).replace(second, "hand1:" + first[6:])
    core = Core(Sealer(RING))
    start = core.handle("ImportPosition", api.ImportPositionRequest(position=position), _call())
    host = core.handle("ExportRecord", api.ExportRecordRequest(snapshot=start.snapshot),
                       _call(start.host_token)).record
    assert "start: position" in host.splitlines()
    again = core.handle("ExportRecord", api.ExportRecordRequest(
        snapshot=start.snapshot, record=host), _call(start.host_token)).record
    assert again == host  # it replays to the snapshot
