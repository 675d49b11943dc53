#!/usr/bin/env python3
"""Deterministic synthetic Apple Health export generator, plus a ground-truth JSON.

The entry point of the package tools/generator (see its __init__ for the arguments and design).
"""

import os
import sys

# Run as a script, this folder is on sys.path already; inserting it also covers runpy and imports.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from generator.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
