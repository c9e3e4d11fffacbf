"""Reading a file a person or a rule file named, safely: a regular file only (a FIFO or a
device would block or never end), never past a size, and the very file that was checked.

A rule file may name files beside it (tables, word lists); the loader checks where the name
leads, then opens it. Between the two, the name may be swapped for a link leading out of the
game's folder: so what is checked is the file actually opened (its identity, and where it
really lies), not the name before opening.
"""

from __future__ import annotations

import os
import stat
from functools import lru_cache
from pathlib import Path
from typing import Optional, Tuple

_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
          | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


class FileRefused(ValueError):
    """A file that cannot be used as named: its message completes "'NAME' ..."."""


def real_path(path: str) -> str:
    """The path of the file itself, whatever path names it (relative, from another folder,
    through a link): what the caches keep a file's entries and names by."""
    try:
        return _real_path(os.getcwd(), path)
    except (OSError, ValueError):
        return path


@lru_cache(maxsize=1024)
def _real_path(folder: str, path: str) -> str:
    # (looked up once a process for each folder it is named from: a name is a name of the
    # same file for as long as a command runs)
    return os.path.realpath(os.path.join(folder, path))


def identity(path: Path) -> Tuple[int, int]:
    """The file a path leads to now (device, inode): compared with the one opened later."""
    st = os.stat(path)
    return st.st_dev, st.st_ino


def read_bytes(path: Path, most: int, same_as: Optional[Tuple[int, int]] = None,
               inside: Optional[Path] = None) -> bytes:
    """The bytes of the regular file at `path`, refused (FileRefused) when it is not one, holds
    more than `most` bytes, is not the file `same_as` names, or does not lie in the folder
    `inside` (a resolved path). Raises OSError when it cannot be opened or read."""
    fd = os.open(path, _FLAGS)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FileRefused("is not a regular file")
        if same_as is not None and (st.st_dev, st.st_ino) != tuple(same_as):
            raise FileRefused("changed between its check and its reading (a link leading elsewhere?)")
        if inside is not None:
            # Where the opened file really lies (Linux shows it): a link swapped in along the way
            # shows here even when the file it leads to was the one checked.
            shown = f"/proc/self/fd/{fd}"
            if os.path.exists(shown) and not Path(os.readlink(shown)).is_relative_to(inside):
                raise FileRefused("leads outside the game's folder")
        if st.st_size > most:
            raise FileRefused(f"is larger than {most // 1024} KiB")
        chunks, left = [], most + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        if len(data) > most:  # (grown since it was measured)
            raise FileRefused(f"is larger than {most // 1024} KiB")
        return data
    finally:
        os.close(fd)
