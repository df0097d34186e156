"""Print the state hash of the fixed determinism scene (tests/unit/physics/test_determinism.py)."""

import os
import sys

TESTS = os.path.join(os.path.dirname(__file__), "..", "tests")
sys.path[:0] = [TESTS, os.path.join(TESTS, "unit", "physics")]  # scenes, test_determinism

from test_determinism import _run  # noqa: E402

if __name__ == "__main__":
    print(_run().state_hash())
