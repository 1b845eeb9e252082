"""Questions answered with evidence: experiment specs, their designs, analysis and reports.

An experiment is a TOML spec in ``reports/`` (see ``reports/README.md`` for the
fields). ``idiotsim report reports/NAME.toml`` plays it and writes ``NAME.md``
(question, setup, numbers, the answer in one sentence, the size and why it is
enough), ``NAME.csv`` (the numbers) and ``NAME.png`` (the plot).

Layout: ``spec`` reads the TOML (``spec_checks`` checks each field, ``spec_points`` expands the
settings, ``strategy_text`` writes strategy specs); each design is one object behind the protocol of
``design`` (play, analyse, render): ``paired_design``, ``strong`` and ``seats`` (deal designs, sharing
``deals``, ``deal_play``, ``report_markdown`` and ``report_plots``), ``leaderboard`` (tournaments),
``disagreement`` (the search player's choices against basic's on positions of basic self-play) and
``chart_design`` (the strategy chart: ``chart_cells``, ``chart_seats``, ``chart_play``, ``chart_analysis``,
``chart_page``); ``text`` writes numbers and Markdown; ``index`` is the reports' README; ``writing`` writes
the files. ``learned_page`` writes the learned player's page (``idiotsim learn page``) with
``learned_rows``, ``learned_tables`` and its section modules. Statistics are in ``idiotsim.analysis.stats``; chunks run through ``idiotsim.runs.chunks``.

Everything is accumulated as exact integer sums per deal (sum, sum of squares), so
the numbers do not depend on chunking and are byte-identical for the same spec,
size and seed. Mean differences get a t interval over deals (clusters) and a
two-sided normal-approximation p-value, Holm-adjusted over the report's family of
differences; sequential mode (``--precision``) stops on the spread alone (see
``play``), so its 95% intervals keep their coverage.
"""
from idiotsim.experiments.spec import Spec, load_spec, spec_paths
from idiotsim.experiments.spec_checks import MAX_GAMES, SpecError
from idiotsim.experiments.spec_points import Point
from idiotsim.experiments.strategy_text import with_knobs
from idiotsim.experiments.writing import DESIGNS, Written, check_all, write_all, write_reduced, write_report

__all__ = ["DESIGNS", "MAX_GAMES", "Point", "Spec", "SpecError", "Written", "check_all", "load_spec", "spec_paths",
           "with_knobs", "write_all", "write_reduced", "write_report"]
