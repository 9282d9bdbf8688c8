"""The service's keys: the key ring from ``CANASTA_SEAL_KEYS`` or a dev key file.

``CANASTA_SEAL_KEYS`` is a comma-separated list of ``KEY_ID:KEY`` entries where
KEY is 32 bytes in base64 (standard or URL-safe) or 64 hex digits. The first
entry seals new snapshots and signs new credentials; every entry opens them, so
a rotation is: prepend the new key, wait out the longest game, drop the old key.
Each entry serves two purposes through two keys: the AES-GCM key of snapshots is
the entry itself, and the HMAC key of credentials (service/sealing/tokens.py) is derived
from it with HKDF under its own label, so neither use weakens the other.
"""

from __future__ import annotations

import base64
import binascii
import logging
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

log = logging.getLogger("canasta.keys")

KEY_ID = re.compile(r"^[A-Za-z0-9._-]{1,32}$")
KEY_BYTES = 32
TOKEN_KEY_LABEL = b"canasta.v1 credentials"


class BadKeyConfig(ValueError):
    """A key ring entry is malformed (the message never contains key material)."""


@dataclass(frozen=True, slots=True)
class SealKey:
    key_id: str
    aead: AESGCM  # seals and opens snapshots
    token_key: bytes  # signs and checks credentials


def token_key(material: bytes) -> bytes:
    """The credential key of a ring entry: HKDF-SHA256 of it under its own label."""
    return HKDF(algorithm=hashes.SHA256(), length=KEY_BYTES, salt=None,
                info=TOKEN_KEY_LABEL).derive(material)


class KeyRing:
    """Ordered keys: the first seals, all open."""

    def __init__(self, keys: list[tuple[str, bytes]]) -> None:
        if not keys:
            raise BadKeyConfig("the key ring is empty")
        seen: set[str] = set()
        entries: list[SealKey] = []
        for n, (key_id, material) in enumerate(keys, 1):
            check_key_id(key_id, n)
            if key_id in seen:
                raise BadKeyConfig(f"key id {key_id!r} is given twice")
            if len(material) != KEY_BYTES:
                raise BadKeyConfig(f"key {key_id!r} must be {KEY_BYTES} bytes, not {len(material)}")
            seen.add(key_id)
            entries.append(SealKey(key_id, AESGCM(material), token_key(material)))
        self.sealing = entries[0]
        self._by_id = {k.key_id: k for k in entries}

    @property
    def key_ids(self) -> tuple[str, ...]:
        return tuple(self._by_id)

    def get(self, key_id: str) -> SealKey | None:
        return self._by_id.get(key_id)

    @classmethod
    def parse(cls, text: str) -> KeyRing:
        """A key ring from the ``CANASTA_SEAL_KEYS`` syntax (a key file may also use lines and ``#``).

        :raises BadKeyConfig: an entry is malformed.
        """
        keys: list[tuple[str, bytes]] = []
        lines = (ln.partition("#")[0] for ln in text.splitlines())
        for entry in ",".join(lines).split(","):
            entry = entry.strip()
            if not entry:
                continue
            key_id, sep, encoded = entry.partition(":")
            if not sep:
                raise BadKeyConfig("each key is KEY_ID:KEY (base64 or hex)")
            key_id = key_id.strip()
            check_key_id(key_id, len(keys) + 1)  # before the key's errors, which name it
            keys.append((key_id, decode_key(key_id, encoded.strip())))
        return cls(keys)


def check_key_id(key_id: str, entry: int) -> None:
    """:raises BadKeyConfig: ``key_id`` is not a key id; the message does not repeat it,
    since an entry written ``KEY:KEY_ID`` puts the key in the id's place."""
    if not KEY_ID.match(key_id):
        raise BadKeyConfig(f"entry {entry}: a key id is 1-32 of A-Z a-z 0-9 . _ - "
                           "(each key is KEY_ID:KEY)")


def decode_key(key_id: str, encoded: str) -> bytes:
    """32 key bytes from 64 hex digits or base64.

    :raises BadKeyConfig: neither form gives 32 bytes.
    """
    if re.fullmatch(r"[0-9a-fA-F]{64}", encoded):
        return bytes.fromhex(encoded)
    try:
        padded = encoded + "=" * (-len(encoded) % 4)
        raw = base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
    except (binascii.Error, ValueError):
        raise BadKeyConfig(f"key {key_id!r} is neither base64 nor hex") from None
    if len(raw) != KEY_BYTES:
        raise BadKeyConfig(f"key {key_id!r} must be {KEY_BYTES} bytes, not {len(raw)}")
    return raw


def new_key_entry(key_id: str) -> str:
    """A fresh random ``KEY_ID:BASE64`` entry."""
    return f"{key_id}:{base64.b64encode(secrets.token_bytes(KEY_BYTES)).decode()}"


def dev_key_ring(path: Path) -> KeyRing:
    """Load the development key file, creating it (mode 0600) when missing."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write("# development seal keys, made by `make run`; never use in production\n")
            f.write(new_key_entry("dev-1") + "\n")
        log.warning("created development seal key file %s", path)
    log.warning("CANASTA_SEAL_KEYS is not set: sealing with the development key file %s; "
                "snapshots will not open on other machines", path)
    return KeyRing.parse(path.read_text())
