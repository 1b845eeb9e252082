"""idiotsim's C kernels: the search's `basic` rollouts (rollout.c), built on first use (build.py) and
called from numba code by symbol name (rollout.py), with numba twins where no C compiler is found."""
