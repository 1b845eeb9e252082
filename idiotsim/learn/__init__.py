"""The learned player (issue 18): the search distilled into a fast move scorer.

One module per concern: ``features`` (the one feature function of observation, hand and move),
``collect`` (positions of real games), ``generate`` (labelled by the search, in chunks), ``dataset``
(training arrays, held-out games), ``train`` (numpy fitting), ``model`` (the model vector, its file and
numba scorer), ``policy`` (the player's decisions and override knobs), ``fitting`` (``learn train``),
``evaluate`` (paired, rotated strength), ``loop`` (expert iteration) and ``report`` (learn.md).
The family is strategies/learned/__init__.py; the command is ``idiotsim learn``.
"""
