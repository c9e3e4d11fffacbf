"""The two ways the hypothesis tests run.

- `ci` (the default, and what CI runs): the same examples on every run. Derandomized, a fixed
  number of examples, no example database (what an earlier run found on one machine must not
  change what the next one tries), and no constants gathered from the code: hypothesis mixes
  literal numbers and texts from every local module imported so far into what it draws, so
  without this the examples would depend on which tests ran before (`derandomize` alone does
  not pin them). A failure found by the long search is kept as an explicit example of its
  test (an `@example`, or a case of FOUND in tests/fuzz/test_properties.py), which every
  run then tries.
- `long` (HYPOTHESIS_PROFILE=long): the randomised search, many examples, failures kept in
  .hypothesis/ between runs and printed with the blob that reproduces them; what it finds
  becomes an `@example` (docs/robustness.md).
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis.database import DirectoryBasedExampleDatabase

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large]

settings.register_profile("ci", derandomize=True, max_examples=25, database=None, deadline=None,
                          print_blob=True, suppress_health_check=_QUIET)
settings.register_profile("long", derandomize=False, max_examples=2_000, deadline=None, print_blob=True,
                          database=DirectoryBasedExampleDatabase(".hypothesis/examples"),
                          suppress_health_check=_QUIET)


def pin_constants() -> bool:
    """Have hypothesis draw from its own constants only, not from the modules imported so
    far. Returns whether it could (tests/fuzz/test_hypothesis_profiles.py fails otherwise:
    a new hypothesis that moved this hook needs this function updated)."""
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:
        return False
    if not hasattr(providers, "_get_local_constants") or not hasattr(providers, "_local_constants"):
        return False
    empty = type(providers._local_constants)()
    providers._get_local_constants = lambda: empty
    return True


PINNED = {"done": False}


def load_profile(name: str) -> None:
    if name not in ("ci", "long"):
        raise SystemExit(f"HYPOTHESIS_PROFILE must be ci or long, not {name!r}")
    settings.load_profile(name)
    if name == "ci":
        PINNED["done"] = pin_constants()
