"""The table server's own ASGI middleware: :class:`BodyLimit`, which bounds HTTP bodies.

``create_app`` wraps the application in it (and in Starlette's gzip); an over-long body is
answered 413 ``too_large`` in the usual error shape before any route reads it.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from necropolis.server.errors import error_response

#: The largest HTTP body, in bytes.
MAX_BODY = 65536


class BodyLimit:
    """Refuse HTTP bodies larger than :data:`MAX_BODY`, counting the bytes as they arrive.

    A declared ``Content-Length`` over the limit is refused before anything is read; a
    body without one (``Transfer-Encoding: chunked``) is read up to the limit and
    refused as soon as it goes past it, nothing more read. A body within the limit is
    handed to the application whole.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            await _too_large(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        held: list[Message] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":
                held.append(message)  # the client went away: the application hears it
                break
            body: bytes = message.get("body", b"")
            size += len(body)
            if size > MAX_BODY:
                await _too_large(scope, receive, send)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        held.insert(0, {"type": "http.request", "body": b"".join(chunks), "more_body": False})

        async def replay() -> Message:
            return held.pop(0) if held else await receive()

        await self.app(scope, replay, send)


async def _too_large(scope: Scope, receive: Receive, send: Send) -> None:
    response = error_response(413, "too_large", "The request body is too large.")
    await response(scope, receive, send)
