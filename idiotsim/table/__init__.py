"""Sitting at the table: ``idiotsim play`` against the bots and ``idiotsim review`` of a game.

- ``levels``: the bots of each ``--level``, with their measured strength (one home)
- ``session``: the game loop (the person's seat on the reference engine, saving, rounds)
- ``screen``: what the seat may know, drawn with rich
- ``moves``: the legal moves as listed and the answers a person types
- ``gamefile``: the game file (save, load, replay, record)
- ``review``: every decision of a seat judged by the search (``idiotsim.analysis.position_analysis``)
"""
