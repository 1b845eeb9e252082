/* The C yardstick (benchmarks only; the package plays these rounds in numba: idiotsim.engine.basic_rounds): the search's rollouts with `basic` at every seat, in C: `idiotsim.engine.play_on`'s loop (R13-R18,
 * R20, V1/V2, V5, V6, V7, V9-V11) on a compact copy of the round, `engine._basic_turn` at every seat.
 *
 * The engine keeps a round as one int64 array (idiotsim.engine's layout) with the public observation
 * kept up to date for strategies; a rollout of `basic` players needs none of that. Here a seat's hand
 * and face-up counts are 16 bytes each, so the ranks present are one vector compare, a pickup one vector
 * add, the cycle check one memcmp, and a copy of the round for the next move a few hundred bytes.
 * The state's offsets and every constant shared with Python come as -D flags from
 * benchmarks/c_yardstick/build.py, which reads them from the Python modules: they keep one home.
 *
 * idiotsim_basic_rollout(st, seat, searcher): the round in `st` played on from `seat` to act until the
 *   place of `searcher` is decided; returns that place and writes every place, NEXT_PLACE, PLAYERS_IN,
 *   ACTIONS and SKIPPED back into `st` as `play_on` leaves them (nothing else of `st` is written).
 *   With searcher -1 the whole round is played (returning 0): the engine benchmark's C yardstick.
 * idiotsim_basic_moves(st, seat, moves, n_moves, places): for each move, `seat`'s move played on a copy
 *   of the round in `st` (as `engine.act` plays it) and then `idiotsim_basic_rollout`'s rollout:
 *   places[i], the seat's place after moves[i]; `st` is not written. Returns 0, or -1 on an illegal move.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Every constant in capitals but these comes from the build's -D flags. */
#define ALL_RANKS ((1 << NR) - 1)
#define ORDINARY_MASK (ALL_RANKS & ~(1 << RANK_TWO) & ~(1 << RANK_TEN))
#define ROW 16 /* bytes of a count row: 13 counts, then 3 zeros */

typedef struct {
    int8_t hand[ROW]; /* counts by rank */
    int8_t faceup[ROW];
    int8_t blind[3]; /* rank, -1 once flipped */
    int8_t place;    /* 0 while in */
    int8_t hand_size, faceup_size, blind_size;
    int8_t pad[9];
} Seat;

/* What a rollout changes. Its first bytes up to `seats`, and the rows of the seats in play, decide the
 * rest of the round but for the action count (R20): the cycle check compares them. */
typedef struct {
    int8_t pile_counts[ROW];
    int16_t pile_size, talon_pos;
    int8_t pile_top, pile_run, turn;
    int8_t pad[9];
    Seat seats[MAX_PLAYERS];
    int legal, next_place, players_in;
    int64_t actions, skipped;
} Round;

/* What a rollout only reads: the rules and the talon. */
typedef struct {
    int n, talon_len, six_burn, burn_again, last_hand_faceup, chance, starter, must_play;
    int64_t limit;
    int legal_on[NR]; /* R10, R11, V1/V2, V6: the legal ranks on each top rank */
    int burn_at[NR];  /* R16.2, V10: the run of a rank that burns the pile (1 for a 10) */
    int8_t talon[MAX_CARDS];
} Table;

static inline int ranks_present(const int8_t *row) {
#if defined(__SSE2__)
    __m128i counts = _mm_loadu_si128((const __m128i *)row);
    return _mm_movemask_epi8(_mm_cmpgt_epi8(counts, _mm_setzero_si128()));
#else
    int mask = 0;
    for (int r = 0; r < NR; r++)
        mask |= (row[r] > 0) << r;
    return mask;
#endif
}

static inline void add_row(int8_t *to, const int8_t *from) {
#if defined(__SSE2__)
    _mm_storeu_si128((__m128i *)to, _mm_add_epi8(_mm_loadu_si128((const __m128i *)to),
                                                 _mm_loadu_si128((const __m128i *)from)));
#else
    for (int r = 0; r < ROW; r++)
        to[r] += from[r];
#endif
}

/* `toolkit.basic_rank`: the lowest ordinary rank, else 2, else 10, else -1. */
static inline int basic_rank(int playable) {
    int ordinary = playable & ORDINARY_MASK;
    if (ordinary)
        return __builtin_ctz(ordinary);
    if (playable & (1 << RANK_TWO))
        return RANK_TWO;
    if (playable & (1 << RANK_TEN))
        return RANK_TEN;
    return -1;
}

/* `toolkit.legal_mask` */
static int legal_mask(int top, int low_rank, int ten_only_on_lower) {
    if (top < 0 || top == RANK_TWO)
        return ALL_RANKS;
    int mask = top == low_rank ? (2 << top) - 1 : ALL_RANKS & ~((1 << top) - 1);
    mask |= 1 << RANK_TWO;
    if (ten_only_on_lower && top >= RANK_JACK)
        return mask & ~(1 << RANK_TEN);
    return mask | (1 << RANK_TEN);
}

static inline void empty_pile(Round *r) {
    memset(r->pile_counts, 0, sizeof r->pile_counts);
    r->pile_top = -1;
    r->pile_run = 0;
    r->pile_size = 0;
    r->legal = ALL_RANKS;
}

static inline int talon_left(const Table *t, const Round *r) {
    return t->talon_len - r->talon_pos;
}

/* R4: to the left, skipping players who are out. */
static inline int next_seat(const Table *t, const Round *r, int seat) {
    int s = seat;
    for (int i = 0; i < t->n; i++) {
        s = s + 1 < t->n ? s + 1 : 0;
        if (r->seats[s].place == 0)
            return s;
    }
    return seat;
}

/* R14/R15/V5: the pile (and a failed flipped card, `extra` >= 0) goes into the hand. Returns the
 * seat to act next. */
static inline int pick_up(const Table *t, Round *r, int seat, int extra) {
    Seat *s = &r->seats[seat];
    add_row(s->hand, r->pile_counts);
    s->hand_size += r->pile_size;
    if (extra >= 0) {
        s->hand[extra] += 1;
        s->hand_size += 1;
    }
    empty_pile(r);
    r->actions += 1;
    return next_seat(t, r, seat);
}

/* R16: `count` cards of `rank` are on the pile; draw, burn, out, again. Returns the seat to act next. */
static inline int after_play(const Table *t, Round *r, int seat, int rank, int count) {
    Seat *s = &r->seats[seat];
    r->actions += 1;
    int run = count;
    if (r->pile_top == rank) {
        run += r->pile_run;
    } else {
        r->pile_top = (int8_t)rank;
        r->legal = t->legal_on[rank];
    }
    r->pile_run = (int8_t)run;
    r->pile_size += count;
    r->pile_counts[rank] += count;
    int drawn = HAND_TARGET - s->hand_size; /* R16.1 */
    if (drawn > talon_left(t, r))
        drawn = talon_left(t, r);
    if (drawn > 0) {
        for (int i = 0; i < drawn; i++)
            s->hand[t->talon[r->talon_pos + i]] += 1;
        r->talon_pos += drawn;
        s->hand_size += drawn;
    }
    int burned = run >= t->burn_at[rank];
    if (burned) /* R16.2, V7, V10 */
        empty_pile(r);
    if (s->hand_size + s->faceup_size + s->blind_size == 0) { /* R16.3 */
        s->place = (int8_t)r->next_place++;
        r->players_in -= 1;
        if (r->players_in == 1)
            return seat;
        return next_seat(t, r, seat); /* R17 */
    }
    if (burned && t->burn_again) /* R16.4, V9 */
        return seat;
    return next_seat(t, r, seat);
}

/* R15: the blind card at `at` is turned over: played when legal, else picked up with the pile. */
static inline int flip_blind(const Table *t, Round *r, int seat, int at) {
    Seat *s = &r->seats[seat];
    int flipped = s->blind[at];
    s->blind[at] = -1;
    s->blind_size -= 1;
    if (r->legal >> flipped & 1)
        return after_play(t, r, seat, flipped, 1);
    return pick_up(t, r, seat, flipped);
}

/* The cards of a play leave the hand or the face-up row (R13), V11's extra face-up cards with them. */
static inline void remove_played(Seat *s, int from_hand, int rank, int count, int extra) {
    if (from_hand) {
        s->hand[rank] -= count;
        s->hand_size -= count;
    } else {
        s->faceup[rank] -= count;
        s->faceup_size -= count;
    }
    s->faceup[rank] -= extra;
    s->faceup_size -= extra;
}

/* `engine._basic_turn`: all copies of the lowest legal ordinary rank; else all 2s; else all 10s; else
 * pick up; at a blind turn the lowest blind position (R13-R15, V11). Returns the seat to act next. */
static inline int basic_turn(const Table *t, Round *r, int seat) {
    Seat *s = &r->seats[seat];
    int from_hand = s->hand_size > 0;
    if (!from_hand && s->faceup_size == 0) {
        int at = 0;
        while (s->blind[at] < 0)
            at++;
        return flip_blind(t, r, seat, at);
    }
    const int8_t *row = from_hand ? s->hand : s->faceup;
    int rank = basic_rank(ranks_present(row) & r->legal);
    if (rank < 0) /* R14: nothing playable, so the pile is not empty */
        return pick_up(t, r, seat, -1);
    int count = row[rank];
    int extra = 0;
    if (from_hand && t->last_hand_faceup && talon_left(t, r) == 0 && count == s->hand_size)
        extra = s->faceup[rank]; /* V11 */
    remove_played(s, from_hand, rank, count, extra);
    return after_play(t, r, seat, rank, count + extra);
}

/* `engine.act`: the move of `seat` (`toolkit`'s action codes) as `engine._apply` plays it; -1 when it
 * is not legal (R9-R15, V5, V11; V12's opening rank is the caller's concern: the search lists only
 * legal moves). Returns the seat to act next. */
static int apply_move(const Table *t, Round *r, int seat, int64_t move) {
    Seat *s = &r->seats[seat];
    int from_hand = s->hand_size > 0;
    if (!from_hand && s->faceup_size == 0) { /* R15: a blind position */
        if (move < 0 || move > 2 || s->blind[move] < 0)
            return -1;
        return flip_blind(t, r, seat, (int)move);
    }
    if (move == ACTION_PICKUP) /* R14 */
        return r->pile_size > 0 ? pick_up(t, r, seat, -1) : -1;
    if (move == ACTION_CHANCE) { /* V5 */
        if (!t->chance || !from_hand || talon_left(t, r) == 0 || r->pile_size == 0)
            return -1;
        int flipped = t->talon[r->talon_pos];
        r->talon_pos += 1;
        if (r->legal >> flipped & 1)
            return after_play(t, r, seat, flipped, 1);
        return pick_up(t, r, seat, flipped);
    }
    int rank = (int)(move & 15), count = (int)(move >> 4 & 15), extra = (int)(move >> 8);
    if (move < 0 || rank >= NR || count < 1 || !(r->legal >> rank & 1))
        return -1;
    if (t->must_play >= 0 && rank != t->must_play) /* V12, before the round's first action only */
        return -1;
    if ((from_hand ? s->hand[rank] : s->faceup[rank]) < count)
        return -1;
    if (extra != 0 && !(t->last_hand_faceup && from_hand && count == s->hand_size && talon_left(t, r) == 0
                        && s->faceup[rank] >= extra))
        return -1;
    remove_played(s, from_hand, rank, count, extra);
    return after_play(t, r, seat, rank, count + extra);
}

/* `engine._final_places`: R18; R20 on a stall, by fewest cards held, then turn order from the starter. */
static void final_places(const Table *t, Round *r) {
    while (r->players_in > 0) {
        int best = -1, best_cards = 1 << 30;
        for (int i = 0; i < t->n; i++) {
            int seat = (t->starter + i) % t->n;
            const Seat *s = &r->seats[seat];
            int held = s->hand_size + s->faceup_size + s->blind_size;
            if (s->place == 0 && held < best_cards) {
                best = seat;
                best_cards = held;
            }
        }
        r->seats[best].place = (int8_t)r->next_place++;
        r->players_in -= 1;
    }
}

/* The bytes of a Round a rollout reads and writes, with `n` seats in play: the seats' rows past them
 * are neither copied nor compared. */
static inline size_t position_size(int n) {
    return offsetof(Round, seats) + (size_t)n * sizeof(Seat);
}

static inline void copy_round(Round *to, const Round *from, int n) {
    memcpy(to, from, position_size(n));
    to->legal = from->legal;
    to->next_place = from->next_place;
    to->players_in = from->players_in;
    to->actions = from->actions;
    to->skipped = from->skipped;
}

static void load(Table *t, Round *r, const int64_t *st) {
    int n = (int)st[OFF_PLAYERS];
    t->n = n;
    memset(r, 0, position_size(n));
    for (int q = 0; q < n; q++) {
        Seat *s = &r->seats[q];
        for (int k = 0; k < NR; k++) {
            s->hand[k] = (int8_t)st[OFF_HANDS + q * NR + k];
            s->faceup[k] = (int8_t)st[OFF_FACEUP + q * NR + k];
        }
        for (int k = 0; k < 3; k++)
            s->blind[k] = (int8_t)st[OFF_BLIND + q * 3 + k];
        s->place = (int8_t)st[OFF_PLACE + q];
        s->hand_size = (int8_t)st[OFF_HAND_SIZE + q];
        s->faceup_size = (int8_t)st[OFF_FACEUP_SIZE + q];
        s->blind_size = (int8_t)st[OFF_BLIND_SIZE + q];
    }
    for (int k = 0; k < NR; k++)
        r->pile_counts[k] = (int8_t)st[OFF_PILE_COUNTS + k];
    r->pile_size = (int16_t)st[OFF_PILE_SIZE];
    r->pile_top = (int8_t)st[OFF_PILE_TOP];
    r->pile_run = (int8_t)st[OFF_PILE_RUN];
    r->talon_pos = (int16_t)st[OFF_TALON_POS];
    r->legal = (int)st[OFF_LEGAL];
    r->next_place = (int)st[OFF_NEXT_PLACE];
    r->players_in = (int)st[OFF_PLAYERS_IN];
    r->actions = st[OFF_ACTIONS];
    r->skipped = st[OFF_SKIPPED];
    t->talon_len = (int)st[OFF_TALON_LEN];
    for (int i = r->talon_pos; i < t->talon_len; i++)
        t->talon[i] = (int8_t)st[OFF_TALON + i];
    t->six_burn = (int)st[OFF_SIX_BURN];
    t->burn_again = st[OFF_BURN_PLAYS_AGAIN] != 0;
    t->last_hand_faceup = st[OFF_LAST_HAND_WITH_FACEUP] != 0;
    t->chance = st[OFF_CHANCE_RULE] != 0;
    t->starter = (int)st[OFF_STARTER];
    t->must_play = (int)st[OFF_MUST_PLAY];
    t->limit = st[OFF_ACTION_LIMIT];
    for (int k = 0; k < NR; k++) {
        t->legal_on[k] = legal_mask(k, (int)st[OFF_LOW_RANK], st[OFF_TEN_ONLY_ON_LOWER] != 0);
        t->burn_at[k] = k == RANK_TEN ? 1 : 4;
    }
    if (t->six_burn > 0 && t->six_burn < 4)
        t->burn_at[RANK_SIX] = t->six_burn;
}

static void store(const Table *t, const Round *r, int64_t *st) {
    for (int q = 0; q < t->n; q++)
        st[OFF_PLACE + q] = r->seats[q].place;
    st[OFF_NEXT_PLACE] = r->next_place;
    st[OFF_PLAYERS_IN] = r->players_in;
    st[OFF_ACTIONS] = r->actions;
    st[OFF_SKIPPED] = r->skipped;
}

/* `engine.play_on` with `basic` at every seat: on from `seat` until `searcher`'s place is decided.
 * Brent's cycle search (`engine._brent_step`) skips whole cycles of a repeating position up to the
 * action limit, which gives the place of playing them. */
static int play_on(const Table *t, Round *r, int seat, int searcher) {
    Round snap;
    size_t compared = position_size(t->n);
    int64_t watch_from = r->actions + CYCLE_WATCH_FROM;
    int64_t power = 1, lam = 0;
    static const Seat whole_round; /* searcher -1: a place never decided, the whole round (benchmarks/engine.py) */
    const Seat *searching = searcher >= 0 ? &r->seats[searcher] : &whole_round;
    while (r->players_in > 1 && searching->place == 0) { /* R18 */
        if (r->actions >= watch_from) {
            r->turn = (int8_t)seat;
            if (lam > 0 && memcmp(r, &snap, compared) == 0) {
                int64_t skipped = (t->limit - r->actions) / lam * lam;
                r->actions += skipped;
                r->skipped += skipped;
                watch_from = INT64_MAX; /* one skip: the rest is shorter than a cycle */
            } else if (lam == power || lam == 0) {
                memcpy(&snap, r, compared);
                power = lam > 0 ? 2 * power : 1;
                lam = 1;
            } else {
                lam += 1;
            }
        }
        if (r->actions >= t->limit) /* R20 */
            break;
        seat = basic_turn(t, r, seat);
    }
    if (searching->place == 0)
        final_places(t, r);
    return searching->place;
}

int64_t idiotsim_basic_rollout(int64_t *st, int64_t seat, int64_t searcher) {
    Table t;
    Round r;
    load(&t, &r, st);
    int place = play_on(&t, &r, (int)seat, (int)searcher);
    store(&t, &r, st);
    return place;
}

int64_t idiotsim_basic_moves(const int64_t *st, int64_t seat, const int64_t *moves, int64_t n_moves,
                             int64_t *places) {
    Table t;
    Round sample, r;
    load(&t, &sample, st);
    for (int64_t i = 0; i < n_moves; i++) {
        copy_round(&r, &sample, t.n);
        int next = apply_move(&t, &r, (int)seat, moves[i]);
        if (next < 0)
            return -1;
        places[i] = play_on(&t, &r, next, (int)seat);
    }
    return 0;
}
