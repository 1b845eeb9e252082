"""Idiot in the game-AI ecosystem (docs/interop.md); the optional extras ``openspiel`` and ``pettingzoo``.

- ``stepped``: a match of the reference engine played one dealt card or one decision at a time
- ``actions``: the fixed action space (swaps, plays, pickup, chance, blind flips)
- ``worlds``: tables a seat may believe it sits at (the search's determinizer), rollouts of basic
- ``openspiel``: the OpenSpiel game ``idiot`` (needs pyspiel)
- ``bots``: idiotsim strategies as OpenSpiel bots, OpenSpiel bots as ``openspiel:...`` seats
- ``pettingzoo``: the PettingZoo AEC environment (needs pettingzoo and gymnasium)
- ``vector_env``: a Gymnasium vector environment of many tables on the numba engine, for RL (needs gymnasium,
  of the ``pettingzoo`` extra)

Only ``openspiel``, ``bots``, ``pettingzoo`` and ``vector_env`` import the extras; nothing outside this package
imports them (an ``openspiel:`` strategy spec loads ``bots`` when it is used).
"""
