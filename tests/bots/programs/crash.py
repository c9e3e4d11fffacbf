"""A bot that dies when it is first asked for a move."""
import sys

for line in sys.stdin:
    if '"choose"' in line:
        sys.exit(3)
