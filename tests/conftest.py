"""Make the shared scenes importable and keep arcade headless in tests."""

import os
import sys

os.environ.setdefault("ARCADE_HEADLESS", "1")
sys.path.insert(0, os.path.dirname(__file__))
