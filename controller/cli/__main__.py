"""``python -m controller.cli``: the ``damath-board`` command without its installed script."""

import sys

from . import main

sys.exit(main())
