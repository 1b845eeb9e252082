"""Fixtures shared by the test files. Plain helper functions (hand-built decks,
expected trace lines, running the CLI in-process) live in ``helpers.py``."""
import numba
import pytest


@pytest.fixture
def restore_threads():
    """Numba's thread count as it was before the test (for tests that set --threads)."""
    before = numba.get_num_threads()
    yield
    numba.set_num_threads(before)
