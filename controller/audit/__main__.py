"""``python -m controller.audit SHEET.csv --variant V``: the audit before it is mounted on the
main command line."""

import sys

from .cli import main

sys.exit(main())
