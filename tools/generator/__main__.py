"""`python3 -m tools.generator ...`: the same as tools/generate_export.py."""

import sys

from .cli import main

sys.exit(main())
