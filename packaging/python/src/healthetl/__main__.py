"""`python -m healthetl ARGS`: runs the healthetl binary with ARGS, with its exit code."""
import sys

from . import _exec

if __name__ == "__main__":
    _exec(sys.argv[1:])
