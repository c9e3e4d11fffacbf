"""Kept so that `from gamedsl.loader import load` goes on working: use `gamedsl.load`."""

from gamedsl.pipeline import check_files, load, parse_with_extends

__all__ = ["check_files", "load", "parse_with_extends"]
