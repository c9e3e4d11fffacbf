"""`python -m gamedsl ...` is the `gamedsl` command."""

import sys

from gamedsl.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
