"""Play in the browser: `gamedsl serve`, a local web table for playtests (see docs/web.md).

`Table` (table.py) is one game with its seats' tokens and what each seat is sent;
`create_app` (server.py) is the Starlette app around it; `serve` runs it with uvicorn."""

from gamedsl.web.table import Refused, Table
from gamedsl.web.server import create_app
from gamedsl.web.run import serve

__all__ = ["Table", "Refused", "create_app", "serve"]
