"""The web page's route: the built single-page application and its assets, at any address
that is not the API's.

The page's own addresses (the lobby, a table, its replay, a profile, a leaderboard) get
``index.html``; a built file gets itself (hashed assets cached for good, the rest
revalidated); an unknown address gets the page under a 404 status. Mounted last, since it
answers every path.
"""

from __future__ import annotations

import re
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, Response

from necropolis.server.errors import ApiError
from necropolis.server.routes.common import settings_of

#: Where the web front-end's build lands.
STATIC = Path(__file__).parent.parent / "static"
#: Vite names every built script and style after a hash of its content, so a name never
#: changes meaning: a browser may keep it for good (a year, as HTTP caches count it).
HASHED_ASSET_CACHE = "public, max-age=31536000, immutable"

router = APIRouter()


@router.get("/{path:path}", include_in_schema=False)
async def front_end(request: Request, path: str) -> Response:
    # FastAPI's usual addresses of its documents are not the page: they are under
    # /api/ here, and a client looking for them at the root is told so plainly.
    if path.startswith(("api/", "ws/")) or path in ("api", "ws", *API_DOCUMENTS):
        raise ApiError(404, "not_found", "There is nothing here (the API is under /api/).")
    static = settings_of(request).static_dir
    index = static / "index.html"
    if not index.is_file():
        return HTMLResponse(NOT_BUILT)
    if path:
        wanted = (static / path).resolve()
        if wanted.is_relative_to(static.resolve()) and wanted.is_file():
            hashed = path.startswith("assets/")
            headers = {"Cache-Control": HASHED_ASSET_CACHE if hashed else "no-cache"}
            return FileResponse(wanted, headers=headers)
    # The page's own addresses (the lobby, a table, its replay) get the page; any other
    # gets it too, which says there is nothing there, under a 404 status.
    known = path == "" or PAGE_ROUTE.fullmatch(path) is not None
    return FileResponse(
        index, status_code=200 if known else 404, headers={"Cache-Control": "no-cache"}
    )


#: Where FastAPI serves its documents by default; here they are under /api/.
API_DOCUMENTS = ("openapi.json", "docs", "redoc", "docs/oauth2-redirect")

#: The addresses of the single-page application besides "/": a table (and its replay),
#: a player's profile, a game's leaderboard.
PAGE_ROUTE = re.compile(r"(t|p|r)/[^/]+/?")

NOT_BUILT = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>necropolis table</title></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 3em auto">
<h1>necropolis table</h1>
<p>The server is running, but the web front-end has not been built.</p>
<p>Build it with <code>scripts/setup</code> (it runs the front-end's build into
<code>src/necropolis/server/static/</code>), then reload this page.</p>
<p>The API answers at <a href="/api/docs">/api/docs</a>.</p>
</body></html>
"""
