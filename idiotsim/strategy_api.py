"""The one module a strategy file imports: everything a strategy is written with, and how specs load.

Writing a strategy (docs/strategies.md): ``Strategy``, ``Knob``, ``Preset``, ``knob_ids``,
``strategy_function``, the decision codes (``play``, ``swap_choice``, ``PICKUP``, ``CHANCE``), the
observation's accessors and the helpers of the toolkit (``idiotsim.strategies.toolkit``, its home).
Loading one (``load_strategy``, ``load_strategies``, ``describe``, ...): ``idiotsim.strategies.loading``.
Constraining one (``Constraints``, ``parse_constraints``, ``constrain``, ``constrained_move``, the filters
``allowed_moves`` / ``allowed_turn_moves`` / ``allowed_swap_moves``): ``idiotsim.strategies.constraints``.

Inside the package, code imports from those homes, never from here (tests/test_layers.py).
"""
from idiotsim.strategies.constraints import (CONSTRAINT_SIZE, Constraints, allowed_moves, allowed_swap_moves,
                                             allowed_turn_moves, constrained_move, parse_constraints,
                                             split_constraints)
from idiotsim.strategies.loading import (UNFAIR_MARK, UNFAIR_NOTE, KnobSetting, SeatStrategy,
                                         StrategyInfo, constrain, describe, engine_speed_names, family_spec,
                                         is_fair_label,
                                         load_preset_file, load_strategies, load_strategy, preset_text,
                                         read_preset_file, registry, split_specs, strategy_sources)
from idiotsim.strategies.toolkit import *  # noqa: F401,F403 (the toolkit's __all__)
from idiotsim.game.moves import (ILLEGAL_BLIND_PICKUP, ILLEGAL_BLIND_POSITION, ILLEGAL_CHANCE, ILLEGAL_CODE, ILLEGAL_EMPTY_PICKUP, ILLEGAL_EXTRA, ILLEGAL_NOT_HELD, ILLEGAL_NOT_LEGAL, ILLEGAL_OPENING, ILLEGAL_SWAP, ILLEGAL_ZERO_COUNT)
from idiotsim.strategies.toolkit import __all__ as _TOOLKIT

CONSTRAINING = ["CONSTRAINT_SIZE", "Constraints", "allowed_moves", "allowed_swap_moves", "allowed_turn_moves",
                "constrain", "constrained_move", "parse_constraints", "split_constraints"]
LOADING = ["UNFAIR_MARK", "UNFAIR_NOTE", "KnobSetting", "SeatStrategy", "StrategyInfo", "describe",
           "engine_speed_names", "family_spec", "is_fair_label", "load_preset_file", "load_strategies",
           "load_strategy", "preset_text", "read_preset_file", "registry", "split_specs", "strategy_sources"]
ILLEGAL_CODES = ["ILLEGAL_BLIND_PICKUP", "ILLEGAL_BLIND_POSITION", "ILLEGAL_CHANCE", "ILLEGAL_CODE",
                 "ILLEGAL_EMPTY_PICKUP", "ILLEGAL_EXTRA", "ILLEGAL_NOT_HELD", "ILLEGAL_NOT_LEGAL", "ILLEGAL_OPENING",
                 "ILLEGAL_SWAP", "ILLEGAL_ZERO_COUNT"]
__all__ = [*_TOOLKIT, *ILLEGAL_CODES, *LOADING, *CONSTRAINING]
