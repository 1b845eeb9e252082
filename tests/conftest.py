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


# The test files that run the search's compiled rollouts (idiotsim.strategies.search.pimc: about 2 CPU-minutes to compile
# on a cold cache, the suite's largest compilation), besides the report check, which compiles them first.
SEARCH_FILES = {"test_search", "test_search_variants", "test_search_gate", "test_search_learned", "test_belief",
                "test_disagreement", "test_rollout_speed", "test_analyze", "test_analyze_cards", "test_table_review",
                "test_table_play", "test_learn", "test_interop_openspiel", "test_basic_rounds", "test_constraints"}
SEARCH_TESTS = {"test_search_players_pass_the_generic_checks"}  # in files that mostly run other players


def pytest_collection_modifyitems(items):
    """The order tests start in. pytest-xdist hands each worker a run of consecutive tests first (a
    quarter of its share), then more in order as it finishes them. Longest first, so the long tests
    start at once instead of one of them ending the run alone on one core while the other idles; but
    the search's tests (SEARCH_FILES) last: the report check, first of all, compiles the search, and by
    the time the search's tests start, either worker loads it from numba's cache instead of both
    compiling it side by side."""
    def order(item) -> tuple:
        marker = item.get_closest_marker("long")
        searches = item.module.__name__ in SEARCH_FILES or getattr(item, "originalname", "") in SEARCH_TESTS
        return searches, -(marker.args[0] if marker else 0.0)
    items.sort(key=order)  # stable: the others keep their order
