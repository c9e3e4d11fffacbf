"""Where the commands write: texts from a rule file are shown, never obeyed.

A rule file's texts (a `say`, a component's name, a table's cell, a name echoed in a
diagnostic) reach the terminal through every command. `VisibleStream` wraps the standard
streams while a command runs, so that whatever is printed has its control characters
written out (gamedsl.text.visible); `Console` is rich's console writing to the stream under
such a wrapper, its own colours kept and every text it is given made visible.
"""

from __future__ import annotations

import sys

from rich.console import Console as _RichConsole
from rich.segment import Segment

from gamedsl.text import visible


class VisibleStream:
    """A text stream that writes control characters out (`\\x1b`), keeping line breaks."""

    def __init__(self, raw):
        self.raw = raw

    def write(self, text: str) -> int:
        self.raw.write(visible(text))
        return len(text)

    def __getattr__(self, name):  # flush, isatty, encoding, fileno...
        return getattr(self.raw, name)


class Console(_RichConsole):
    """rich's Console whose texts are made visible; its own styles and controls stay codes."""

    def __init__(self, *args, file=None, **kwargs):
        if file is None:  # (rich's default, the standard stream, read now: it may be wrapped)
            file = sys.stderr if kwargs.get("stderr") else sys.stdout
        super().__init__(*args, file=file.raw if isinstance(file, VisibleStream) else file, **kwargs)

    def _render_buffer(self, buffer):
        return super()._render_buffer(
            segment if segment.control else Segment(visible(segment.text), segment.style, None)
            for segment in buffer)
