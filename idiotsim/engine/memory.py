"""Raw memory for numba code: arrays' data pointers, array views of a pointer, a count row added as one vector,
and scratch buffers in the caller's stack frame.

Indexing through a data pointer has none of the negative-index wraparound code numba adds to every array
access with a signed index; the engine's round loop and the search's rollouts make thousands per game.

A decision of the learned player needs a few small buffers (the state inputs, the hidden layer). ``np.empty`` in numba is a
heap allocation with reference counting (dearer than the decision it serves, and it forbids ``kernel``); these are an
``alloca`` in the calling function's entry block: free, and gone when it returns. The size must be a
compile-time constant (a module-level int); the contents start undefined, like ``np.empty``'s.
"""
from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload

from idiotsim.game.moves import COUNT_ROW


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


@intrinsic
def array_at(typingctx, pointer, start, length):
    """pointer[start:start + length] as an array (no reference count, like a slice), without the bounds
    clamping numba adds to a slice with a run-time start."""
    row_type = types.Array(pointer.dtype, 1, "C")

    def codegen(context, builder, signature, args):
        sp, first, size = args
        row = context.make_array(row_type)(context, builder)
        itemsize = context.get_constant(types.intp, context.get_abi_sizeof(context.get_data_type(pointer.dtype)))
        context.populate_array(row, data=builder.gep(sp, [first]), shape=[size], strides=[itemsize],
                               itemsize=itemsize, meminfo=None)
        return row._getvalue()
    return row_type(pointer, start, length), codegen


@intrinsic
def add_row(typingctx, pointer, dst, src):
    """pointer[dst:dst + 13] += pointer[src:src + 13] as one vector add (the two rows must not overlap): numba's
    loop reloads every count, as a store through the pointer may change the next one."""
    def codegen(context, builder, signature, args):
        sp, to, frm = args
        row = COUNT_ROW.as_pointer()
        at_dst = builder.bitcast(builder.gep(sp, [to]), row)
        added = builder.add(builder.load(at_dst, align=8),
                            builder.load(builder.bitcast(builder.gep(sp, [frm]), row), align=8))
        builder.store(added, at_dst, align=8)
        return context.get_dummy_value()
    return types.void(pointer, types.int64, types.int64), codegen


def readable(array):
    """(numba) `data_pointer(array)` for a C-contiguous array, the array itself for any other layout: what
    the player's loops index."""
    raise NotImplementedError("numba only")


@overload(readable)
def _readable(array):
    if isinstance(array, types.Array) and array.layout == "C":
        return lambda array: data_pointer(array)
    return lambda array: array
