"""``python -m ecsgoo`` is the ``ecsgoo`` command."""

import sys

from .cli import main

sys.exit(main())
