"""The kinds of decision of `strong-split` (strategies/search/split.py), by id: a light table the reports read
without importing the search."""

# (key, words) of each kind, by id (the kernel's branches); id 0 is the gated player itself.
KINDS = (
    ("none", "nothing (the gated player)"),
    ("swap", "the swap"),
    ("turns", "every play choice"),
    ("talon", "play choices while the talon lasts"),
    ("hand", "play choices from the hand once the talon is gone"),
    ("faceup", "play choices from the face-up row"),
    ("empty", "play choices on an empty pile"),
    ("on-2", "play choices on a 2"),
    ("on-3-6", "play choices on a 3 to 6"),
    ("on-7-J", "play choices on a 7 to J"),
    ("on-Q-A", "play choices on a Q, K or A"),
    ("next-table", "play choices when the next player is on face-up or blind cards"),
    ("next-1-3", "play choices when the next player holds 1 to 3 cards in hand"),
    ("next-4", "play choices when the next player holds 4 or more cards in hand"),
    ("pickups", "its pickups (picking up where basic plays)"),
    ("burns", "its burns (a 10 or four of a kind, played or held back)"),
    ("twos", "a 2 where basic plays an ordinary rank"),
    ("copies", "another number of copies of basic's rank"),
    ("higher", "another ordinary rank than basic's (the lowest)"),
)
