"""The learned player's page (``learned_page``), its sections on training: the learning curve, the agreement
with the teacher, and what was tried and lost."""
from __future__ import annotations

from idiotsim.experiments.learned_rows import Rows
from idiotsim.experiments.learned_tables import table
from idiotsim.experiments.text import block, list_item, tight


def learning_curve(read: Rows) -> list[str]:
    """Strength against data and width, the longer fits that made the fast point, iterations 1 and 2."""
    fast_4p = read.row("learned.csv", 4, "learned-fast-4p")
    fit_24_20 = read.row("learned/fits.csv", 24, 20)
    fit_64_20 = read.row("learned/fits.csv", 64, 20)
    return [
        block("""
            ## Learning curve

            ### Iteration 3: strength against data size and width

            Every model below is the same recipe (`learn train`, seed 1, 10 epochs for 32 hidden units, 8 for 64
            and 8; the epoch with the best held-out loss kept), its margin chosen on the same 2,000 tuning deals
            (`evaluate.TUNING_SEED`, 0 / 0.03 / 0.05 / 0.08 / 0.12, then 0.01 to 0.04 around the best), and all
            are paired on those deals with the iteration-2 model they would replace. "1 + 3a at 25%" is the
            first quarter of the games of each of those two folders (500 and 1,500 games).
            """),
        table(read, "curve"),
        block("""
            (The fast rows are paired with the iteration-2 fast model. The tuning-deal figures are those the
            margins were chosen on, so slightly flattering; the held-out figures at the top are not.)

            What it says:
            - **More data helps, slowly.** At margin 0, where no choice was made on these deals, the 32-unit
              model goes -0.056, -0.070, -0.075, -0.099 as its data doubles, doubles and grows by a third
              (iteration 2's, on a third of the data, was +0.032: worse than basic). With the margin the steps
              are within the noise of 2,000 deals (+/- 0.02 a model, about +/- 0.017 paired); the held-out
              gain per decision moves from -0.007 to -0.011. Quadrupling the data bought about 0.02 to 0.03
              places a game: the 0.25 target is not within reach of more data of this kind alone.
            - **The student's own positions (3b) help**: the same recipe on 1 + 3a + 3b against 1 + 3a is
              -0.127 against -0.107 (32 units) and -0.144 against -0.135 (64 units); 3b was a third of the
              added positions.
            - **Width helps once the data is there**: 64 units against 32 on the same data, -0.135 against
              -0.107 and -0.144 against -0.127. The fast 8-unit model gains nothing from 3b (-0.099 against
              -0.107, within noise), so it ships on 1 + 3a.
            - The best margin fell from 0.08 (iteration 2) to 0.02 to 0.03: a model fitted on more data has
              smaller errors, and leaving basic's move for a smaller predicted gain pays.

            ### Iteration 3, longer fits with a falling learning rate: the fast point

            The fits above ran 8 to 10 epochs at a constant rate and most had their best held-out loss at or
            near the last epoch. The same data (1 + 3a + 3b, 373,961 training turn positions) fitted for 20
            epochs with the learning rate multiplied by 0.88 after each epoch (`learn train --epochs 20
            --lr-decay 0.88`, seed 1; 0.003 down to 0.0003), each margin chosen on the same 2,000 tuning deals
            (0 / 0.01 / 0.02 / 0.03 / 0.04 / 0.05 / 0.08), then played on the 20,000 held-out deals of the table at
            the top (from deal 100,000 of the evaluation seed; each candidate's interval unadjusted or Holm over
            the two or three candidates of its run). "Every seat / basic" is `benchmarks/learned.py`'s every-seat
            games/s over `basic`'s in the same process, the median of three interleaved rounds at load 5 to 6
            (the 10,000 games/s target is 0.0276 of a quiet core's 363,000; this load lowers every ratio a
            little: the 8-unit model measured 0.046 and 0.036 in two such runs against 0.049 on a quieter
            machine).
            """),
        table(read, "fits"),
        tight(
            block("""
                What it says:
                """),
            list_item("**The falling rate is worth more than width.** At 20 epochs with the falling rate every "
                      "width beats the constant-rate fits' held-out loss (0.02652 to 0.02702 against 0.02716 to "
                      "0.02802), and every 20-epoch fit was still improving at its last epoch; 30 epochs of 24 "
                      "units gained no more. 24 units fitted so are better on the 20,000 held-out deals than the "
                      f"shipped 64-unit `learned-4p` ({fit_24_20.est('held_out_vs_learned4p')}, "
                      f"{fit_24_20.lohi('held_out_vs_learned4p')}), and 64 units fitted so are "
                      f"{fit_64_20.ci('held_out_vs_learned4p')} better than it, but only 0.003 (-0.008 to +0.003) "
                      "better than the 24-unit model, at 0.65 of its speed."),
            block("""
                - **On the tuning deals none of them beats `learned-4p`** (+0.001 to +0.003, +/- 0.017): its margin
                  was chosen on those deals among more candidates, so its -0.144 there flatters it (it is -0.126 held
                  out); the held-out deals, on which no choice was made, separate them.
                """),
            block("""
                - The 16-unit fit has a held-out loss close to the 32-unit constant-rate fit's but plays 0.02 worse:
                  the loss does not rank models of different widths reliably; games do.
                """),
            list_item("**The fast point**: the 24-unit model is the strongest candidate whose every-seat ratio "
                      "clears 0.0276 with room (0.033: about 12,000 games/s on a quiet core, about 20% above the "
                      "target; the 32-unit fits are about 0.032 and no stronger held out); it replaced the 8-unit "
                      f"`learned-fast-4p` ({fast_4p.est('vs_shipped')}, {fast_4p.lohi('vs_shipped')}, paired on "
                      "the held-out deals)."),
            block("""
                - **A stronger strong model**: the 64-unit fit above is better than `learned-4p` on the held-out
                  deals but not on the tuning deals, so it was not swapped in (it is in runs/fast/m64-d; its
                  one-seat and every-seat speed are those of `learned-4p`, same width). A 128-unit fit was not run
                  (about an hour at this load).
                """),
        ),
        block("""
            ### Iterations 1 and 2 (the previous round)


            Strength against basic at 4 players (rotated over every seat, paired, 95% CI over deals):
            """),
        table(read, "earlier"),
        block("""
            The margins were chosen on the deals of those rows (the first deals of the evaluation seed, or the
            tuning seed); the held-out rows at the top are on other deals (from deal 100,000). Each margin row
            is the same model, so they are paired with each other.

            What the curve says:
            - **The margin decides everything.** Without it every model was worse than basic although its
              held-out gain per decision, judged by the teacher, was better (-0.0097 +/- 0.0028 for iteration
              2): the small predicted gains are mostly the model's errors, and they compound over a game's
              ~20 decisions. Leaving basic's move only for a clearly better one turns -0.01 a decision of
              offline gain into -0.10 a game.
            - **DAgger helps**: iteration 2, with the student's own positions, is ahead of iteration 1 at its
              best margin (-0.099 against -0.071 on 3,000 deals each; not on the same deals, so no paired
              interval). Judged by the teacher on iteration 2's positions (margin 0), the iteration-1 model's
              moves were no better than basic's at the seat it played itself (+0.002 +/- 0.005 a decision, 3,387
              positions), worse at the search's seat (+0.026 +/- 0.005) and better at basic's seats (-0.003 to
              -0.012): the positions a player reaches itself are the ones it had not learned.
            - **Long rounds**: search players at every seat pick up by choice and rounds go round and round
              (17% of those games ran past 300 actions); a student that learned from those positions stalled
              11% of its games. Positions after the 150th action are left out and from there the player
              plays basic's move (no voluntary pickups), which removed the stalls.
            - Data size was not varied on its own in that round: 93,647 (iteration 1) and 127,053 (iterations 1
              and 2) positions only. Iteration 3 above varies it.
            """),
    ]


def agreement(read: Rows) -> list[str]:
    """How often the model picks the teacher's best move, by the kind of that move."""
    return [
        block("""
            ## Agreement with the teacher by decision type

            Held-out positions of `learned-4p`'s training (iteration 3: 40,540 positions of the held-out games),
            by the kind of the teacher's best move against basic's (the where_basic_loses categories), at margin
            0 (with the margin the model deviates less). Iteration 2's figures, on its own 12,559 held-out
            positions, in brackets:
            """),
        table(read, "agreement"),
        block("""
            Basic picks the teacher's best move at 56.3% of them, the model at 52.7% (iteration 2: 53.1% and
            48.0%). The new model leaves basic's move where basic is already best less often (22.5% against a
            third), which is most of its gain; where the teacher plays a 2, fewer copies or a pickup it still
            finds the teacher's move only about a third of the time.
            """),
    ]


def tried_and_lost(read: Rows) -> list[str]:
    """What was tried and lost, and what was not done."""
    return [
        block("""
            ## What was tried and lost, and what was not done

            - A linear model (every state input times every move input, and the move inputs: 6,758 weights)
              against the MLP with 32 hidden units (8,031 weights), on iteration 1's first 1,100 games before long
              rounds were cut, 8 epochs: held-out gain per decision -0.047 against -0.061 (+/- 0.005), so the MLP
              was kept; the linear model was not measured in games, and costs the same per decision (its state
              part is as large).
            - Training only on `basic`'s games: no better (above).
            - No gradient-boosted trees (no time); no model per player count.
            - **The fast point misses its speed**: `learned-fast-4p` (8 hidden units) costs about what
              `learned-4p` costs (benchmarks/learned.py speed): the time goes into the 217 state inputs and
              each move's 31 inputs, not into the network, so a smaller network barely helps. 10,000 games/s in
              every seat needs about 1 us a decision; this player took about 6. (Since then the sparse
              inference, under Speed, meets it.)
            - **Iteration 3** (this round): 3.3x the data and the student's own positions gained about 0.02
              places a game over iteration 2 (held-out, paired); 64 hidden units against 32 about another 0.01
              to 0.02 on the tuning deals (64 is 0.88 of 32's speed with one seat). Not tried for lack of time:
              more epochs (the 32-unit model on 1 + 3a had its best held-out loss at its last epoch, so it may be
              undertrained), 128 units, a model per player count, a second DAgger round with the final student.
              The 8-unit model on all the data lost to the same on 1 + 3a (within noise).
            - **Longer fits with a falling rate** (after iteration 3, "Longer fits" under Learning curve): won;
              they made the fast point. Lost or not decisive there: 16 units (0.035 behind 24 held out, for 1.2x
              the speed), 32 units (no stronger than 24 held out, and slower), 64 units (0.003 better than 24,
              within noise, at 0.65 of its speed; better than `learned-4p` held out but not on the tuning deals,
              so not swapped in). 30 epochs of 24 units (best held-out loss at epoch 26, 0.02660 against
              0.02662) lost to 20 by 0.005 (0.002 to 0.009, paired, held out): the loss had flattened and the
              game strength did not follow it. Not tried: 128 units, another rate schedule, a fast model per
              player count.
            - **The fast model at 2 players plays long games**: in every seat at 2 players the 24-unit model's
              games take 195 actions against the 8-unit model's 85 (`learned-2p`: 145), so its every-seat speed
              there is about a third of the 8-unit model's (Speed); at 3, 4 and 5 players its games are 122, 118
              and 126 actions against 97, 109 and 114 (basic: 92 at 4). At 5 players it measured slower in
              every seat than the 64-unit `learned-5p` (0.016 against 0.021), which game length does not
              explain. Not studied further.
            - **Training time**: under this load a fit spent most of its time in gathering rows in Python and
              in OpenBLAS threads fighting over the 2 cores. `learn train` now gathers a batch's rows without a
              Python loop and the whole-set loss batches once per fit (the same model bytes); run it with
              `OPENBLAS_NUM_THREADS=1`. A 64-unit fit on 374,000 positions then took 7.5 minutes.
            - **Item 6, the learned player as the search's rollout policy**: better rollouts at the same K, but
              it loses at the same time per decision (the section "Search with the learned rollout policy").
            """),
    ]
