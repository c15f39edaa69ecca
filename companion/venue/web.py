"""The venue's web page (read-only) and its operator page: Starlette served by uvicorn.

Routes (all GET but one; nothing on the public page can change anything):

* ``/``                   the page: every table's live game, tonight's winners, the
                          leaderboard per game, the fastest hands at the slap pad;
* ``/events``             server-sent events: an ``event: board`` with the new page part
                          whenever the venue's copy changes (bursts coalesced to one every
                          ``min_interval`` s), a comment every 15 s to keep proxies open;
* ``/game/{box}/{game}``  a finished game's score sheet (``companion.export.sheet``);
* ``/api/board``          the same data as JSON (for scripts and the bench);
* ``/operator/{token}``   the page with an "Admit" button by each waiting box, and
  ``POST /operator/{token}/admit`` (form fields ``box`` and ``fingerprint``) behind it.
  ``token`` is the venue copy's own random operator token (``VenueStore.operator_token``,
  printed by ``companion venue`` at start): whoever has the address can admit boxes, so
  it is for the operator's own screen.

``Hub`` connects the MQTT thread to the event streams: ``poke()`` from any thread wakes
every open stream on the server's event loop.

    hub = Hub()
    server = WebServer(create_app(store, hub), "0.0.0.0", 8080); server.start()
    Subscriber(store, settings, on_change=hub.poke).start()
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import socket
import threading
from collections.abc import Callable
from urllib.parse import parse_qs, quote

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    StreamingResponse,
)
from starlette.routing import Route

from companion.errors import CompanionError
from companion.export.sheet import render_result
from companion.venue import page
from companion.venue.accounts import BrokerAccounts
from companion.venue.receiver import VenueStore

MAX_FORM = 4096  # the admit form is two short fields

KEEPALIVE_S = 15.0


class Hub:
    """Wakes the event streams when the venue's copy changed; ``poke`` is thread-safe."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.event: asyncio.Event | None = None
        self.closing = False

    def current(self) -> asyncio.Event:
        """The event the next change sets (called on the server's loop)."""
        if self.event is None:
            self.loop, self.event = asyncio.get_running_loop(), asyncio.Event()
        return self.event

    def _wake(self) -> None:
        event, self.event = self.event, asyncio.Event()
        if event is not None:
            event.set()

    def poke(self) -> None:
        loop = self.loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(self._wake)

    def close(self) -> None:
        self.closing = True
        self.poke()


def create_app(store: VenueStore, hub: Hub, *, status: Callable[[], str] = lambda: "",
               min_interval: float = 0.1, accounts: BrokerAccounts | None = None) -> Starlette:
    """The page's routes. ``accounts``: admitting a box also makes its broker account,
    whose password the answer shows once (``companion.venue.accounts``)."""
    cache: dict[str, object] = {"key": None, "text": ""}

    def update_text() -> str:
        """The event for the current version, made once however many pages follow it."""
        key = (store.version, status())
        if cache["key"] != key:
            data = store.board()
            cache["key"], cache["text"] = key, json.dumps(
                {"version": data["version"], "marks": data["marks"],
                 "html": page.board_html(data, key[1])})
        return str(cache["text"])

    async def home(_request: Request) -> HTMLResponse:
        return HTMLResponse(page.page(store.board(), status()))

    async def board(_request: Request) -> JSONResponse:
        return JSONResponse(store.board() | {"status": status(), "counts": store.counters()})

    async def game(request: Request) -> HTMLResponse:
        box, number = request.path_params["box"], request.path_params["game"]
        result = store.result(box, number)
        if result is None:
            return HTMLResponse(page.not_found(f"No finished game {number} from box {box} "
                                               "has reached this venue."), status_code=404)
        try:
            return HTMLResponse(render_result(result))
        except CompanionError as exc:
            return HTMLResponse(page.not_found(str(exc)), status_code=500)

    def operator(request: Request) -> bool:
        return hmac.compare_digest(request.path_params["token"].encode(),
                                   store.operator_token.encode())

    async def operator_page(request: Request) -> HTMLResponse:
        if not operator(request):
            return HTMLResponse(page.not_found("No such page."), status_code=404)
        told = request.query_params.get("told", "")[:300]
        return HTMLResponse(page.page(store.board(), status(), operator=True, told=told))

    async def admit(request: Request) -> HTMLResponse | RedirectResponse:
        if not operator(request):
            return HTMLResponse(page.not_found("No such page."), status_code=404)
        body = await request.body()
        if len(body) > MAX_FORM:
            return HTMLResponse(page.not_found("That form is too large."), status_code=413)
        form = parse_qs(body.decode("utf-8", "replace"))
        box = form.get("box", [""])[0]
        fingerprint = form.get("fingerprint", [""])[0]
        level = store.waiting_level(box, fingerprint)
        why = store.admit(box, fingerprint)
        hub.poke()
        told = why or f"Box {box} admitted (fingerprint {fingerprint})."
        if why is None and accounts is not None and level is not None:
            try:  # shown once, in this answer only: never in an address or a log
                password = accounts.make(level)
            except CompanionError as exc:
                told += f" Its broker account was not made: {exc}"
            else:
                told += (f" Its broker account {level} has the password {password} : "
                         "write it into the box's venue.password_file (shown only now).")
            return HTMLResponse(page.page(store.board(), status(), operator=True, told=told))
        return RedirectResponse(f"/operator/{store.operator_token}?told={quote(told)}",
                                status_code=303)

    async def events(request: Request) -> StreamingResponse:
        async def stream():
            sent = -1
            while not hub.closing:
                wake = hub.current()
                if store.version != sent:
                    sent = store.version
                    yield f"event: board\ndata: {update_text()}\n\n"
                    await asyncio.sleep(min_interval)  # coalesce a burst into one update
                    continue
                try:
                    await asyncio.wait_for(wake.wait(), KEEPALIVE_S)
                except TimeoutError:
                    if await request.is_disconnected():
                        return
                    yield ": still here\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache"})

    return Starlette(routes=[
        Route("/", home), Route("/api/board", board), Route("/events", events),
        Route("/game/{box:str}/{game:int}", game),
        Route("/operator/{token:str}", operator_page),
        Route("/operator/{token:str}/admit", admit, methods=["POST"]),
    ])


class WebServer:
    """uvicorn in a thread of its own, on a socket bound here (port 0: a free one)."""

    def __init__(self, app: Starlette, host: str = "127.0.0.1", port: int = 0,
                 hub: Hub | None = None) -> None:
        self.hub = hub
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.sock = socket.socket(family, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self.sock.bind((host, port))
        except OSError as exc:
            self.sock.close()
            raise CompanionError(f"cannot serve the venue page on {host}:{port}: "
                                 f"{exc.strerror or exc}") from exc
        self.host, self.port = host, self.sock.getsockname()[1]
        config = uvicorn.Config(app, log_level="warning", lifespan="off",
                                timeout_graceful_shutdown=2, access_log=False)
        self.server = uvicorn.Server(config)
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}"

    def start(self) -> None:
        self._thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                        name="venue-web", daemon=True)
        self._thread.start()

    def wait_started(self, timeout: float = 10.0) -> bool:
        """Block until uvicorn serves (its own ``started`` flag), at most ``timeout`` s."""
        done = threading.Event()
        for _ in range(int(timeout / 0.05)):
            if self.server.started:
                return True
            done.wait(0.05)
        return self.server.started

    def stop(self) -> None:
        if self.hub is not None:
            self.hub.close()
        self.server.should_exit = True
        if self._thread is not None:
            self._thread.join(10)
            self._thread = None
        self.sock.close()
