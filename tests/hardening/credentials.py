"""Credentials for the fuzzers: which one a fuzzed call presents, and what a bad one must get.

:func:`expected_refusal` is the test's own reading of the credential rules
(docs/security.md, *Roles and credentials*; service/api/access.py and service/sealing/tokens.py
implement them): a call presents one ``authorization`` value, ``Bearer <token>``,
with ``token`` = ``ct1.<role>.<key_id>.<22 characters>``. Anything else is
``CREDENTIAL_INVALID``, except a token of another format version
(``CREDENTIAL_VERSION_UNSUPPORTED``) and a well-formed token signed by a key the
server does not hold (``CREDENTIAL_KEY_RETIRED``).
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Sequence

from hypothesis import strategies as st

from tests.hardening.pool import Position

# gRPC: the refusals of a credential (UNAUTHENTICATED) and of what a seat may not do
CREDENTIAL_REASONS = {"CREDENTIAL_REQUIRED", "CREDENTIAL_INVALID", "CREDENTIAL_KEY_RETIRED",
                      "CREDENTIAL_VERSION_UNSUPPORTED"}
ACCESS_REASONS = CREDENTIAL_REASONS | {"SEAT_NOT_ALLOWED", "SNAPSHOT_WRONG_GAME"}
# The RPCs of a game (they open a snapshot and so read the credential); Deal, ImportPosition
# and ListVariants have no game to check one against and do not read it.
GAME_METHODS = ("LegalMoves", "ApplyMove", "ScoreHand", "GetView", "NextDeal",
                "ExportPosition", "ExportRecord", "SuggestMove")
OPEN_METHODS = ("ListVariants", "Deal", "ImportPosition")
MAC_CHARS = 22
_ROLE = re.compile(r"host|s(?:0|[1-9][0-9]?)")
_VERSION = re.compile(r"ct[0-9]{1,4}")
_KEY_ID = re.compile(r"[A-Za-z0-9._-]{1,32}")  # the names a key ring may hold
B64URL = string.ascii_letters + string.digits + "-_"
# what a gRPC metadata value may hold (printable ASCII); REST headers also take Latin-1
GRPC_ALPHABET = "".join(chr(c) for c in range(0x20, 0x7F))
REST_ALPHABET = GRPC_ALPHABET + "".join(chr(c) for c in range(0xA0, 0x100))


def bearer(token: str) -> str:
    return f"Bearer {token}"


def token_reason(token: str, key_ids: set[str]) -> str:
    """The refusal of a token that is not one the server issued for the game (or its key)."""
    version, _, rest = token.partition(".")
    if version != "ct1":
        if _VERSION.fullmatch(version) and rest:
            return "CREDENTIAL_VERSION_UNSUPPORTED"
        return "CREDENTIAL_INVALID"
    role, _, rest = rest.partition(".")
    key_id, _, mac = rest.rpartition(".")
    if len(mac) != MAC_CHARS or not _KEY_ID.fullmatch(key_id) or not _ROLE.fullmatch(role):
        return "CREDENTIAL_INVALID"
    if key_id not in key_ids:
        return "CREDENTIAL_KEY_RETIRED"
    return "CREDENTIAL_INVALID"  # forged, or another game's


def expected_refusal(values: Sequence[str], key_ids: set[str],
                     valid: set[str]) -> str | None:
    """The reason a game RPC must refuse a call presenting ``values`` as its
    ``authorization`` (``None``: no refusal for the credential; ``valid`` are the game's
    tokens). No value at all is a spectator's call: not refused for its credential."""
    if not values:
        return None
    if len(values) > 1:
        return "CREDENTIAL_INVALID"
    value = values[0].strip()
    if value[:7].lower() != "bearer " or not value[7:].strip():
        return "CREDENTIAL_INVALID"
    token = value[7:].strip()
    return None if token in valid else token_reason(token, key_ids)


# --- which credential a fuzzed call presents ----------------------------------------------

# (kind, weight) of the credentials the fuzzers send with a real snapshot: mostly the
# game's host token, so the calls reach the rules; the rest are refused or scoped.
KINDS = [("host", 12), ("mover", 3), ("seat", 2), ("none", 2), ("other_game", 1),
         ("mangled", 1), ("two", 1)]


def mangle(token: str, rng: random.Random) -> str:
    """A token with one character of its MAC changed: well-formed, but forged."""
    at = len(token) - 1 - rng.randrange(MAC_CHARS)
    new = rng.choice([c for c in B64URL if c != token[at]])
    return token[:at] + new + token[at + 1:]


def presented(kind: str, position: Position, other: Position, pick: int) -> tuple[str, ...]:
    """The ``authorization`` values a call of ``kind`` presents for ``position``'s game."""
    seats = position.seat_tokens
    if kind == "host":
        return (bearer(position.host_token),)
    if kind == "mover":
        return (bearer(seats[position.awaited] if position.awaited >= 0 else seats[0]),)
    if kind == "seat":
        return (bearer(seats[pick % len(seats)]),)
    if kind == "other_game":
        return (bearer(other.host_token if pick % 2 else other.seat_tokens[0]),)
    if kind == "mangled":
        return (bearer(mangle(position.host_token, random.Random(pick))),)
    if kind == "two":
        return (bearer(position.host_token), bearer(seats[0]))
    return ()


def credential_kinds() -> st.SearchStrategy[str]:
    kinds, weights = zip(*KINDS, strict=True)
    return st.sampled_from([k for k, w in zip(kinds, weights, strict=True) for _ in range(w)])


# --- bad credentials ---------------------------------------------------------------------


@st.composite
def bad_values(draw: st.DrawFn, position: Position, others: Sequence[Position],
               foreign: Sequence[str], alphabet: str) -> tuple[str, ...]:
    """``authorization`` values that are not a credential of ``position``'s game: random,
    bit-flipped, truncated, extended, role-swapped, other version, other game's, other
    server's tokens, and malformed headers (another scheme, no token, two values)."""
    real = draw(st.sampled_from([position.host_token, *position.seat_tokens]))
    text = st.text(alphabet=alphabet, max_size=60)
    kind = draw(st.sampled_from(["random", "random_token", "flip", "truncate", "extend",
                                 "role", "version", "other_game", "foreign", "scheme",
                                 "header", "two", "shape"]))
    token = real
    if kind == "random":
        return (draw(text),)
    if kind == "random_token":
        token = draw(text)
    elif kind == "flip":  # a bit of one character, kept within the alphabet
        at = draw(st.integers(0, len(real) - 1))
        flipped = chr(ord(real[at]) ^ (1 << draw(st.integers(0, 6))))
        token = real[:at] + (flipped if flipped in alphabet and flipped != real[at]
                             else ("A" if real[at] != "A" else "B")) + real[at + 1:]
    elif kind == "truncate":
        token = real[:draw(st.integers(0, len(real) - 1))]
    elif kind == "extend":
        token = real + draw(st.text(alphabet=alphabet, min_size=1, max_size=8))
    elif kind == "role":  # the MAC of one role under another's name
        parts = real.split(".")
        parts[1] = draw(st.sampled_from(["host", "s0", "s1", "s3", "s9", "s00", "s01",
                                         "s100", "S1", "h", "", "seat", "host2"]))
        token = ".".join(parts)
    elif kind == "version":
        parts = real.split(".")
        parts[0] = draw(st.sampled_from(["ct0", "ct2", "ct10", "ct01", "ct", "CT1", "ct1x",
                                         "c", "", "ct-1", "ct 1"]))
        token = ".".join(parts)
    elif kind == "other_game":
        other = draw(st.sampled_from(others))
        token = draw(st.sampled_from([other.host_token, *other.seat_tokens]))
    elif kind == "foreign":  # another server's (another key id, or the same id, other key)
        token = draw(st.sampled_from(foreign))
    elif kind == "shape":  # well-formed but made up: some key id, some MAC
        key_id = draw(st.sampled_from([real.split(".")[2], "k1", "x", "a.b", ""]))
        mac = draw(st.text(alphabet=B64URL, min_size=20, max_size=24))
        role = draw(st.sampled_from(["host", "s0", "s2", "s7"]))
        token = f"ct1.{role}.{key_id}.{mac}"
    elif kind == "scheme":
        scheme = draw(st.sampled_from(["Basic", "Token", "Bearer:", "Bearerx", "", "MAC",
                                       "Bearer\t"]))
        return (f"{scheme} {real}".strip() if scheme else real,)
    elif kind == "header":
        return (draw(st.sampled_from(["", "Bearer", "bearer", "BEARER", "Bearer ."])),)
    elif kind == "two":
        other = draw(st.sampled_from([position.host_token, *position.seat_tokens]))
        return (bearer(real), bearer(other))
    scheme = draw(st.sampled_from(["Bearer", "bearer", "BEARER", "BeArEr"]))
    return (f"{scheme} {token}",)
