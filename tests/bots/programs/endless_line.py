"""A bot that answers with one line that never ends (the host must not read it all)."""
import sys

for line in sys.stdin:
    if '"choose"' in line:
        chunk = "x" * (1 << 16)
        try:
            while True:
                sys.stdout.write(chunk)
        except (BrokenPipeError, OSError):
            sys.exit(0)
