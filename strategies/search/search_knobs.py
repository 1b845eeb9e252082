"""The `search` family's knobs, declared once, and the named values they take: the spec parser, `idiotsim
strategies`, the optimiser and the search's kernels (``idiotsim.strategies.search.pimc``, by name:
``params[K.rollouts]``) all read ``KNOBS``. ``params`` = these knobs, the constraint block (``CONSTRAINTS_AT``:
the moves the search may judge, idiotsim.strategies.constraints; zeros when unconstrained), then, for the
searches that use the learned model (``uses_learned_model`` in the family), the `learned` family's params from
``LEARNED_AT``.
"""
from idiotsim.strategies.constraints import CONSTRAINT_SIZE
from idiotsim.strategies.learned.learned_knobs import MODELS
from idiotsim.strategies.toolkit import Knob, knob_ids

GATE_OFF = 1000.0  # the `gate` knob's default and maximum: no lead is this large, every turn is searched
MEAN_PLACE, WINS = 0, 1  # values of the objective knob
POLICY_BASIC, POLICY_COUNTER, POLICY_TUNED, POLICY_TUNED_SELF = 0, 1, 2, 3  # values of the policy knob
POLICY_LEARNED_SELF = 4  # the learned player at the searcher's seat, basic elsewhere
SWAP_BASIC, SWAP_SEARCHED, SWAP_TENS_IN_HAND, SWAP_LEARNED = 0, 1, 2, 3  # values of the swap knob
TENS_SEARCHED, TENS_BURN, TENS_SAVE = 0, 1, 2  # values of the tens knob (turn moves with a 10)
ALL_MOVES, HALVING = 0, 1  # values of the halving knob
UNIFORM, BASIC_MODEL, BASIC_PLAYS, NO_MEMORY = 0, 1, 2, 3  # values of the belief knob (search.sampler)

KNOBS = (
    Knob("rollouts", 128, 1, 100_000, "K: sampled states per decision; every move is rolled out on each"),
    Knob("objective", 0, 0, 1, "0: the lowest mean place; 1: the most wins (then the lowest mean place)"),
    Knob("policy", 0, 0, 4, "the rollout policy: 0 basic, 1 counter (its defaults), 2 weighted tuned-Np "
                            "(N players, 2..5) at every seat, 3 tuned-Np at the searcher's seat and basic elsewhere, "
                            "4 the learned player (`rollout_model`) at the searcher's seat and basic elsewhere"),
    Knob("swap", 0, 0, 3, "1: search the swap too (every distinct choice of 3 face-up cards); 0: basic's swap; "
                          "2: basic's swap with every 10 kept in hand (heuristic swap mode 2), for experiments; "
                          "3: the learned player's swap (`rollout_model`'s swap head)"),
    Knob("tens", 0, 0, 2, "turns where a 10 is playable: 0 searched like every move; 1 burn by rule (a 10 on a "
                          "non-empty pile, every count searched); 2 save it like basic (no 10 while another rank "
                          "is playable); 1 and 2 for experiments"),
    Knob("halving", 1, 0, 1, "1: sequential halving on the budget of K x moves rollouts, the better half of the "
                             "moves kept round by round (stronger than 0 at the same time: docs/strategies.md); "
                             "0: every move on all K sampled states (the plain search)"),
    Knob("belief", 2, 0, 3, "the sampled states: 2 only the arrangements of the unseen cards that agree with what "
                            "the opponents' swaps, plays and pickups say of their hands had they played like basic "
                            "(the play facts), alike (the strongest at the same time per decision: docs/strategies.md); "
                            "1 with their pickups only; 0 every arrangement alike; 3 no memory "
                            "(not counting): only what is in sight now is known, every card not in sight (burned "
                            "and buried ones too) dealt alike"),
    Knob("rollout_model", 0, 0, len(MODELS) - 1, "the learned model of the learned policy (4), the gate "
                                                         "and the learned swap (3): " + ", ".join(
        f"{i} {name[:-4]}" for i, name in enumerate(MODELS))),
    Knob("gate", GATE_OFF, -1, GATE_OFF, "a turn is played by the learned player (`rollout_model`) when its best "
                                         "move's score leads the runner-up's by more than `gate` places, else "
                                         f"searched; {GATE_OFF:g} = off (every turn searched), -1 = never searched",
         integer=False),
    Knob("top", 0, 0, 512, "a searched turn is searched over the learned model's `top` best moves only (0: every "
                           "move)"),
    Knob("prior", 0, 0, 1, "1: a searched turn's moves in the learned model's order (its best first, so it keeps "
                           "the search's ties); 0: basic's move first, then the list's order"),
)
K = knob_ids(KNOBS)
DEFAULT_ROLLOUTS = KNOBS[K.rollouts].default  # the K of `search` as named, for labels and other defaults
CONSTRAINTS_AT = len(KNOBS)  # the constraint block follows the knobs
LEARNED_AT = CONSTRAINTS_AT + CONSTRAINT_SIZE  # the learned model's users: the `learned` family's params follow it
