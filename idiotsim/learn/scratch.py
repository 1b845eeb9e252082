"""Raw memory for the learned player's numba code: scratch buffers in the caller's stack frame, and
arrays' data pointers.

A decision needs a few small buffers (the state inputs, the hidden layer). ``np.empty`` in numba is a
heap allocation with reference counting (about 100 ns each, and it forbids ``kernel``); these are an
``alloca`` in the calling function's entry block: free, and gone when it returns. The size must be a
compile-time constant (a module-level int); the contents start undefined, like ``np.empty``'s.
"""
from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload


def _alloca(builder, size, llvm_item):
    return cgutils.alloca_once(builder, llvm_item, size=size.literal_value)


@intrinsic
def stack_floats(typingctx, size):
    """A float64 buffer of `size` (a constant) in the caller's stack frame, as a pointer."""
    if not isinstance(size, types.IntegerLiteral):
        return None
    return types.CPointer(types.float64)(size), lambda context, builder, sig, args: _alloca(builder, size,
                                                                                          ir.DoubleType())


@intrinsic
def stack_ints(typingctx, size):
    """An int64 buffer of `size` (a constant) in the caller's stack frame, as a pointer."""
    if not isinstance(size, types.IntegerLiteral):
        return None
    return types.CPointer(types.int64)(size), lambda context, builder, sig, args: _alloca(builder, size,
                                                                                        ir.IntType(64))


@intrinsic
def data_pointer(typingctx, array):
    """A contiguous array's data as a pointer: indexing it has none of the negative-index wraparound
    code numba adds to an array access with a signed index (which also keeps loops from vectorising)."""
    if not isinstance(array, types.Array) or array.layout != "C":
        return None  # a strided array's elements are not data[i]
    return types.CPointer(array.dtype)(array), lambda context, builder, sig, args: context.make_array(array)(
        context, builder, args[0]).data


def readable(array):
    """(numba) `data_pointer(array)` for a C-contiguous array, the array itself for any other layout: what
    the player's loops index."""
    raise NotImplementedError("numba only")


@overload(readable)
def _readable(array):
    if isinstance(array, types.Array) and array.layout == "C":
        return lambda array: data_pointer(array)
    return lambda array: array
