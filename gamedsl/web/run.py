"""Running a web table: bind the socket (127.0.0.1 unless told otherwise), print each human
seat's link, serve until interrupted."""

from __future__ import annotations

import socket
import sys
from typing import IO, Optional

import uvicorn

from gamedsl.web.server import create_app
from gamedsl.web.table import MAX_MESSAGE, Table


def bind(host: str = "127.0.0.1", port: int = 0) -> socket.socket:
    """A listening socket (port 0: any free port); OSError if it cannot be had."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(64)
    sock.setblocking(False)
    return sock


def base_url(sock: socket.socket) -> str:
    """The address people type: a socket listening on every address (0.0.0.0) is reached
    at this computer's address on the network."""
    host, port = sock.getsockname()[:2]
    if host in ("0.0.0.0", "::"):
        host = network_address(host == "::")
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def network_address(v6: bool = False) -> str:
    """This computer's address on its network: the one a route out would leave from (a UDP
    socket's connect sends nothing); the loopback address when there is no network."""
    family, probe, fallback = (socket.AF_INET6, "2001:db8::1", "::1") if v6 else (socket.AF_INET, "192.0.2.1", "127.0.0.1")
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            s.connect((probe, 9))
            return s.getsockname()[0]
    except OSError:
        return fallback


def server_for(table: Table) -> uvicorn.Server:
    """The uvicorn server of a table's app (websocket frames bigger than a message refused)."""
    config = uvicorn.Config(create_app(table), log_level="warning", ws="websockets-sansio",
                            ws_max_size=MAX_MESSAGE * 4, lifespan="on", access_log=False)
    return uvicorn.Server(config)


def serve(table: Table, host: str = "127.0.0.1", port: int = 8000, out: Optional[IO[str]] = None) -> None:
    """Serve the table until Ctrl-C, after printing the link of each human seat."""
    out = out if out is not None else sys.stdout
    sock = bind(host, port)
    base = base_url(sock)
    print(f"{table.game.title} at {base} (seed {table.seed}); Ctrl-C to stop", file=out)
    for label, url in table.seat_urls(base):
        print(f"  {label}: {url}", file=out)
    if not table.tokens:
        print("  (no human seat: the bots play; watch the result at the end)", file=out)
    out.flush()
    server_for(table).run(sockets=[sock])
