"""`python -m topiccrawler.cli …`, as the `topiccrawler` command."""

import sys

from topiccrawler.cli import main

sys.exit(main())
