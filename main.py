"""Lemming Bricks: ``python main.py`` opens the game; ``python main.py --help`` lists the commands."""

import sys

from game.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
