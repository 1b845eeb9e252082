"""Compilation settings shared by the hot numba code.

``kernel`` compiles a function that allocates nothing with numba's reference
counting turned off (``_nrt=False``). Numba otherwise wraps every array passed
to a helper in atomic reference-count updates, which cost more than the game
logic itself (measured: 80 ns against 14 ns for one `basic` decision). A
kernel cannot create arrays or lists; functions that do use plain ``njit``.
The numpy error model drops Python's zero-division checks from `%` and `//`.
"""
from numba import njit


def kernel(*args, **options):
    return njit(*args, cache=True, _nrt=False, error_model="numpy", **options)


def _quiet_first_class_warning() -> None:
    """Strategies are first-class functions by design; numba labels that feature experimental on every compile."""
    import warnings

    from numba.core.errors import NumbaExperimentalFeatureWarning
    warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)


_quiet_first_class_warning()
