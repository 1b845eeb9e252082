"""`weighted`: a move scorer. Every legal option of a decision gets a score, a
weighted sum of features of the public observation and the own hand, and the
highest score is played. The 26 weights are the knobs (floats), read from
``params`` at every decision: any weight vector plays without recompiling, so
an optimiser (``idiotsim.optimize``) can search the space.

Swap (R6): each rank among the player's six cards is scored for lying face-up;
the three cards of the best-scoring ranks lie face-up.

====================  =======  ==================================================
weight                default  feature (x weight) of a rank for lying face-up
====================  =======  ==================================================
``up_strength``       1        strength: the rank's place in basic's key
                               3 < .. < A < 2 < 10, scaled 0 (3) .. 1 (10)
``up_two``            0        1 for a 2
``up_ten``            0        1 for a 10
``up_pair``           0        1 when >= 2 of the six cards have the rank
====================  =======  ==================================================

Turn (hand or face-up phase): the options are every legal rank held in the
source with every count 1..held (V11: a play that empties the hand takes every
face-up card of its rank along), picking up (when allowed, R14) and V5 chance
(when allowed). V12's opening allows only ``MUST_PLAY``.

====================  =======  ==================================================
weight                default  feature of a play of c cards of rank r
====================  =======  ==================================================
``strength``          -1       strength of r (as above)
``two``               0        1 when r is a 2
``ten``               0        1 when r is a 10
``copies``            0        c / 4
``kept``              -1       copies of r left in the source / 4
``share``             0        c / cards in the source (share of the hand or
                               face-up row emptied)
``burn``              0        1 when the play burns the pile (a 10, four of a
                               rank on top, V10 sixes)
``burn_pile``         0        burn x pile size / 10 (cards sent away)
``pile_high``         0        strength x min(pile size, 20) / 10
``talon_high``        0        strength x (talon not empty): high while drawing
``faceup_high``       0        strength x (playing from the face-up row)
``next_high``         0        strength x threat of the next player still in,
                               threat = max(0, 4 - their cards) / 3
``leader_high``       0        strength x threat of the opponent with the
                               fewest cards
``next_known_beat``   0        cards known to be in the next player's source
                               (KNOWN hand cards, or their face-up row once the
                               hand is empty) that may follow the new top, / 4
``unseen_beat``       0        share of the unseen cards (talon, blind rows,
                               opponents' unknown hand cards) that may follow
                               the new top
``stick_pile``        0        (1 - unseen_beat) x pile after the play / 10:
                               the pile the next player is likely to take
====================  =======  ==================================================

After a burn the new top is an empty pile: the beat features are 0 when the
burner plays again (R16.4) and as for an empty pile under V9.

====================  =======  ==================================================
weight                default  feature of picking up / of V5 chance
====================  =======  ==================================================
``pickup``            -8       1 (a bias: -8 is below every play's score, so
                               the defaults pick up only when nothing is legal)
``pickup_pile``       0        pile size / 10
``pickup_quality``    0        mean strength of the pile's cards
``pickup_hand``       0        hand size / 10
``chance``            -9       1 (a bias below ``pickup``: never by default)
``chance_odds``       0        share of the unseen cards legal on the pile
====================  =======  ==================================================

With the defaults it plays exactly like `basic` (the tests check it): the best
3 cards by the key face-up, the lowest legal rank by the key (ordinary ranks,
then 2s, then 10s) with every copy, pick up only when nothing is legal, never
chance. Ties go to the option enumerated first: ranks by the key from 3 up,
more copies before fewer, then pickup, then chance. The blind flip is the
lowest remaining position (the blind cards are unknown, so no feature could
tell positions apart).
"""
import numpy as np

from idiotsim.jit import kernel
from idiotsim.game.observation import (BURN_PLAYS_AGAIN, CAN_CHANCE, CAN_PICKUP, DECISION, FACEUP, FACEUP_SIZE,
                                  HAND_SIZE, KNOWN, LEGAL, LOW_RANK, MUST_PLAY, NR, PILE_COUNTS, PILE_RUN,
                                  PILE_SIZE, PILE_TOP, PLACE, PLAYERS, SEAT, SIX_BURN, SOURCE, SRC_FACEUP,
                                  SWAP, TALON_SIZE, TEN_ONLY_ON_LOWER, TURN)
from idiotsim.game.cards import BASIC_KEY, BASIC_ORDER, SIX
from idiotsim.strategies.constraints import constrained_move
from idiotsim.strategies.toolkit import (CHANCE, PICKUP, TEN, TWO, Knob, Preset, Strategy, knob_ids, cards_held, faceup_addable,
                              held_in_source, legal_mask, legal_now, lowest_blind, next_seat_in, play,
                              strategy_function, unseen)

EMPTY_PILE = -1  # PILE_TOP of an empty pile (idiotsim.game.observation)
STRENGTH = BASIC_KEY / (NR - 1)  # rank r's place in the basic key (3 < .. < A < 2 < 10), scaled to 0..1
BASIC_ORDER_ARRAY = np.array(BASIC_ORDER, dtype=np.int64)  # ranks by basic's key, lowest first


def _weight(name, default, low, high, doc):
    return Knob(name, default, low, high, doc, integer=False)


KNOBS = (
    _weight("up_strength", 1, -3, 3, "swap: x the rank's strength (key place 0..1) for lying face-up"),
    _weight("up_two", 0, -3, 3, "swap: x 1 for a 2 lying face-up"),
    _weight("up_ten", 0, -3, 3, "swap: x 1 for a 10 lying face-up"),
    _weight("up_pair", 0, -3, 3, "swap: x 1 for a rank with >= 2 of the six cards lying face-up"),
    _weight("strength", -1, -3, 3, "play: x the played rank's strength (key place 0..1)"),
    _weight("two", 0, -3, 3, "play: x 1 for playing 2s"),
    _weight("ten", 0, -3, 3, "play: x 1 for playing 10s"),
    _weight("copies", 0, -3, 3, "play: x cards played / 4"),
    _weight("kept", -1, -3, 3, "play: x copies of the rank left in the source / 4"),
    _weight("share", 0, -3, 3, "play: x share of the source (hand or face-up row) emptied"),
    _weight("burn", 0, -3, 3, "play: x 1 when the play burns the pile"),
    _weight("burn_pile", 0, -3, 3, "play: x burn x pile size / 10"),
    _weight("pile_high", 0, -3, 3, "play: x strength x min(pile, 20) / 10"),
    _weight("talon_high", 0, -3, 3, "play: x strength while the talon is not empty"),
    _weight("faceup_high", 0, -3, 3, "play: x strength when playing from the face-up row"),
    _weight("next_high", 0, -3, 3, "play: x strength x next player's threat max(0, 4 - cards) / 3"),
    _weight("leader_high", 0, -3, 3, "play: x strength x threat of the opponent with the fewest cards"),
    _weight("next_known_beat", 0, -3, 3, "play: x cards known in the next player's source that follow "
                                          "the new top / 4"),
    _weight("unseen_beat", 0, -3, 3, "play: x share of the unseen cards that follow the new top"),
    _weight("stick_pile", 0, -3, 3, "play: x (1 - unseen_beat) x pile after the play / 10"),
    _weight("pickup", -8, -8, 4, "pickup: bias (-8 = only when nothing is legal)"),
    _weight("pickup_pile", 0, -3, 3, "pickup: x pile size / 10"),
    _weight("pickup_quality", 0, -3, 3, "pickup: x mean strength of the pile's cards"),
    _weight("pickup_hand", 0, -3, 3, "pickup: x hand size / 10"),
    _weight("chance", -9, -9, 4, "V5 chance: bias (-9 = never)"),
    _weight("chance_odds", 0, -3, 3, "V5 chance: x share of the unseen cards legal on the pile"),
)
W = knob_ids(KNOBS)  # params[W.burn]: the weights by name

GROUPS = {
    "swap": ("up_strength", "up_two", "up_ten", "up_pair"),
    "rank": ("strength", "two", "ten"),
    "copies": ("copies", "kept", "share"),
    "burn": ("burn", "burn_pile"),
    "situation": ("pile_high", "talon_high", "faceup_high"),
    "opponents": ("next_high", "leader_high", "next_known_beat", "unseen_beat", "stick_pile"),
    "pickup": ("pickup", "pickup_pile", "pickup_quality", "pickup_hand"),
    "chance": ("chance", "chance_odds"),
}


# The tuned presets: the knobs of reports/tuned/<n>p/best.toml that differ from the defaults, written by
# the command above each (then copy the changed [knobs] here; reports/tuned.md has the measured advantage).
PRESETS = {
    # idiotsim optimize --strategy weighted --players 2 --field basic --seed 1 --out reports/tuned/2p \
    #   --games-per-eval 20000 --generations 40 --sigma 0.2 --finalists 8 --selection-games 40000 --validation-games \
    #   200000 --sensitivity-games 100000 --search-action-limit 1000
    "tuned-2p": Preset(
        "tuned by idiotsim optimize for 2 players against basic (reports/tuned.md)",
        up_strength=2.670220806429973, up_two=-2.8969238266110198, up_ten=2.9659289743651907,
        up_pair=0.27068901208442253, strength=-1.6139534564265925, two=-0.8923231050079018, ten=0.1275734248184707,
        copies=1.8030103892409497, kept=0.8485507250815176, share=-0.8429930457500742, burn=2.7716667392940453,
        burn_pile=0.8206648339366246, pile_high=-0.9148083379717534, talon_high=-2.027762655608912,
        faceup_high=-0.4403728311902168, next_high=-2.949372616569866, leader_high=0.12304943179591053,
        next_known_beat=1.9950451117951182, unseen_beat=1.6869495933967462, stick_pile=-2.999713264794443,
        pickup=-6.404001920400866, pickup_pile=-1.4120753553155057, pickup_quality=1.807855366208187,
        pickup_hand=-0.8249253265155047, chance=-2.4865367734841457, chance_odds=2.8394599322709198,
    ),
    # idiotsim optimize --strategy weighted --players 3 --field basic --seed 1 --out reports/tuned/3p \
    #   --games-per-eval 8000 --generations 20 --sigma 0.2 --finalists 8 --selection-games 40000 --validation-games \
    #   60000 --sensitivity-games 30000 --search-action-limit 1000
    "tuned-3p": Preset(
        "tuned by idiotsim optimize for 3 players against basic (reports/tuned.md)",
        up_strength=2.3909699823218706, up_two=-0.9735410397553284, up_ten=1.9769975000716538,
        up_pair=1.373559681600743, strength=-2.932974379782046, two=0.511000384433689, ten=-2.9087861239838633,
        copies=-0.3459196428607594, kept=-2.2562593334099876, share=1.1262403199150977, burn=2.566222356091857,
        burn_pile=1.5151059335333863, pile_high=-1.4279939414769, talon_high=-1.6070050594244294,
        faceup_high=1.4924255243831948, next_high=-0.8427943631818822, leader_high=-2.2346881333378064,
        next_known_beat=0.35375884778243083, unseen_beat=1.7380332800136093, stick_pile=0.9455799488199053,
        pickup=-7.661472803480057, pickup_pile=-0.7432230701484558, pickup_quality=0.4588229553827134,
        pickup_hand=0.034562236278150645, chance=-2.3850842605893523, chance_odds=-0.7981298664360882,
    ),
    # idiotsim optimize --strategy weighted --players 4 --field basic --seed 1 --out reports/tuned/4p \
    #   --games-per-eval 20000 --generations 40 --sigma 0.2 --finalists 8 --selection-games 40000 --validation-games \
    #   200000 --sensitivity-games 100000 --search-action-limit 1000
    "tuned-4p": Preset(
        "tuned by idiotsim optimize for 4 players against basic (reports/tuned.md)",
        up_strength=2.6219403889278916, up_two=0.7733691643730936, up_ten=2.5668737780416917,
        up_pair=1.095517163533468, strength=-2.2349121326714636, two=-0.7735716357200199, ten=-2.7427163121638825,
        copies=-1.1849836054369565, kept=-2.721521991803647, share=2.3534807442047363, burn=2.6142383551112434,
        burn_pile=0.5577594565481507, pile_high=-2.920151466571205, talon_high=-0.7560668842895799,
        faceup_high=-2.4908719508784642, next_high=2.414775711000897, leader_high=-2.174542429702452,
        next_known_beat=0.360861672656792, unseen_beat=1.9247434909686838, stick_pile=-0.39183061892373283,
        pickup=-7.233395083575941, pickup_pile=-0.04535936295256793, pickup_quality=-1.8559865047622315,
        pickup_hand=0.759914734781343, chance=-3.4868586805808524, chance_odds=0.6106105972940565,
    ),
    # idiotsim optimize --strategy weighted --players 5 --field basic --seed 1 --out reports/tuned/5p \
    #   --games-per-eval 8000 --generations 20 --sigma 0.2 --finalists 8 --selection-games 40000 --validation-games \
    #   60000 --sensitivity-games 30000 --search-action-limit 1000
    "tuned-5p": Preset(
        "tuned by idiotsim optimize for 5 players against basic (reports/tuned.md)",
        up_strength=2.9192535876365353, up_two=0.7928602132354036, up_ten=1.7589250629756144,
        up_pair=2.5434386216924216, strength=-2.826363987765293, two=-0.7837891043262679, ten=-2.7662343454823906,
        copies=-2.0494894611947148, kept=-2.9849549390328596, share=2.9726334538053285, burn=1.9622969208627414,
        burn_pile=0.3634614814193472, pile_high=-0.43047520243004167, talon_high=-1.7334992125129607,
        faceup_high=-0.8952558258622298, next_high=-2.5974099520846954, leader_high=-2.8409455912236727,
        next_known_beat=0.7208197057548097, unseen_beat=1.1204696360948005, stick_pile=0.2163985223590551,
        pickup=-7.370949167863552, pickup_pile=-2.4058091911184225, pickup_quality=0.8706675154013854,
        pickup_hand=-0.799842444386198, chance=-7.815991516498993, chance_odds=-1.0470361349444859,
    ),
}


# ---- swap ------------------------------------------------------------------------

@kernel
def faceup_score(params, rank, copies):
    return (params[W.up_strength] * STRENGTH[rank] + params[W.up_two] * (rank == TWO)
            + params[W.up_ten] * (rank == TEN) + params[W.up_pair] * (copies >= 2))


@kernel
def choose_faceup(obs, hand, params):
    """The 3 cards of the best-scoring ranks among the six (ties: the higher key first)."""
    row = FACEUP + obs[SEAT] * NR
    taken = 0  # bit r: rank r already chosen
    choice = 0
    need = 3
    while need > 0:
        best, best_score = -1, -np.inf
        for i in range(NR - 1, -1, -1):
            r = BASIC_ORDER_ARRAY[i]
            copies = hand[r] + obs[row + r]
            if copies > 0 and (taken >> r) & 1 == 0:
                score = faceup_score(params, r, copies)
                if score > best_score:
                    best, best_score = r, score
        if best < 0:
            break
        taken |= 1 << best
        for _ in range(min(need, hand[best] + obs[row + best])):
            choice = choice * NR + best
            need -= 1
    return choice


# ---- turn ------------------------------------------------------------------------

@kernel
def unseen_counts(obs, hand):
    """Unseen cards by rank (counter.unseen), packed 4 bits per rank (at most 8 copies)."""
    packed = 0
    for q in range(NR):
        packed |= unseen(obs, hand, q) << (4 * q)
    return packed


@kernel
def count_in_mask(packed, mask):
    total = 0
    for q in range(NR):
        if (mask >> q) & 1:
            total += (packed >> (4 * q)) & 15
    return total


@kernel
def known_in_source(obs, seat, mask):
    """Cards known to be in `seat`'s current source that are in `mask`: KNOWN hand cards,
    or the face-up row once the hand is empty."""
    base = (KNOWN if obs[HAND_SIZE + seat] > 0 else FACEUP) + seat * NR
    total = 0
    for q in range(NR):
        if (mask >> q) & 1:
            total += obs[base + q]
    return total


@kernel
def threat(cards):
    return max(0, 4 - cards) / 3.0


@kernel
def fewest_opponent_cards(obs):
    seat = obs[SEAT]
    fewest = 1 << 30
    for s in range(obs[PLAYERS]):
        if s != seat and obs[PLACE + s] == 0:
            fewest = min(fewest, cards_held(obs, s))
    return fewest


@kernel
def pile_strength(obs):
    total = 0.0
    for r in range(NR):
        total += obs[PILE_COUNTS + r] * STRENGTH[r]
    return total / max(1, obs[PILE_SIZE])


@kernel
def burns(obs, rank, cards):
    """R16.2, V7, V10: does a play of `cards` cards of `rank` burn the pile?"""
    run = cards + (obs[PILE_RUN] if obs[PILE_TOP] == rank else 0)
    six_burn = obs[SIX_BURN]
    return rank == TEN or run >= 4 or (six_burn > 0 and rank == SIX and run >= six_burn)


@kernel
def rank_weight(obs, params, pile, next_threat, leader_threat):
    """The weight of the played rank's strength in this situation."""
    return (params[W.strength] + params[W.pile_high] * min(pile, 20) / 10.0
            + params[W.talon_high] * (obs[TALON_SIZE] > 0) + params[W.faceup_high] * (obs[SOURCE] == SRC_FACEUP)
            + params[W.next_high] * next_threat + params[W.leader_high] * leader_threat)


@kernel
def beat_features(obs, packed, total_unseen, nxt, top):
    """(share of the unseen cards, known cards in the next player's source / 4) that may follow
    `top` (EMPTY_PILE after a burn)."""
    mask = legal_mask(top, obs[LOW_RANK], obs[TEN_ONLY_ON_LOWER] != 0)
    share = count_in_mask(packed, mask) / total_unseen if total_unseen > 0 else 0.0
    return share, known_in_source(obs, nxt, mask) / 4.0


@kernel
def follow_score(params, share, known, pile_after):
    return (params[W.next_known_beat] * known + params[W.unseen_beat] * share
            + params[W.stick_pile] * (1.0 - share) * pile_after / 10.0)


@kernel
def choose_turn(obs, hand, params):
    seat = obs[SEAT]
    pile = obs[PILE_SIZE]
    packed = unseen_counts(obs, hand)
    total_unseen = count_in_mask(packed, (1 << NR) - 1)
    nxt = next_seat_in(obs)
    strength_weight = rank_weight(obs, params, pile, threat(cards_held(obs, nxt)),
                                  threat(fewest_opponent_cards(obs)))
    source_size = obs[FACEUP_SIZE + seat] if obs[SOURCE] == SRC_FACEUP else obs[HAND_SIZE + seat]
    must = obs[MUST_PLAY]
    best_action, best_score = PICKUP, -np.inf
    for i in range(NR):
        r = BASIC_ORDER_ARRAY[i]
        held = held_in_source(obs, hand, r)
        if held == 0 or not legal_now(obs, r) or (must >= 0 and r != must):
            continue
        rank_score = strength_weight * STRENGTH[r] + params[W.two] * (r == TWO) + params[W.ten] * (r == TEN)
        share, known = beat_features(obs, packed, total_unseen, nxt, r)
        for c in range(held, 0, -1):
            extra = faceup_addable(obs, hand, r, c)
            score = (rank_score + params[W.copies] * c / 4.0 + params[W.kept] * (held - c) / 4.0
                     + params[W.share] * c / source_size)
            if burns(obs, r, c + extra):
                score += params[W.burn] + params[W.burn_pile] * pile / 10.0
                if obs[BURN_PLAYS_AGAIN] == 0:  # V9: the next player starts on an empty pile
                    empty_share, empty_known = beat_features(obs, packed, total_unseen, nxt, EMPTY_PILE)
                    score += follow_score(params, empty_share, empty_known, 0)
            else:
                score += follow_score(params, share, known, pile + c + extra)
            if score > best_score:
                best_action, best_score = play(r, c, extra), score
    if obs[CAN_PICKUP] != 0:
        score = (params[W.pickup] + params[W.pickup_pile] * pile / 10.0
                 + params[W.pickup_quality] * pile_strength(obs) + params[W.pickup_hand] * obs[HAND_SIZE + seat] / 10.0)
        if score > best_score:
            best_action, best_score = PICKUP, score
    if obs[CAN_CHANCE] != 0:
        share = count_in_mask(packed, obs[LEGAL]) / total_unseen if total_unseen > 0 else 0.0
        if params[W.chance] + params[W.chance_odds] * share > best_score:
            best_action = CHANCE
    return best_action


@strategy_function
def decide(obs, hand, params, rng):
    if obs[DECISION] == SWAP:
        return choose_faceup(obs, hand, params)
    if obs[DECISION] == TURN:
        return choose_turn(obs, hand, params)
    return lowest_blind(obs)


CONSTRAINTS_AT = len(KNOBS)  # the constraint block of a constrained seat follows the knobs (idiotsim.strategies.constraints)


@strategy_function
def decide_constrained(obs, hand, params, rng):
    """The decision under the constraint block at params[CONSTRAINTS_AT:]: its move, or the nearest allowed one."""
    return constrained_move(obs, hand, params, CONSTRAINTS_AT, decide(obs, hand, params, rng))


WEIGHTED = Strategy(
    name="weighted",
    decide=decide,
    description="Move scorer: every legal option scored by a weighted sum of 26 features (weights are the "
                "knobs, for idiotsim optimize); defaults = basic",
    counts_cards=True,
    knobs=KNOBS,
    presets=PRESETS,
    constrained_decide=decide_constrained,
)
STRATEGY = WEIGHTED
