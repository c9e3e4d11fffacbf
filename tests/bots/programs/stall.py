"""A bot that never answers."""
import sys
import time

for line in sys.stdin:
    if '"choose"' in line:
        time.sleep(60)
