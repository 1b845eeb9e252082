"""``python -m idiotsim.cli``: the console script."""
from idiotsim.cli import main

main()
