"""The shipped strategies: one module per family. The registry is ``idiotsim.strategies.registry``.

This file imports nothing, so that importing one family (``idiotsim.strategies.basic``, as the
search kernels do) does not import every other family with it.
"""
