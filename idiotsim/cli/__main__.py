"""``python -m idiotsim.cli``: the console script."""
from idiotsim.cli import console

console()
