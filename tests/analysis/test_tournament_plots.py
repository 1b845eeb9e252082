"""idiotsim.analysis.tournament_plots: what a person reads on each plot, measured on the laid-out figure.

A summary is built by hand (no games played) at the demo's size (26 strategies, `random` far behind the
rest, names as long as the shipped ones), at 4 strategies, and at 60 (cells too small for numbers). Text
extents come from matplotlib's renderer (``get_window_extent``): no two labels overlap, every label lies
inside the figure, a legend inside its figure and no larger than its axes; the axis ranges keep `random`
from squashing the rest, and the stalled games from stretching the length axis.
"""
from __future__ import annotations

import itertools

import numpy as np
import polars as pl
import pytest
from matplotlib.legend import Legend
from matplotlib.text import Text

from idiotsim.analysis import tournament_plots as plots
from idiotsim.analysis.figures import DPI, plt
from idiotsim.analysis.stats import Interval
from idiotsim.analysis.tournament_summary import Summary

SHIPPED = ["tuned-4p", "tuned-5p", "heuristic-tuned-5p", "spend-twos", "heuristic-tuned-4p", "tuned-3p", "counter",
           "heuristic-tuned-3p", "weighted", "chancer", "no-early-burn", "best-faceup", "count-specials", "low-early",
           "basic", "heuristic", "heuristic-tuned-2p", "hold-back", "pickup-small", "burn-early", "specials-in-hand",
           "blocker", "high-early", "keep-deal", "tuned-2p", "random"]


def made_summary(names, means, players=4, stalled=0, seed=0) -> Summary:
    """A Summary with these ranked strategies and mean places: CIs of +/- 0.01, head-to-head shares from
    the mean places, a game-length histogram around 100 actions and `stalled` games at the 10,000 limit."""
    rng = np.random.default_rng(seed)
    means = np.asarray(means, dtype=float)
    k = len(names)
    strategies = pl.DataFrame(dict(rank=list(range(1, k + 1)), strategy=names, games=[100_000] * k,
                                   mean_place=means, mean_place_lo=means - 0.01, mean_place_hi=means + 0.01))
    h2h = [dict(a=a, b=b, meetings=1000, a_ahead=float(np.clip(0.5 + (means[j] - means[i]) / 3, 0.005, 0.995)),
                lo=0.0, hi=1.0) for (i, a), (j, b) in itertools.permutations(enumerate(names), 2)]
    rates = np.array([1.1] + [1.0] * (players - 1)) / (players + 0.1)
    seats = pl.DataFrame(dict(seat=list(range(players)), win_rate=rates, lo=rates - 0.01, hi=rates + 0.01))
    places = pl.DataFrame([dict(strategy=s, place=p + 1, count=int(1000 * (1 + (p + 1 - means[i]) ** 2)))
                           for i, s in enumerate(names) for p in range(players)])
    actions = np.arange(40, 260)
    counts = (1e5 * np.exp(-0.5 * ((actions - 100) / 20) ** 2)).astype(np.int64)
    length = pl.DataFrame(dict(actions=np.append(actions, 10_000), games=np.append(counts, stalled)))
    length_stalled = pl.DataFrame(dict(actions=[10_000], games=[stalled])).filter(pl.col("games") > 0)
    clusters = np.arange(1, 11)
    convergence = pl.DataFrame([dict(strategy=s, cluster=c - 1, games=int(10_000 * c),
                                     mean_place=float(means[i] + rng.normal(0, 0.02) / np.sqrt(c)))
                                for i, s in enumerate(names) for c in clusters])
    return Summary(players, 100_000 * k // players, strategies, pl.DataFrame(), pl.DataFrame(h2h), seats, places,
                   length, (100.0, 99.8, 100.2), 99.0, convergence, Interval(stalled / 1e6, 0.0, 0.01), [],
                   length_stalled)


def demo_size() -> Summary:
    means = np.append(np.linspace(2.365, 2.725, 25), 3.972)
    return made_summary(SHIPPED, means, stalled=4_000)


def four() -> Summary:
    return made_summary(["counter", "learned-search-4p", "basic", "random"], [2.004, 2.007, 2.015, 3.974])


def two() -> Summary:
    return made_summary(["basic", "random"], [2.0, 3.0])


def mostly_stalled() -> Summary:
    """A tournament whose games mostly stall (a strategy that passes the pile back and forth)."""
    return made_summary(["basic", "hoarder", "random"], [2.2, 2.4, 3.2], stalled=30_000_000)


DRAWERS = {"mean_place": plots.draw_mean_place, "places": plots.draw_places, "head_to_head": plots.draw_head_to_head,
           "seat_wins": plots.draw_seat_wins, "game_length": plots.draw_game_length,
           "convergence": plots.draw_convergence}
SUMMARIES = {"demo-size": demo_size, "4-strategies": four, "2-strategies": two, "mostly-stalled": mostly_stalled}


@pytest.fixture(params=list(SUMMARIES))
def summary(request):
    return SUMMARIES[request.param]()


def visible_texts(fig) -> list[Text]:
    """Every text a reader sees: titles, axis labels, tick labels, annotations, cell numbers, legends."""
    texts = []
    for artist in fig.findobj(Text):
        if artist.get_visible() and artist.get_text().strip() and artist.axes is not None or \
                artist in fig.texts and artist.get_text().strip():
            if artist.axes is not None and not artist.axes.get_visible():
                continue
            texts.append(artist)
    return [t for t in texts if not is_clipped_tick(t)]


def is_clipped_tick(text: Text) -> bool:
    """A tick label matplotlib does not draw (its tick lies outside the axis range)."""
    for axis in ("xaxis", "yaxis"):
        ax = text.axes
        if ax is None:
            continue
        for tick in getattr(ax, axis).get_major_ticks() + getattr(ax, axis).get_minor_ticks():
            if text in (tick.label1, tick.label2):
                lo, hi = sorted(ax.get_xlim() if axis == "xaxis" else ax.get_ylim())
                loc = tick.get_loc()
                return not (lo - 1e-9 <= loc <= hi + 1e-9) or not text.get_visible()
    return False


def extents(fig, texts):
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    return [Text.get_window_extent(t, renderer) for t in texts]  # an annotation's text, without its arrow


@pytest.mark.parametrize("name", list(DRAWERS))
def test_no_two_labels_overlap_and_every_label_is_inside_the_figure(summary, name):
    fig = DRAWERS[name](summary)
    texts = visible_texts(fig)
    boxes = extents(fig, texts)
    width, height = fig.bbox.width, fig.bbox.height
    for t, b in zip(texts, boxes):
        assert b.x0 >= -1 and b.y0 >= -1 and b.x1 <= width + 1 and b.y1 <= height + 1, (name, t.get_text(), b)
    overlaps = [(texts[i].get_text(), texts[j].get_text())
                for i, j in itertools.combinations(range(len(texts)), 2)
                if boxes[i].width and boxes[j].width and boxes[i].overlaps(boxes[j])
                and min(boxes[i].x1, boxes[j].x1) - max(boxes[i].x0, boxes[j].x0) > 1
                and min(boxes[i].y1, boxes[j].y1) - max(boxes[i].y0, boxes[j].y0) > 1]
    assert overlaps == [], (name, overlaps[:5])
    plt.close(fig)


@pytest.mark.parametrize("name", list(DRAWERS))
def test_every_legend_lies_inside_the_figure_and_is_smaller_than_its_axes(summary, name):
    fig = DRAWERS[name](summary)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for legend in fig.findobj(Legend):
        box, axes = legend.get_window_extent(renderer), legend.axes.get_window_extent(renderer)
        assert box.x0 >= 0 and box.y0 >= 0 and box.x1 <= fig.bbox.width and box.y1 <= fig.bbox.height
        assert box.width * box.height < 0.5 * axes.width * axes.height, name
    plt.close(fig)


def test_the_demo_size_figures_keep_a_sensible_pixel_size():
    s = demo_size()
    for name, draw in DRAWERS.items():
        fig = draw(s)
        w, h = fig.get_size_inches() * DPI
        assert 500 <= w <= 1600 and 300 <= h <= 1600, (name, w, h)
        plt.close(fig)


def test_random_does_not_squash_the_mean_places_of_the_rest():
    s = demo_size()
    fig = plots.draw_mean_place(s)
    main, out = fig.axes[0], fig.axes[1]
    means = s.strategies["mean_place"].to_numpy()
    lo, hi = main.get_xlim()
    assert lo <= means[:-1].min() - 0.01 and means[:-1].max() + 0.01 <= hi  # the rest, with their CIs
    assert hi - lo < 1.5 * (means[-2] - means[0] + 0.02)  # and not much more: random is elsewhere
    assert out.get_xlim()[0] <= means[-1] <= out.get_xlim()[1]
    assert main.get_position().width > 3 * out.get_position().width
    plt.close(fig)


def test_the_mean_place_dots_are_smaller_than_their_intervals():
    s = demo_size()
    fig = plots.draw_mean_place(s)
    fig.canvas.draw()
    main = fig.axes[0]
    ci_pixels = np.diff(main.transData.transform([(2.40, 0), (2.42, 0)])[:, 0])[0]  # every CI is 0.02 wide
    line = [c for c in main.get_lines() if c.get_marker() == "o"][0]
    dot_pixels = line.get_markersize() / 72 * fig.dpi
    assert dot_pixels < 0.5 * ci_pixels
    plt.close(fig)


def test_no_broken_axis_when_the_strategies_spread_evenly():
    s = made_summary(["a", "b", "c", "d"], [2.0, 2.3, 2.6, 2.9])
    fig = plots.draw_mean_place(s)
    assert len([ax for ax in fig.axes if ax.get_yticklabels() and ax.get_yticklabels()[0].get_text() == "a"]) == 1
    plt.close(fig)


@pytest.mark.parametrize("values, out", [
    ([2.36, 2.4, 2.72, 3.97], [3]), ([1.2, 2.4, 2.45, 2.5], [0]), ([2.0, 2.3, 2.6, 2.9], []), ([2.0, 3.9], []),
    ([2.5, 2.5, 2.5], []), ([2.0, 2.01, 3.9, 3.95], [2, 3])])
def test_outlier_split(values, out):
    main, outliers = plots.outlier_split(values)
    assert outliers.tolist() == out
    assert sorted(main.tolist() + outliers.tolist()) == list(range(len(values)))


def test_stalled_games_have_their_own_bar_and_do_not_stretch_the_length_axis():
    s = demo_size()
    fig = plots.draw_game_length(s)
    main, side = fig.axes
    assert main.get_xlim()[1] < 400  # the games that did not stall end near 260; the limit is 10,000
    bars = side.patches
    assert len(bars) == 1 and bars[0].get_height() == pytest.approx(4_000 / (4_000 + s.length["games"][:-1].sum()))
    assert [t.get_text() for t in side.get_xticklabels()] == ["stalled"]
    plt.close(fig)


def test_the_length_histogram_keeps_its_height_when_most_games_stall():
    s = mostly_stalled()
    fig = plots.draw_game_length(s)
    main, side = fig.axes
    tallest = max(bar.get_height() for bar in main.patches)
    assert tallest > 0.5 * main.get_ylim()[1]  # not squashed flat by the stalled share
    assert side.patches[0].get_height() == pytest.approx(30_000_000 / (30_000_000 + s.length["games"][:-1].sum()))
    assert side.get_ylim()[1] >= 1.0  # the stalled share on its own 0 to 100% axis
    plt.close(fig)


@pytest.mark.parametrize("stalled", [4_000, 2_500_000, 30_000_000, 3_000_000_000])
def test_the_stalled_label_stays_above_its_bar_and_inside_its_panel(stalled):
    fig = plots.draw_game_length(made_summary(["a", "b", "c"], [2.2, 2.4, 3.2], stalled=stalled))
    side = fig.axes[1]
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    label, bar, panel = side.texts[0].get_window_extent(renderer), side.patches[0], side.get_window_extent(renderer)
    assert label.y0 >= bar.get_window_extent(renderer).y1  # above the bar, never across it
    assert panel.x0 <= label.x0 and label.x1 <= panel.x1 and label.y1 <= panel.y1, (label, panel)
    plt.close(fig)


def test_the_head_to_head_title_of_two_strategies_fits_its_figure():
    fig = plots.draw_head_to_head(two())
    fig.canvas.draw()
    title = next(t for t in visible_texts(fig) if t.get_text().startswith("Head to head"))
    box = title.get_window_extent(fig.canvas.get_renderer())
    assert box.x0 >= 0 and box.x1 <= fig.bbox.width, box
    assert " ".join(title.get_text().split()).endswith("(a tie counts half)")  # whole, in more lines
    plt.close(fig)


def test_seat_ticks_are_whole_seats():
    for players in (2, 4, 7):
        s = made_summary(["a", "b", "c"], [2.0, 2.2, 2.4], players=players)
        fig = plots.draw_seat_wins(s)
        ax = fig.axes[0]
        assert ax.get_xticks().tolist() == list(range(players))
        assert [t.get_text() for t in ax.get_xticklabels()] == [str(p) for p in range(players)]
        plt.close(fig)


def relative_luminance(rgba) -> float:
    def channel(c):
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgba[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@pytest.mark.parametrize("make", [demo_size, four], ids=["demo-size", "4-strategies"])
def test_head_to_head_is_centred_on_even_with_readable_numbers_that_fit(make):
    from matplotlib.colors import to_rgba
    s = make()
    fig = plots.draw_head_to_head(s)
    ax = fig.axes[0]
    image = ax.get_images()[0]
    vmin, vmax = image.norm.vmin, image.norm.vmax
    assert vmin + vmax == pytest.approx(1.0)  # centred on 50%
    k = s.strategies.height
    numbers = [t for t in ax.texts]
    assert len(numbers) == k * (k - 1)  # every cell off the diagonal
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    cell = np.abs(np.diff(ax.transData.transform([(0, 0), (1, 1)]), axis=0))[0]
    for t in numbers:
        x, y = t.get_position()
        box = t.get_window_extent(renderer)
        assert box.width <= cell[0] and box.height <= cell[1], t.get_text()
        centre = ax.transData.transform([(x, y)])[0]
        assert abs(box.x0 + box.width / 2 - centre[0]) < 1 and abs(box.y0 + box.height / 2 - centre[1]) < 1
        background = image.cmap(image.norm(image.get_array()[int(round(y)), int(round(x))]))
        light, dark = sorted([relative_luminance(background), relative_luminance(to_rgba(t.get_color()))])[::-1]
        assert (light + 0.05) / (dark + 0.05) >= 4.5, (t.get_text(), background, t.get_color())  # WCAG AA
    plt.close(fig)


def test_head_to_head_shows_no_numbers_where_they_do_not_fit():
    names = [f"strategy-{i}" for i in range(120)]
    s = made_summary(names, np.linspace(2.0, 3.0, 120))
    fig = plots.draw_head_to_head(s)
    assert len(fig.axes[0].texts) == 0
    w, h = fig.get_size_inches() * DPI
    assert w <= 2000 and h <= 2000
    plt.close(fig)


def test_convergence_colours_at_most_eight_lines_told_apart_and_labels_their_ends():
    s = demo_size()
    fig = plots.draw_convergence(s)
    lines = [line for ax in fig.axes for line in ax.get_lines() if line.get_color() != "0.75"
             and len(line.get_xdata()) > 2]
    colours = [line.get_color() for line in lines]
    assert len(lines) <= plots.HIGHLIGHTED and len(set(colours)) == len(colours)
    labels = sorted(t.get_text() for ax in fig.axes for t in ax.texts)
    assert labels == sorted(["tuned-4p", "tuned-5p", "heuristic-tuned-5p", "spend-twos", "heuristic-tuned-4p",
                             "basic", "random"])
    assert "grey: the other 19" in fig.axes[0].get_title(loc="left")
    plt.close(fig)
