"""Credentials: short bearer tokens that grant one role in one game, with no storage.

A token is ``ct1.<role>.<key_id>.<mac>`` where ``role`` is ``host`` or ``s<N>``
(seat N) and ``mac`` is the first 16 bytes of
``HMAC-SHA256(token_key, label | version | key_id | game_id | role)`` in unpadded
base64url (22 characters). ``token_key`` is derived from a key of the ring
(service/sealing/keys.py), so tokens rotate with the keys; ``game_id`` comes from the
snapshot's authenticated header, so a token of one game never verifies against
another. The same game, role and key always give the same token: ``NextDeal``
answers the tokens ``Deal`` gave. Tokens are compared with
``hmac.compare_digest`` and never logged or used as a metric label.

>>> from service.sealing.keys import KeyRing, new_key_entry
>>> ring = KeyRing.parse(new_key_entry("k1"))
>>> game = bytes(16)
>>> token = issue(ring, game, SEAT_ROLE_PREFIX + "2")
>>> token.startswith("ct1.s2.k1.") and len(token) == len("ct1.s2.k1.") + 22
True
>>> verify(ring, token, game)
's2'
"""

from __future__ import annotations

import base64
import hmac

import grpc

from service.api.errors import ServiceError, ServiceReason
from service.sealing.keys import KEY_ID, KeyRing

VERSION = "ct1"
HOST_ROLE = "host"
SEAT_ROLE_PREFIX = "s"
MAC_BYTES = 16
_LABEL = b"canasta.v1.credential\x00"
_MAC_CHARS = 22  # base64url of MAC_BYTES, unpadded


def _mac(key: bytes, key_id: str, game_id: bytes, role: str) -> str:
    msg = b"\x00".join((_LABEL, VERSION.encode(), key_id.encode(), game_id, role.encode()))
    digest = hmac.digest(key, msg, "sha256")[:MAC_BYTES]
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def issue(keys: KeyRing, game_id: bytes, role: str) -> str:
    """The token of ``role`` in the game ``game_id``, signed with the ring's first key."""
    key = keys.sealing
    return f"{VERSION}.{role}.{key.key_id}.{_mac(key.token_key, key.key_id, game_id, role)}"


def seat_role(seat: int) -> str:
    return f"{SEAT_ROLE_PREFIX}{seat}"


def issue_all(keys: KeyRing, game_id: bytes, players: int) -> tuple[str, list[str]]:
    """The host token and one token per seat of a game."""
    return (issue(keys, game_id, HOST_ROLE),
            [issue(keys, game_id, seat_role(s)) for s in range(players)])


def invalid() -> ServiceError:
    """One detail-free refusal for a malformed, forged or other game's token."""
    return ServiceError(grpc.StatusCode.UNAUTHENTICATED, ServiceReason.CREDENTIAL_INVALID)


def verify(keys: KeyRing, token: str, game_id: bytes) -> str:
    """The role a token grants in the game ``game_id``.

    :raises ServiceError: ``CREDENTIAL_VERSION_UNSUPPORTED`` (a format this server does not
        know), ``CREDENTIAL_KEY_RETIRED`` (its key left the ring) or ``CREDENTIAL_INVALID``
        (anything else: malformed, forged, another game's).
    """
    version, _, rest = token.partition(".")
    if version != VERSION:
        # a version is echoed in the refusal, so it must look like one: ct and 1-4 digits
        digits = version[2:]
        if (version.startswith("ct") and 0 < len(digits) <= 4 and digits.isascii()
                and digits.isdigit() and rest):
            raise ServiceError(grpc.StatusCode.UNAUTHENTICATED,
                               ServiceReason.CREDENTIAL_VERSION_UNSUPPORTED,
                               metadata={"version": version, "supported": VERSION},
                               params={"version": version, "supported": VERSION})
        raise invalid()
    role, _, rest = rest.partition(".")
    key_id, _, mac = rest.rpartition(".")
    if len(mac) != _MAC_CHARS or not KEY_ID.fullmatch(key_id) or not _known_role(role):
        raise invalid()  # a key id no ring may hold is not echoed: it is the caller's text
    key = keys.get(key_id)
    if key is None:
        raise ServiceError(grpc.StatusCode.UNAUTHENTICATED, ServiceReason.CREDENTIAL_KEY_RETIRED,
                           metadata={"key_id": key_id}, params={"key_id": key_id})
    expected = _mac(key.token_key, key_id, game_id, role)
    if not hmac.compare_digest(expected.encode("ascii"), mac.encode("ascii", "replace")):
        raise invalid()
    return role


def _known_role(role: str) -> bool:
    if role == HOST_ROLE:
        return True
    digits = role[len(SEAT_ROLE_PREFIX):]
    return (role.startswith(SEAT_ROLE_PREFIX) and digits.isdigit() and digits.isascii()
            and len(digits) <= 2 and str(int(digits)) == digits)
