import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pytest

from tests.support.hypothesis_profiles import load_profile

# The hypothesis tests run the same examples on every run of the suite (the "ci" profile),
# whatever ran before them; HYPOTHESIS_PROFILE=long runs the long randomised search instead
# (docs/robustness.md).
load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True, scope="session")
def _private_cache_folder(tmp_path_factory):
    """The parser and parsed files are cached under $XDG_CACHE_HOME: the tests (and the
    commands they start) use a folder of their own, not the user's."""
    saved = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if saved is None:
        del os.environ["XDG_CACHE_HOME"]
    else:
        os.environ["XDG_CACHE_HOME"] = saved
