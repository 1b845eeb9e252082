"""reports/learned.md, the learned player's page, and its plot, written from its CSVs:
`idiotsim learn page --out reports`.

The page is written in Python like every report page: its words are the section functions in ``SECTIONS``
(here the opening, the design and how to regenerate; the others in ``learned_training_sections`` and
``learned_time_sections``), and every table and every figure they quote comes from a CSV of the reports
folder:

- ``learned.csv`` (``benchmarks/learned.py table``), ``learned_gate.csv`` (``gate-table``) and
  ``learned_frontier.csv`` (``frontier``, which the page also draws as ``learned_frontier.png``);
- ``learned/*.csv``: the studies whose runs wrote no CSV of their own, recorded with the decimals the page
  gave them (the learning curves, the gate's grid, the speed runs, the rollout policy).

A figure is one cell: ``Rows.row(FILE, KEY...)`` is the row of FILE whose key columns (``learned_rows.KEYS``)
hold the KEYs, and its methods write a column by the digit rule (``learned_rows.QuotedRow``). A paragraph that
quotes figures is wrapped again to ``WRAP_WIDTH`` columns (``text.paragraph``); the other text is kept as
written (``text.block``). A table is every row of its CSV (``learned_tables``), so a model's row added to a
CSV shows without a change to the code.
"""
from __future__ import annotations

from pathlib import Path

from idiotsim.experiments.learned_rows import Rows
from idiotsim.experiments.learned_tables import table
from idiotsim.experiments.learned_time_sections import frontier, gated_search, learned_rollouts, speed
from idiotsim.experiments.learned_training_sections import agreement, learning_curve, tried_and_lost
from idiotsim.experiments.report_plots import frontier_plot
from idiotsim.experiments.text import block, list_item, paragraph, tight
from idiotsim.runs.atomic_files import write_atomic

PAGE = "learned.md"
FRONTIER_PLOT = "learned_frontier.png"


def learned_page_markdown(folder) -> str:
    """The page, from `folder`'s CSVs: its sections' blocks, a blank line between blocks."""
    read = Rows(Path(folder))
    return "\n\n".join(b for section in SECTIONS for b in section(read)) + "\n"


def write_learned_page(folder) -> list[Path]:
    """Write `folder`/learned.md and learned_frontier.png from the CSVs there."""
    folder = Path(folder)
    text = learned_page_markdown(folder)
    return [write_atomic(folder / PAGE, text), frontier_plot(folder, folder / FRONTIER_PLOT)]


def opening(read: Rows) -> list[str]:
    """The title, how the page is made, the answer in one line and at length, the strength table."""
    fast24_4p = read.row("learned/speed_fast24.csv", 4)
    fast_2p = read.row("learned.csv", 2, "learned-fast-2p")
    fast_4p = read.row("learned.csv", 4, "learned-fast-4p")
    fast_5p = read.row("learned.csv", 5, "learned-fast-5p")
    fit_64_20 = read.row("learned/fits.csv", 64, 20)
    frontier_fast = read.row("learned_frontier.csv", "learned-fast-4p")
    frontier_gated = read.row("learned_frontier.csv", "learned-search-4p")
    gated_2p = read.row("learned_gate.csv", 2, "learned-search-2p")
    gated_3p = read.row("learned_gate.csv", 3, "learned-search-3p")
    gated_4p = read.row("learned_gate.csv", 4, "learned-search-4p")
    gated_5p = read.row("learned_gate.csv", 5, "learned-search-5p")
    gated_speed_2p = read.row("learned/gate_speed.csv", 2, "learned-search-2p")
    gated_speed_3p = read.row("learned/gate_speed.csv", 3, "learned-search-3p")
    gated_speed_4p = read.row("learned/gate_speed.csv", 4, "learned-search-4p")
    learned_2p = read.row("learned.csv", 2, "learned-2p")
    learned_4p = read.row("learned.csv", 4, "learned-4p")
    learned_5p = read.row("learned.csv", 5, "learned-5p")
    search_k128 = read.row("learned_frontier.csv", "search:rollouts=128,halving=1")
    return [
        block("""
            # The learned player: the search distilled into a move scorer

            *This page is written by `idiotsim learn page --out reports` from the CSVs it cites; its words are in
            idiotsim/experiments/learned_page.py and the section modules it names: edit those, then run the command
            (the test suite checks that they give this page).*
            """),
        paragraph("**In one line.** The learned players keep much of the search's strength at a sliver of its "
                  f"time: `learned-fast-4p` finishes {fast_4p.about2('vs_basic')} places a game ahead of `basic`, "
                  f"`learned-search-4p` {gated_4p.about2('vs_basic')} ahead and the search itself "
                  f"{search_k128.about2('vs_basic')}, at {frontier_fast.us('us_per_decision')}, "
                  f"{frontier_gated.us('us_per_decision')} and {search_k128.us('us_per_decision')} microseconds a "
                  "decision."),
        block("""
            **Question.** How close to the search's strength can a player that runs at engine speed get, when it
            learns from the search's judgement of every legal move (issue 18)?

            **Answer.** Three shipped points, each measured at 4 players on 20,000 held-out deals (every seat in
            turn, three `basic` opponents, 95% CIs Holm-adjusted):
            """),
        tight(
            list_item("**The strong point, `learned-search-4p`**: the learned player that searches only its close "
                      "turns (its model's move where the best leads the runner-up by more than 0.055 places; "
                      "elsewhere a search at K = 16 over the model's 3 best moves). It is "
                      f"**{gated_4p.mag('vs_basic')} places better than `basic`** ({gated_4p.lohi('vs_basic')}), "
                      f"{gated_4p.mag('vs_learned')} better than `learned-4p` and {gated_4p.mag('vs_search16')} "
                      "better than the search at K = 16 (paired, same deals), at about "
                      f"{gated_speed_4p.whole('quiet_estimate')} games/s in one seat on a quiet core, "
                      f"{gated_speed_4p.text('us_per_decision')} us a decision. **The strong target (0.25 places "
                      "at 2,000 games/s) is met at 4 players** (the stretch 0.35 is not); its strength holds at "
                      f"2, 3 and 5 players ({gated_2p.about2('vs_basic')}, {gated_3p.about2('vs_basic')}, "
                      f"{gated_5p.about2('vs_basic')}), its speed only at 5 (2 and 3 players: "
                      f"{gated_speed_2p.whole('cpu_games_per_second_one_seat')} and "
                      f"{gated_speed_3p.whole('cpu_games_per_second_one_seat')} games/s of CPU time under load; "
                      "section \"The learned player with a gated search\")."),
            list_item("**The fast point, `learned-fast-4p`**: an MLP of 24 hidden units fitted for 20 epochs with "
                      f"a learning rate that falls by 0.88 an epoch. It is **{fast_4p.mag('vs_basic')} places "
                      f"better than `basic`** ({fast_4p.lohi('vs_basic')}), {fast_4p.magci('vs_shipped')} better "
                      f"than the 8-unit model it replaced, at about {frontier_fast.us('us_per_decision')} us a "
                      f"decision: in every seat it plays about {fast24_4p.text('fast24_ratio')} of `basic`'s "
                      "games/s, about 12,000 games/s on a quiet core. **Both fast targets are met** (0.10 places, "
                      "10,000 games/s in every seat). It is the strongest pure move scorer shipped, so the six "
                      "strong-play reports ask their tips of it."),
            list_item("**`learned-4p`**, iteration 3's 64-unit MLP (fitted for 8 epochs at a constant rate): "
                      f"{learned_4p.mag('vs_basic')} places better than `basic` ({learned_4p.lohi('vs_basic')}), "
                      f"{learned_4p.magci('vs_tuned')} better than `tuned-4p`, the best cheap player before the "
                      f"learned ones, and {learned_4p.magci('vs_shipped')} better than iteration 2's model. It is "
                      "the gated search's scorer. A 64-unit model fitted like the fast one is "
                      f"{fit_64_20.mag('held_out_vs_learned4p')} better still on the held-out deals but tied on "
                      "the tuning deals, so it was not swapped in (Learning curve)."),
        ),
        block("""
            The gains came from data (3.3 times iteration 2's labelled positions, about a quarter of them from a
            learned player's own seat: DAgger), from the longer fits, and from spending a search only where the
            model is unsure. Every point lies above the search's strength-time curve (The frontier). As the
            search's rollout policy the learned player loses at equal time (Search with the learned rollout policy).
            """),
        table(read, "strength"),
        paragraph("One model serves every table size (the player count is one of its inputs), trained on 4-player "
                  "positions only; at 2, 3 and 5 players it is still the best cheap player, most at 3 and least "
                  "at 5. The rows \"iteration 2's\" are the previous `learned-Np` and `learned-fast-Np` (the same "
                  "deals and streams, so every column pairs): the iteration-3 models gain at every table size, "
                  "least at 5 players. The last column of `learned-fast-Np` is against the 8-unit model it "
                  "replaced (iteration 3's first fast model, the rows below it), whose own last column is against "
                  "iteration 2's. The 24-unit model's against-`basic` intervals are Holm-adjusted in the same "
                  "family of five as the others (the 8-unit model's place in it); the 8-unit rows keep the "
                  "figures of their own evaluation. At 2 and 5 players the 24-unit fast model is as strong as "
                  f"`learned-Np` ({fast_2p.est('vs_basic')} against {learned_2p.est('vs_basic')}, "
                  f"{fast_5p.est('vs_basic')} against {learned_5p.est('vs_basic')}); at 3 it is 0.023 behind. The "
                  "strongest estimate of each table size is bold."),
        block("""
            Numbers: [learned.csv](learned.csv) (games/s there measured with other jobs running: read their
            ratios, not the absolute figures).
            """),
    ]


def design(read: Rows) -> list[str]:
    """The player, its teacher, the data and the fit."""
    return [
        block("""
            ## Design

            - **Player** (`strategies/learned/__init__.py`, docs/strategies.md): every candidate move (each legal rank
              and count, V11 extras, pickup, V5 chance) scored by an MLP, score = v . relu(s Ws + m Wm + b) + m . w,
              with s the 217 state inputs (own cards, the pile's counts, top, run and size, burned and unseen
              counts, talon, player count, and each of the next four seats' sizes, threat, face-up and publicly
              known cards) computed once per decision, and m the 31 inputs of the move. Plus a **margin** on
              `basic`'s move: the model leaves it only for a move it scores higher by more than the margin.
              The swap (R6) is a linear head over the distinct face-up choices; the blind flip the lowest
              position. `learned-4p`: 64 hidden units, margin 0.03; `learned-fast-4p`: 24 hidden units, margin
              0.02 (before it iteration 3's 8 units, 0.03; iteration 2's models: 32 hidden units, margin 0.08,
              and 8, 0.03).
            - **Teacher**: the plain search (`halving=0`), every legal move of a position on the same K = 128
              sampled states, basic rollouts; a move's label is its mean place with its standard error.
            - **Data** (`idiotsim learn generate`), iteration 3, labelled afresh (the earlier data had the
              398-wide observation of before the pickup facts and no longer loads):
              - iteration 1 again: 2,000 games of `basic` self-play and of `search:rollouts=16` at every seat
                (seed 4001), half of the turns with more than one move and a quarter of the swaps labelled;
              - iteration 3a (DAgger): 6,000 games of iteration 2's `learned-4p`, of `search:rollouts=16` and
                of `basic`, each at one seat with `basic` at the others (seed 4003);
              - iteration 3b (DAgger): 2,920 games of this round's first student (32 hidden units trained on the
                first quarter of 1 and 3a, margin 0.03), of `search:rollouts=16` and of `basic` (seed 4004).
              - 467,289 labelled positions; positions after the 150th action of a round are left out (see
                below), leaving 414,501 turn positions (93,308 + 215,318 + 105,875) and 10,804 swaps; 10% of
                the games (never single positions) are held out: 373,961 training turn positions.
              - Labelling ran at 255 positions/s on average (1 and 3a, 23 minutes) and 190/s (3b, 10 minutes) on
                one thread at nice 0, with load averages of 11 to 14 on the 2 cores (the job had about a third
                of a core: some 800 positions per CPU second).
              - Iteration 2 (the previous `learned-4p`, `learned-fast-4p`): 2,934 games, 127,053 turn positions, seeds 4001/4002.
            - **Fit** (numpy, deterministic; `idiotsim learn train`): each move's value relative to its
              position's mean, squared error, Adam, early stopping on the held-out games; `--lr-decay F`
              multiplies the learning rate (0.003) by F after each epoch (`learned-fast-4p`: 0.88 over 20 epochs;
              `learned-4p`: a constant rate, 8 epochs).
            """),
    ]


def regenerate(read: Rows) -> list[str]:
    """The commands that make the page, its CSVs and the models."""
    return [
        block(r"""
            ## Regenerate

            This page and its plot: `idiotsim learn page --out reports` writes reports/learned.md and
            learned_frontier.png from the CSVs below and the page's words in idiotsim/experiments/learned_page.py
            (a few seconds). The CSVs: [learned.csv](learned.csv), [learned_gate.csv](learned_gate.csv) and
            [learned_frontier.csv](learned_frontier.csv) are written by `benchmarks/learned.py` (`table`,
            `gate-table`, `frontier`; a new model's row shows in the tables without a change to the code); the
            studies that wrote no CSV of their own are recorded in [learned/](learned/) with the decimals they were
            reported with (curve.csv, fits.csv, earlier.csv, agreement.csv, gate_grid.csv, gate_speed.csv,
            rollouts.csv, speed.csv, speed_sparse.csv, speed_fast24.csv).

            `--collectors` took `;` between strategies before it took commas like every other list; the model files'
            recorded commands (their meta's `command`) keep the `;`, which still reads.

            Iteration 3 (the shipped `learned-4p`, `learned-fast-4p`; about 33 minutes of labelling on a third of a core, and 8 minutes
            for each 64-unit fit; `OPENBLAS_NUM_THREADS=1`). `runs/it2/` holds the iteration-2 models (the
            `learned-4p.npz` and `learned-fast-4p.npz` of commit 11e8f0f); each folder's generate.json, and
            each model file's meta (`command`), repeat these:

                idiotsim learn generate --players 4 --seed 4001 --games 2000 --collectors basic,search:rollouts=16 --field "" \
                    --rollouts 128 --turn-share 0.5 --swap-share 0.25 --out runs/data-it1
                idiotsim learn generate --players 4 --seed 4003 --games 6000 --collectors runs/it2/model.npz,search:rollouts=16,basic \
                    --rollouts 128 --turn-share 0.5 --swap-share 0.25 --out runs/data-it3
                # the first student: the same two commands with --games 500 and --games 1500 into runs/data-it1-500 and
                # runs/data-it3-1500 (a chunk does not depend on --games), then
                idiotsim learn train --data runs/data-it1-500,runs/data-it3-1500 --hidden 32 --epochs 10 --seed 1 --margin 0.03 --out runs/m32-25
                idiotsim learn generate --players 4 --seed 4004 --games 2920 --collectors runs/m32-25/model.npz,search:rollouts=16,basic \
                    --rollouts 128 --turn-share 0.5 --swap-share 0.25 --out runs/data-it3b
                idiotsim learn train --data runs/data-it1,runs/data-it3,runs/data-it3b --hidden 64 --epochs 8 --seed 1 \
                    --margin 0.03 --out runs/it3          # strategies/learned/models/learned-4p.npz
                idiotsim learn train --data runs/data-it1,runs/data-it3 --hidden 8 --epochs 8 --seed 1 \
                    --margin 0.03 --out runs/fast-it3     # iteration 3's 8-unit learned-fast-4p.npz (commit 36a66a8)
                idiotsim learn train --data runs/data-it1,runs/data-it3,runs/data-it3b --hidden 24 --epochs 20 --lr-decay 0.88 \
                    --seed 1 --margin 0.02 --out runs/fast-it3d   # strategies/learned/models/learned-fast-4p.npz (about 5 minutes)

            (The margins were chosen with `evaluate.tune_margin` on 2,000 tuning deals, as the table above
            says.) learned.csv is `benchmarks/learned.py table`'s evaluation (the same deals, from deal 100,000
            of the evaluation seed) with iteration 2's two models added to each player count's family, and
            the paired difference of iteration 3's against them (`evaluate.paired_difference`); the 24-unit
            `learned-fast-Np` rows are the same evaluation with it in the 8-unit model's place, paired against
            that model, and the rows "Longer fits" of the learning curve are the same folders with `--hidden 16,
            24, 32, 64`, each margin tuned on 0 to 0.08 (`evaluate.tune_margin`).
            Iteration 2, as it was made:

            The data and models (about 25 minutes of labelling and 10 of training on one core):

                idiotsim learn generate --players 4 --seed 4001 --games 2000 --collectors basic,search:rollouts=16 --field "" \
                    --rollouts 128 --turn-share 0.5 --swap-share 0.25 --out runs/data4p-it1
                idiotsim learn train --data runs/data4p-it1 --kind mlp --hidden 32 --epochs 12 --seed 1 --out runs/it1
                idiotsim learn generate --players 4 --seed 4002 --games 900 --collectors runs/it1/model.npz,search:rollouts=16,basic \
                    --rollouts 128 --turn-share 0.5 --swap-share 0.25 --out runs/data4p-it2
                idiotsim learn train --data runs/data4p-it1,runs/data4p-it2 --kind mlp --hidden 32 --epochs 15 --seed 1 \
                    --margin 0.08 --out runs/strong      # iteration 2's learned-4p.npz
                idiotsim learn train --data runs/data4p-it1,runs/data4p-it2 --kind mlp --hidden 8 --epochs 6 --seed 1 \
                    --margin 0.03 --out runs/fast        # iteration 2's learned-fast-4p.npz
                .venv/bin/python benchmarks/learned.py table --out reports                # learned.csv
                .venv/bin/python benchmarks/learned.py frontier learned-4p learned-fast-4p --deals 20000 --search-deals 300 --out reports
                .venv/bin/python benchmarks/learned.py speed learned-4p learned-fast-4p tuned-4p --players 4

            The shipped iteration-1 model that collected iteration 2's positions had no swap head (basic's
            swap); `learn train` now also fits the swap head, so its swaps (only) differ from that model's. Or
            everything in one resumable command, with the margin chosen on tuning deals:
            `idiotsim learn loop --players 4 --iterations 2 --games 1000 --out runs/loop` (learn.md, plots).

            The gated search (`learned-search-Np`: no training, the shipped `learned-4p` model with
            `search:rollouts=16,gate=0.055,top=3,swap=3`): the grid on the tuning deals, its held-out table
            (learned_gate.csv, about 20 minutes of play on a loaded machine, most of it the search at K = 16), the
            speed table and the frontier point:

                .venv/bin/python benchmarks/learned.py gate search:rollouts=16,gate=0.03,top=3,swap=3 ... --deals 2000 \
                    --out /tmp/gate/grid.csv
                .venv/bin/python benchmarks/learned.py gate-table learned-search-Np --out reports
                .venv/bin/python benchmarks/learned.py speed --cpu --players 4 learned-4p learned-search-4p search:rollouts=16
                .venv/bin/python benchmarks/learned.py frontier learned-search-4p --deals 20000 --search-deals 0 --out reports
            """),
    ]


SECTIONS = (opening, design, learning_curve, agreement, frontier, learned_rollouts, gated_search, tried_and_lost,
            speed, regenerate)
