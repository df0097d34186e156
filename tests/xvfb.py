"""Running a Python script in real arcade windows on a virtual X screen (``xvfb-run``).

The window tests (``tests/e2e/test_window.py``, ``test_editor_window.py``) each run a
script that drives its windows and prints what it saw as JSON on its last line.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from typing import Any

import pytest

#: Skips a test where ``xvfb-run`` (Debian's xvfb; ``.ci/run`` installs it) is missing.
needs_xvfb = pytest.mark.skipif(shutil.which("xvfb-run") is None, reason="needs xvfb-run")


def run_on_xvfb(script: str, *args: str, screen: str = "1024x768x24") -> Any:
    """Run ``script`` (``python -c``) with ``args`` on a virtual screen of ``screen``, not
    headless; its JSON last line, after asserting it exited cleanly."""
    env = {k: v for k, v in os.environ.items() if k != "ARCADE_HEADLESS"}
    run = subprocess.run(["xvfb-run", "-a", "-s", f"-screen 0 {screen}", sys.executable,
                          "-c", script, *args], capture_output=True, text=True,
                         timeout=600, env=env)
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout.strip().splitlines()[-1])
