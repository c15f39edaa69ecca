"""Who signed a venue message: an Ed25519 key per box and one for the venue. Pure.

Each side has its own key pair (``cryptography``'s Ed25519, nothing written here): a box
keeps its private key in its game log's settings, the venue in its copy. Nothing secret
is shared or agreed; each message is signed by the side that sends it and checked with
the sender's *public* key, which the other side has pinned because a person said so:

* the venue admits a box on its operator page, after comparing the fingerprint the page
  shows with the one on the box's screen (``receiver``);
* a box trusts the venue whose fingerprint is written in its config
  (``venue.fingerprint``) or was confirmed once on its screen (``publisher``).

What is signed is the topic and the message without its ``sig`` (JSON with sorted keys),
so a signature made for one table's topic or one ack does not fit another.

    me = Identity.generate()            # or Identity.from_seed(stored_hex)
    message = me.sign(topic, payload)   # payload + {"sig": ...}
    verify(me.public, topic, message) -> True
    fingerprint(me.public) -> "3f2a-91bc-07de-55a1-c0fe"
"""

from __future__ import annotations

import hashlib
import re

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)

from companion.venue.topics import PayloadError, encode

_PUBLIC = re.compile(r"^[0-9a-f]{64}$")
_SIG = re.compile(r"^[0-9a-f]{128}$")
_DOMAIN = b"companion venue message v2\n"
FINGERPRINT_HEX = 20  # 80 bits, in five groups of four: read aloud, compared by eye


def fingerprint(public: str) -> str:
    """A public key as a person compares it: 20 hex digits of its SHA-256 in groups."""
    digest = hashlib.sha256(bytes.fromhex(public)).hexdigest()[:FINGERPRINT_HEX]
    return "-".join(digest[i:i + 4] for i in range(0, FINGERPRINT_HEX, 4))


def normal_fingerprint(text: str) -> str | None:
    """A fingerprint as typed (any case, with or without dashes or spaces), in the form
    ``fingerprint`` writes; None when it is not one."""
    digits = re.sub(r"[\s:-]", "", text).lower()
    if not re.fullmatch(rf"[0-9a-f]{{{FINGERPRINT_HEX}}}", digits):
        return None
    return "-".join(digits[i:i + 4] for i in range(0, FINGERPRINT_HEX, 4))


def check_public(text: object) -> str:
    """A peer's public key as carried in a message (64 hex digits); PayloadError else."""
    if not isinstance(text, str) or not _PUBLIC.match(text):
        raise PayloadError("'key' is not an Ed25519 public key")
    return text


def _signed_bytes(topic: str, payload: dict) -> bytes:
    body = {k: v for k, v in payload.items() if k != "sig"}
    return _DOMAIN + topic.encode("utf-8") + b"\n" + encode(body)


def verify(public: str, topic: str, payload: dict) -> bool:
    """Whether ``payload`` carries a signature by ``public`` made for ``topic``."""
    sig = payload.get("sig")
    if not isinstance(sig, str) or not _SIG.match(sig) or not _PUBLIC.match(public):
        return False
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public)).verify(
            bytes.fromhex(sig), _signed_bytes(topic, payload))
    except (InvalidSignature, ValueError):
        return False
    return True


class Identity:
    """One side's key pair: ``public`` (hex) goes in messages, the seed stays home."""

    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._private = private
        self.public = private.public_key().public_bytes(Encoding.Raw,
                                                        PublicFormat.Raw).hex()
        self.fingerprint = fingerprint(self.public)

    @classmethod
    def generate(cls) -> Identity:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_seed(cls, seed: str) -> Identity:
        """The identity kept as ``seed`` (64 hex digits); ValueError when it is not one."""
        if not isinstance(seed, str) or not _PUBLIC.match(seed):
            raise ValueError("not a stored venue key")
        return cls(Ed25519PrivateKey.from_private_bytes(bytes.fromhex(seed)))

    @property
    def seed(self) -> str:
        """The private key as stored (hex): keep it where only its owner reads."""
        return self._private.private_bytes(Encoding.Raw, PrivateFormat.Raw,
                                           NoEncryption()).hex()

    def sign(self, topic: str, payload: dict) -> dict:
        """``payload`` with its ``sig`` for ``topic``."""
        sig = self._private.sign(_signed_bytes(topic, payload)).hex()
        return {**payload, "sig": sig}
