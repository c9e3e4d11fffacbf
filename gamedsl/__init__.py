# builtins registers tiling's functions once its own helpers exist; imported first here, so
# that importing gamedsl.tiling on its own does not meet a half-made tiling module.
from . import builtins  # noqa: F401
