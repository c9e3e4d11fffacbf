"""What an observer of a game is told while the rules run: the hook tools such as rule coverage
use instead of reaching into the machine. Every method does nothing here; an observer
overrides the ones it wants. Ordinary play has no observer and pays one test per event.
"""

from __future__ import annotations


class Observer:
    def statement(self, sid: int) -> None:
        """Statement `sid` (a compiled statement's stable number) ran."""

    def phase(self, index: int) -> None:
        """Phase `index` was entered."""

    def alternative(self, choice: int, name: str, components: list) -> None:
        """At the choice that is statement `choice`, the alternative `name` was taken; `components`:
        the components among its arguments."""

    def component_moved(self, comp: int) -> None:
        """Component `comp` was put into a zone during play (not setup)."""

    def table_row(self, table: str, index: int) -> None:
        """Row `index` of the keyed table `table` was looked up."""
