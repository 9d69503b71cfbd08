"""`python -m tui`: the `gamenight` command (as the console script runs it).

`python -m tui.cli` would run tui/cli.py twice over, as `__main__` and as `tui.cli`, with two
CliError classes, so an error raised through `tui.cli` would not be the one `main` catches.
"""

import sys

from tui.cli import main

sys.exit(main())
