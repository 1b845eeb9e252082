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


def pytest_collection_modifyitems(items):
    """Longest first: pytest-xdist hands the collected tests out in order, alternating between its
    workers, so the long tests run side by side from the start instead of one of them ending the run
    alone on one core while the other core idles."""
    def seconds(item) -> float:
        marker = item.get_closest_marker("long")
        return marker.args[0] if marker else 0.0
    items.sort(key=seconds, reverse=True)  # stable: the others keep their order
