"""Sealed snapshots: the whole game state, encrypted and authenticated, held by the caller.

Format version 2 (all integers big-endian)::

    magic "CS" | version u8 = 2 | flags u8 | key_id_len u8 | key_id
    | variant_len u8 | variant | game_id 16 bytes | seq u64
    | nonce 12 bytes | AES-256-GCM(plaintext) with its 16-byte tag

Flags: bit 0 (:data:`FLAG_IMPORTED`) the game started from ImportPosition; bit 1
(:data:`FLAG_STACKED`) a deal of the game came from a caller's ``deck`` (Deal or
NextDeal). Both pass from each snapshot of a game to the next, so neither can be
cleared; any other bit set is ``SNAPSHOT_INVALID``.

The clear header (everything before the nonce) is the GCM associated data, so
it cannot be changed without the tag failing; a host can read ``game_id``,
``seq`` and the flags without any key. The plaintext is ``encode_state(state)`` (see
engine/codec.py: one character per card) padded with zero bytes to a multiple
of 32, after as many zero bytes as the seed lacks digits of :data:`SEED_DIGITS` (the
encoding writes the secret seed in decimal: its length would tell a seat whether the
seed has 19 digits or 20, or 1). It is not compressed: compression would make the
length depend on which cards lie where, and sealing is on every state-changing call. Format 1, the
same with ``zlib`` applied before padding, still opens (N-1, docs/api.md).
Checks run cheapest first: size, magic, version, key id, tag, (format 1:
decompression bound), the encoding. A well-formed key id that the ring does not
hold is ``SNAPSHOT_KEY_RETIRED``: decided from the clear header alone, before
anything is decrypted, so it tells nothing a reader of the header did not know
(and an id the ring never held looks the same as a retired one).
"""

from __future__ import annotations

import os
import struct
import threading
import zlib
from collections import OrderedDict
from dataclasses import dataclass

import grpc
from cryptography.exceptions import InvalidTag

from engine.codec import decode_state, encode_state
from engine.errors import EngineError
from engine.mayi.state import AnyState
from service.api.errors import ServiceError, ServiceReason, snapshot_invalid, snapshot_key_retired
from service.ops import metrics
from service.sealing.keys import KEY_ID, KeyRing

MAGIC = b"CS"
FORMAT_VERSION = 2
ZLIB_VERSION = 1  # the previous format: zlib inside the seal
SUPPORTED_VERSIONS = (ZLIB_VERSION, FORMAT_VERSION)
FLAG_IMPORTED = 0x01
FLAG_STACKED = 0x02
FLAGS = FLAG_IMPORTED | FLAG_STACKED
NONCE_BYTES = 12
TAG_BYTES = 16
PAD = 32
SEED_DIGITS = len(str(2**64 - 1))  # a 64-bit seed's most digits: every seed takes this room
MAX_PLAINTEXT = 64 * 1024
AAD_PREFIX = b"canasta.v1.snapshot\x00"
_SEQ = struct.Struct(">Q")


@dataclass(frozen=True, slots=True)
class Header:
    """The clear, authenticated part of a snapshot."""

    format_version: int
    key_id: str
    variant: str
    game_id: bytes
    seq: int
    imported: bool
    stacked: bool = False  # a deal of the game came from a caller's deck

    @property
    def game_uuid(self) -> str:
        """The game id as ``str(uuid.UUID(bytes=...))`` writes it, at a tenth of its cost
        (every answer's header carries it: 4.8 µs of an ApplyMove's 113, measured)."""
        h = self.game_id.hex()
        return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"

    def encode(self) -> bytes:
        kid = self.key_id.encode("ascii")
        var = self.variant.encode("ascii")
        flags = (FLAG_IMPORTED if self.imported else 0) | (FLAG_STACKED if self.stacked else 0)
        return b"".join((
            MAGIC, bytes((self.format_version, flags, len(kid))),
            kid, bytes((len(var),)), var, self.game_id, _SEQ.pack(self.seq)))


def new_game_id() -> bytes:
    return os.urandom(16)


def read_header(blob: bytes) -> tuple[Header, int]:
    """The clear header and where the nonce starts, without opening anything.

    :raises ServiceError: ``SNAPSHOT_INVALID`` (malformed) or
        ``SNAPSHOT_VERSION_UNSUPPORTED`` (a format this server does not know).
    """
    if len(blob) < 4 or blob[:2] != MAGIC:
        raise snapshot_invalid()
    version = blob[2]
    if version not in SUPPORTED_VERSIONS:
        raise ServiceError(
            grpc.StatusCode.INVALID_ARGUMENT, ServiceReason.SNAPSHOT_VERSION_UNSUPPORTED,
            metadata={"format_version": str(version),
                      "supported": ",".join(map(str, SUPPORTED_VERSIONS))},
            params={"version": version, "supported": ",".join(map(str, SUPPORTED_VERSIONS))})
    try:
        flags = blob[3]
        i = 4
        kid_len = blob[i]
        key_id = blob[i + 1:i + 1 + kid_len].decode("ascii")
        i += 1 + kid_len
        var_len = blob[i]
        variant = blob[i + 1:i + 1 + var_len].decode("ascii")
        i += 1 + var_len
        game_id = blob[i:i + 16]
        (seq,) = _SEQ.unpack_from(blob, i + 16)
        i += 24
    except (IndexError, UnicodeDecodeError, struct.error):
        raise snapshot_invalid() from None
    if (len(key_id) != kid_len or len(variant) != var_len or len(game_id) != 16
            or flags & ~FLAGS or len(blob) < i + NONCE_BYTES + TAG_BYTES):
        raise snapshot_invalid()
    return Header(version, key_id, variant, game_id, seq, bool(flags & FLAG_IMPORTED),
                  bool(flags & FLAG_STACKED)), i


def _inflate(packed: bytes) -> bytes:
    """The plaintext of a format-1 snapshot, inflated no further than the bound."""
    inflater = zlib.decompressobj()
    try:
        text = inflater.decompress(packed, MAX_PLAINTEXT)
    except zlib.error:
        raise snapshot_invalid() from None
    if not inflater.eof or inflater.unconsumed_tail or inflater.unused_data.strip(b"\0"):
        raise snapshot_invalid()
    return text


_CACHE_HITS = metrics.STATE_CACHE.labels("hit")
_CACHE_MISSES = metrics.STATE_CACHE.labels("miss")


class Sealer:
    """Seals states into snapshots and opens them, with a small cache of opened states.

    The cache maps exact snapshot bytes to the state they hold: a hit is a
    snapshot this process sealed or already verified, so it is authentic by
    construction. A host's usual sequence (LegalMoves, then ApplyMove on the
    same snapshot, then on the one just returned) mostly hits it.
    """

    def __init__(self, keys: KeyRing, max_bytes: int = 16384, cache_size: int = 1024) -> None:
        self.keys = keys
        self.max_bytes = max_bytes
        self.cache_size = cache_size
        self._cache: OrderedDict[bytes, tuple[Header, AnyState]] = OrderedDict()
        self._lock = threading.Lock()

    def seal(self, state: AnyState, game_id: bytes, seq: int, imported: bool,
             stacked: bool = False) -> tuple[bytes, Header]:
        key = self.keys.sealing
        header = Header(FORMAT_VERSION, key.key_id, state.rules.variant, game_id, seq, imported,
                        stacked)
        clear = header.encode()
        packed = encode_state(state)
        packed += bytes(max(0, SEED_DIGITS - len(str(state.seed))))
        packed += bytes(-len(packed) % PAD)
        nonce = os.urandom(NONCE_BYTES)
        blob = clear + nonce + key.aead.encrypt(nonce, packed, AAD_PREFIX + clear)
        self._remember(blob, header, state)
        return blob, header

    def open(self, blob: bytes) -> tuple[Header, AnyState]:
        """The header and state of a snapshot.

        :raises ServiceError: ``SNAPSHOT_INVALID`` for anything foreign, tampered,
            truncated or empty; ``SNAPSHOT_VERSION_UNSUPPORTED`` for an unknown format;
            ``SNAPSHOT_KEY_RETIRED`` for a well-formed header naming a key id the ring
            does not hold (read from the clear header, before any decryption).
        """
        if not blob or len(blob) > self.max_bytes:
            raise snapshot_invalid()
        if self.cache_size:
            with self._lock:
                hit = self._cache.get(blob)
                if hit is not None:
                    self._cache.move_to_end(blob)
            if hit is not None:
                _CACHE_HITS.inc()
                return hit
        header, at = read_header(blob)
        key = self.keys.get(header.key_id)
        if key is None:  # no key to try: nothing is decrypted, so this is no oracle
            raise (snapshot_key_retired(header.key_id) if KEY_ID.fullmatch(header.key_id)
                   else snapshot_invalid())
        nonce = blob[at:at + NONCE_BYTES]
        try:
            packed = key.aead.decrypt(nonce, blob[at + NONCE_BYTES:], AAD_PREFIX + blob[:at])
        except InvalidTag:
            raise snapshot_invalid() from None
        state = self._decode(packed, header)
        self._remember(blob, header, state)
        if self.cache_size:
            _CACHE_MISSES.inc()
        return header, state

    @staticmethod
    def _decode(packed: bytes, header: Header) -> AnyState:
        text = _inflate(packed) if header.format_version == ZLIB_VERSION else packed.rstrip(b"\0")
        try:
            state: AnyState = decode_state(text)
        except (EngineError, UnicodeDecodeError):
            # Authentic but unreadable: written by an engine whose notation differs.
            raise ServiceError(
                grpc.StatusCode.INVALID_ARGUMENT, ServiceReason.SNAPSHOT_VERSION_UNSUPPORTED,
                metadata={"format_version": str(header.format_version),
                          "supported": ",".join(map(str, SUPPORTED_VERSIONS))},
                params={"version": header.format_version,
                        "supported": ",".join(map(str, SUPPORTED_VERSIONS))}) from None
        if state.rules.variant != header.variant:
            raise snapshot_invalid()
        return state

    def _remember(self, blob: bytes, header: Header, state: AnyState) -> None:
        if not self.cache_size:
            return
        with self._lock:
            self._cache[blob] = (header, state)
            self._cache.move_to_end(blob)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
