"""Option values that need no validator: typer (0.2x) checks every option's value with a pydantic
validator, built and pydantic imported on the first option read (a share of `idiotsim run`'s start-up
that benchmarks/run.py measures). A value whose result is certain is passed here without one: a default or an omitted option
(None), a string for a string option, an integer's plain digits for an integer option, and a list of
such strings. Any other value, a wrong one among them, goes to typer's own validator, built then, so
every message stays typer's.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

try:  # typer >= 0.2x validates through pydantic; older typers leave values to click's types
    from typer._coercion import RuntimeParam, build_runtime_param
except ImportError:  # pragma: no cover - an older typer: nothing to spare
    RuntimeParam = None

PLAIN_DIGITS = re.compile(r"[0-9]{1,18}")  # well inside int64: pydantic gives int(text) for these


def spare_validators(params: list) -> list:
    """Give each typer parameter not yet read the deferred coercion below (idempotent)."""
    if RuntimeParam is None:
        return params
    for param in params:
        if getattr(param, "_runtime_param", False) is None and hasattr(param, "type_descriptor"):
            param._runtime_param = _DeferredValidator(param.type_descriptor.parameter_info,
                                                      param.type_descriptor.annotation, param.type_descriptor)
    return params


def _unconstrained(info) -> bool:
    return info.parser is None and info.min is None and info.max is None and not info.clamp


def _plain_string(value) -> bool:
    if type(value) is not str:
        return False
    try:  # pydantic rejects a string it cannot encode (an undecodable argv byte kept as a surrogate)
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def plain_value(annotation, value) -> tuple[bool, object]:
    """(True, the value typer's validator would give) when that is certain, else (False, None)."""
    if annotation is str and _plain_string(value):
        return True, value
    if annotation is int:
        if type(value) is int:
            return True, value
        if _plain_string(value) and PLAIN_DIGITS.fullmatch(value):
            return True, int(value)
    if annotation == list[str] and isinstance(value, (list, tuple)) and all(map(_plain_string, value)):
        return True, list(value)
    return False, None


if RuntimeParam is not None:
    @dataclass(frozen=True)
    class _DeferredValidator(RuntimeParam):
        """typer's coercion of one parameter, its validator built only for a value `plain_value` cannot pass."""
        descriptor: object

        def _coerce_value(self, value, param, ctx):
            if _unconstrained(self.parameter_info):
                certain, result = plain_value(self.annotation, value)
                if certain:
                    return result
            return build_runtime_param(self.descriptor)._coerce_value(value, param=param, ctx=ctx)
