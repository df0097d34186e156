"""Print the state hash of the fixed determinism scene (tests/test_determinism.py)."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))

from test_determinism import _run  # noqa: E402

if __name__ == "__main__":
    print(_run().state_hash())
