"""The web table's server: Starlette routes and websockets around one `Table`.

    GET /                the front page (no seat: a seat's link comes from the host)
    GET /t/{token}       a seat's page (or the hot seat's); any other token: 403
    GET /static/...      the page's files, from this package's static folder only
    GET /log/{token}     the game's JSON-lines log, once the game is over (409 before)
    WS  /ws/{token}      the seat's live table: the server sends `hello` once, then
                         `state` (or `pass`) after every change, `refused` for a message it
                         does not take; the page sends {"type": "move", "version", "choice"},
                         {"type": "typed", "version", "text"} or (hot seat) {"type": "ready", "seat"}

Bots think in a worker thread (the event loop keeps serving pages); a timed choice runs
out on the server, which applies the timeout move.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from pathlib import Path
from typing import Dict, Set

from starlette.applications import Starlette
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from gamedsl.errors import GamedslError
from gamedsl.web.table import MAX_MESSAGE, Refused, Table

STATIC = Path(__file__).resolve().parent / "static"
# no inline script or style, nothing from elsewhere: the page works offline and an injected
# text cannot run
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; connect-src 'self'; "
                               "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class WebTable:
    """A Table, the sockets watching it, and the tasks that move its bots and clocks."""

    def __init__(self, table: Table):
        self.table = table
        self.lock = asyncio.Lock()
        self.sockets: Dict[WebSocket, object] = {}   # socket -> the seat its token plays (None: hot seat)
        self.tasks: Set[asyncio.Task] = set()
        self.changed = asyncio.Event()

    async def send(self, ws: WebSocket, message: dict) -> None:
        try:
            await ws.send_text(json.dumps(message, ensure_ascii=False))
        except (RuntimeError, WebSocketDisconnect, OSError):
            self.sockets.pop(ws, None)

    async def broadcast(self) -> None:
        for ws, seat in list(self.sockets.items()):
            await self.send(ws, self.table.message_for(seat))

    async def after_change(self) -> None:
        """Tell every page, then let the bots and clocks act."""
        await self.broadcast()
        self.changed.set()

    async def run(self) -> None:
        """Move the bots and run out the clocks until the game is over (a background task)."""
        table = self.table
        while True:
            self.changed.clear()
            async with self.lock:
                seat = table.bot_to_move()
                if seat is not None:
                    try:
                        move = await asyncio.to_thread(table.bots[seat].choose, table.state)
                        table.bot_move(seat, move)
                    except GamedslError as err:
                        table.stop(f"P{seat + 1} ({table.seats[seat]}) failed: {err}")
                    except Exception as err:  # a bug in a bot: say so at the table, not only in a log
                        table.stop(f"P{seat + 1} ({table.seats[seat]}) failed: internal error: "
                                   f"{type(err).__name__}: {err}")
                    await self.broadcast()
                    continue
                ran_out = any([table.run_out(s) for s in list(table.deadlines)])
            if ran_out:
                await self.broadcast()
                continue
            if table.over():
                return
            wait = None
            if table.deadlines:
                wait = max(0.0, min(table.deadlines.values()) - table.clock()) + 0.01
            try:
                await asyncio.wait_for(self.changed.wait(), wait)
            except asyncio.TimeoutError:
                pass

    def start(self) -> None:
        task = asyncio.get_running_loop().create_task(self.run())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # ------------------------------------------------------------ routes
    def seat_of(self, token):
        try:
            return True, self.table.token_seat(token)
        except KeyError:
            return False, None

    async def front(self, request):
        return HTMLResponse((STATIC / "front.html").read_text("utf-8"), headers=SECURITY_HEADERS)

    async def page(self, request):
        known, _ = self.seat_of(request.path_params["token"])
        if not known:
            return HTMLResponse((STATIC / "refused.html").read_text("utf-8"), status_code=403,
                                headers=SECURITY_HEADERS)
        return HTMLResponse((STATIC / "table.html").read_text("utf-8"), headers=SECURITY_HEADERS)

    async def log(self, request):
        known, _ = self.seat_of(request.path_params["token"])
        if not known:
            return PlainTextResponse("no such seat", status_code=403, headers=SECURITY_HEADERS)
        if not self.table.over():
            return PlainTextResponse("the log is offered when the game is over (it holds the seed, "
                                     "and so every hidden card)", status_code=409, headers=SECURITY_HEADERS)
        # a file name made of the game's name, and nothing a header could be bent with
        name = (re.sub(r"[^A-Za-z0-9_-]+", "_", Path(self.table.game_path).stem) or "game") + ".jsonl"
        headers = dict(SECURITY_HEADERS)
        headers["Content-Disposition"] = f'attachment; filename="{name}"'
        return Response(self.table.log_text(), media_type="application/x-ndjson", headers=headers)

    async def socket(self, ws: WebSocket):
        known, seat = self.seat_of(ws.path_params["token"])
        if not known:
            await ws.close(code=4403, reason="no such seat")
            return
        await ws.accept()
        self.sockets[ws] = seat
        try:
            await self.send(ws, {"type": "hello", "info": self.table.info(), "seat": seat})
            async with self.lock:
                self.table.arrive(seat)
                await self.send(ws, self.table.message_for(seat))
            self.changed.set()  # a clock may have started
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                await self.handle(ws, seat, frame)
        except WebSocketDisconnect:
            pass
        finally:
            self.sockets.pop(ws, None)

    async def handle(self, ws: WebSocket, seat, frame: dict) -> None:
        """Take one frame; a refusal is answered with `refused` and the page's table again."""
        async with self.lock:
            try:
                self.table.take(seat, parse(frame))
            except Refused as err:
                await self.send(ws, {"type": "refused", "message": str(err)})
                await self.send(ws, self.table.message_for(seat))
                return
            except GamedslError as err:  # a rule failed on this move: the game cannot go on
                self.table.stop(str(err))
            await self.after_change()


def parse(frame: dict):
    """The JSON a websocket frame holds; Refused if it is not a small text of JSON."""
    text = frame.get("text")
    if text is None:
        raise Refused("send text frames (JSON)")
    if len(text) > MAX_MESSAGE:
        raise Refused(f"a message is at most {MAX_MESSAGE} characters")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise Refused("not JSON") from None


def create_app(table: Table) -> Starlette:
    web = WebTable(table)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        web.start()
        try:
            yield
        finally:
            for task in list(web.tasks):
                task.cancel()
            table.close()

    app = Starlette(routes=[
        Route("/", web.front),
        Route("/t/{token}", web.page),
        Route("/log/{token}", web.log),
        WebSocketRoute("/ws/{token}", web.socket),
        Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"),
    ], lifespan=lifespan)
    app.state.web = web
    return app
