"""Fixtures shared by the test files, and the order tests start in. Plain helper functions (hand-built
decks, expected trace lines, running the CLI in-process) live in ``helpers.py``."""
import numba
import pytest


@pytest.fixture
def restore_threads():
    """Numba's thread count as it was before the test (for tests that set --threads)."""
    before = numba.get_num_threads()
    yield
    numba.set_num_threads(before)


def pytest_configure(config):
    config.addinivalue_line("markers", "long(seconds): a test that takes about this long on one quiet core; "
                                       "such tests start first, longest first")


# The test files that run the search's compiled rollouts (idiotsim.search: about 2 CPU-minutes to compile
# on a cold cache, the suite's largest compilation). They share one pytest-xdist worker (`xdist_group`;
# dev.py runs the suite with --dist loadgroup), so two workers never compile the same code side by side:
# the second loads it from numba's cache instead.
SEARCH_FILES = {"test_search", "test_search_variants", "test_search_gate", "test_search_learned", "test_belief",
                "test_disagreement", "test_rollout_speed", "test_analyze", "test_analyze_cards", "test_table_review",
                "test_learn", "test_interop_openspiel", "test_shipped_reports"}
SEARCH_TESTS = {"test_search_players_pass_the_generic_checks"}  # in files that mostly run other players


def pytest_collection_modifyitems(items):
    """Longest first: pytest-xdist hands the collected tests out in order, alternating between its
    workers, so the long tests run side by side from the start instead of one of them ending the run
    alone on one core while the other core idles. The search's tests join one group (SEARCH_FILES)."""
    for item in items:
        if item.module.__name__ in SEARCH_FILES or getattr(item, "originalname", "") in SEARCH_TESTS:
            item.add_marker(pytest.mark.xdist_group("search"))
    def seconds(item) -> float:
        marker = item.get_closest_marker("long")
        return marker.args[0] if marker else 0.0
    items.sort(key=seconds, reverse=True)  # stable: the others keep their order
