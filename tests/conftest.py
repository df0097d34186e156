"""Make the shared scenes importable, keep arcade headless, and derandomize hypothesis."""

import os
import sys
import tempfile

from hypothesis import settings

os.environ.setdefault("ARCADE_HEADLESS", "1")
# no test writes the user's data folder (quick saves, suika's best score): a fresh one per run
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="ecsgoo-test-data-")
sys.path.insert(0, os.path.dirname(__file__))

# CI runs the same examples every time (a failure reproduces; a pass stays a pass);
# HYPOTHESIS_PROFILE=explore draws new ones, to hunt for cases to pin as @example.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("explore", derandomize=False, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
