"""The `gamedsl` command: main (argument parsing, one place that turns errors into exit codes),
sim_commands (simulate, compare), terminal (play at the terminal)."""

from gamedsl.cli.main import main

__all__ = ["main"]
