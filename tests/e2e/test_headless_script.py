"""A script may call ``run_headless`` with no display and no environment variable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]  # tests/, where toygame is


def test_run_headless_from_a_plain_script_with_no_display(tmp_path):
    png = tmp_path / "shot.png"
    script = (f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
              "from ecsgoo.app import run_headless\n"
              "from toygame import Toy\n"
              f"print(run_headless(Toy(), frames=5, screenshot_path={str(png)!r}, "
              "progress=False))\n")
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "ARCADE_HEADLESS")}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "'frames': 5" in done.stdout and png.stat().st_size > 1000
