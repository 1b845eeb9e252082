"""idiotsim: Monte Carlo simulation of the card game Idiot (Palace, Shed, Karma)."""
__version__ = "0.1.0"
