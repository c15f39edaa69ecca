"""How a box proves its messages to the venue, and the venue its acks to a box. Pure.

Every message a box publishes carries its public key (``"key"``) and an HMAC-SHA256
(``"sig"``) of the topic and the rest of the message, made with a key only that box and
the venue know. That key is agreed with Diffie-Hellman (the 2048-bit group 14 of RFC 3526,
Python's own ``pow``): the box keeps a secret exponent in its game log, the venue keeps
one in its copy and announces its public value on the retained ``_venue`` topic, and each
side computes the same shared key from its secret and the other's public value. Nothing
secret ever crosses the broker, so a client that reads every topic still cannot sign.

The venue pins the first public key that proves a box id (``receiver``): from then on a
message with that id and another key, or with a signature that does not match, is
dropped and counted. The venue's acks are signed with the same per-box key, so a forged
ack cannot make a box forget a result it still has to deliver. docs/venue.md says why
this rather than broker ACLs.

    secret = new_secret(); mine = public(secret)
    key = shared_key(secret, their_public)
    message = sign(key, topic, payload); verify(key, topic, message) -> True
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from companion.venue.topics import PayloadError, encode

#: RFC 3526 group 14: a 2048-bit safe prime, generator 2
P = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22"
    "514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6"
    "F44C42E9A637ED6B0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3D"
    "C2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB"
    "9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3BE39E772C180E8603"
    "9B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510"
    "15728E5A8AACAA68FFFFFFFFFFFFFFFF", 16)
G = 2
KEY_HEX = 512  # a public value: 2048 bits as lower-case hex
_PUBLIC = re.compile(r"^[0-9a-f]{512}$")
_SIG = re.compile(r"^[0-9a-f]{64}$")


def new_secret() -> int:
    """A fresh secret exponent (256 random bits)."""
    return secrets.randbits(256) | (1 << 255)


def public(secret: int) -> str:
    return format(pow(G, secret, P), f"0{KEY_HEX}x")


def parse_public(text: object) -> int:
    """A peer's public value, checked (PayloadError for anything that is not one)."""
    if not isinstance(text, str) or not _PUBLIC.match(text):
        raise PayloadError("'key' is not a public key")
    y = int(text, 16)
    if not 1 < y < P - 1:
        raise PayloadError("'key' is not a usable public key")
    return y


def shared_key(secret: int, their_public: str) -> bytes:
    """The HMAC key both sides compute from their own secret and the other's public."""
    z = pow(parse_public(their_public), secret, P)
    return hashlib.sha256(b"companion venue proof v1\n" + z.to_bytes(256, "big")).digest()


def fingerprint(public_hex: str) -> str:
    """A public key in 16 hex digits, for the page and the logs."""
    return hashlib.sha256(public_hex.encode("ascii")).hexdigest()[:16]


def _mac(key: bytes, topic: str, payload: dict) -> str:
    body = {k: v for k, v in payload.items() if k != "sig"}
    return hmac.new(key, topic.encode("utf-8") + b"\n" + encode(body), "sha256").hexdigest()


def sign(key: bytes, topic: str, payload: dict) -> dict:
    """``payload`` with its ``sig`` for ``topic``."""
    return {**payload, "sig": _mac(key, topic, payload)}


def verify(key: bytes, topic: str, payload: dict) -> bool:
    sig = payload.get("sig")
    return isinstance(sig, str) and bool(_SIG.match(sig)) and hmac.compare_digest(
        sig, _mac(key, topic, payload))
