"""Tokens: the secrets that let a person act for a seat, watch, or own a table.

Every token is 32 random bytes in URL-safe base64 (the creator's from
:func:`secrets.token_urlsafe`); the database keeps only SHA-256 hashes, compared in
constant time. A table's seat and spectator tokens are derived from its creator's token
(HMAC-SHA256 of the table id and the role), so that the creator can be shown them again
later without the server ever storing them: whoever holds the creator token could hand
out those links anyway. A seat's role carries its link's generation: when the creator
issues a new link for a seat, the generation goes up, the seat's stored hash becomes the
new token's, and the old token opens nothing any more.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

#: How long a token may be; a longer one is refused before hashing.
MAX_TOKEN_LENGTH = 200
#: The shortest creator token a client may bring along (43 characters is 32 bytes).
MIN_CREATOR_TOKEN_LENGTH = 43


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def same_hash(a: str, b: str | None) -> bool:
    """Whether two hashes are equal, in time that does not depend on where they differ."""
    if b is None:
        return False
    return hmac.compare_digest(a.encode("ascii"), b.encode("ascii"))


def derived_token(creator_token: str, table_id: str, role: str) -> str:
    """The token of ``role`` (``seat:N`` or ``spectator``) at a table, from its creator's."""
    digest = hmac.new(
        creator_token.encode("utf-8"), f"{table_id}:{role}".encode(), hashlib.sha256
    ).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def seat_role(seat: int, generation: int = 0) -> str:
    """The role of seat ``seat``'s link of ``generation`` (0: the table's first link)."""
    return f"seat:{seat}" if generation == 0 else f"seat:{seat}:{generation}"


SPECTATOR_ROLE = "spectator"
