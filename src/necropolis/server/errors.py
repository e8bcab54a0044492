"""How the table server's errors leave: one JSON shape, a plain sentence, never a traceback.

Every error answers ``{"error": {"code", "message"}}``. A route raises :class:`ApiError`
for what the client should hear; :func:`add_handlers` turns it, FastAPI's own validation
and HTTP errors, a failing database (503 ``unavailable``, the service told so that health
reports it) and anything unforeseen (500 ``internal``, logged) into that shape.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from starlette.exceptions import HTTPException as StarletteHTTPException

from necropolis.server import db
from necropolis.server.models import ErrorBody
from necropolis.server.service import UNAVAILABLE, Tables

log = logging.getLogger("necropolis.server")


class ApiError(Exception):
    """An error the client should see: a status, a code and a plain sentence."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def error_response(status: int, code: str, message: str) -> JSONResponse:
    body = ErrorBody.model_validate({"error": {"code": code, "message": message}})
    return JSONResponse(body.model_dump(), status_code=status)


#: The error answers a route may give, for its OpenAPI description (``responses=``).
ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody} for status in (400, 401, 403, 404, 409, 413, 422, 429, 503)
}


def add_handlers(app: FastAPI) -> None:
    """Register the handlers that give every error its JSON shape."""

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc.status, exc.code, exc.message)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return error_response(422, "invalid", _validation_sentence(exc.errors()))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        message = {404: "There is nothing here.", 405: "That method is not allowed here."}
        return error_response(
            exc.status_code, code, message.get(exc.status_code, "The request failed.")
        )

    @app.exception_handler(db.StorageUnavailableError)
    @app.exception_handler(PoolTimeoutError)
    @app.exception_handler(DBAPIError)
    async def storage_failed(request: Request, exc: Exception) -> JSONResponse:
        if not db.storage_failed(exc):
            return await crashed(request, exc)
        tables: Tables = request.app.state.tables
        tables.failed(None, exc)
        return error_response(503, "unavailable", UNAVAILABLE)

    @app.exception_handler(Exception)
    async def crashed(_request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error", exc_info=exc)
        return error_response(500, "internal", "Something went wrong on the server.")


def _validation_sentence(errors: Any) -> str:
    try:
        first = errors[0]
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        return f"Invalid request: {where or 'body'}: {first.get('msg', 'not valid')}."
    except (IndexError, KeyError, TypeError, AttributeError):
        return "The request is not valid."
