"""What keeps a phone going through a dropped Wi-Fi: the service worker (served from the
root so its scope is every page) and ``/alive``, the cheap answer the pages' script asks
for to know the server is back.

The worker keeps only the static shell (``SHELL`` in static/sw.js: the CSS, the script,
the icons and static/offline.html) and never a page: pages carry the access token and
players' data and are sent ``Cache-Control: no-store``, so none is ever served stale to
anyone. docs/phone-app.md lists what is cached.
"""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, Response

STATIC_DIR = Path(__file__).parent / "static"


async def service_worker(request: Request) -> Response:
    return FileResponse(STATIC_DIR / "sw.js", media_type="text/javascript",
                        headers={"Cache-Control": "no-cache"})


async def alive(request: Request) -> Response:
    """204 on the event loop, never queued behind pages or photos being read."""
    return Response(status_code=204, headers={"Cache-Control": "no-store"})
