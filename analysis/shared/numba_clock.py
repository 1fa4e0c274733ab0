"""A monotonic clock compiled code can read (``time.perf_counter`` is not in numba).

:func:`clock_ns` calls the C library's ``clock_gettime(CLOCK_MONOTONIC)`` through an
LLVM declaration, not a ctypes pointer, so the functions that use it stay cacheable.
It costs about 20 ns a call: a walk can time the work it hands to a solver inside it.
"""

from __future__ import annotations

import llvmlite.ir as ir
from numba import types
from numba.core import cgutils
from numba.core.extending import intrinsic

_CLOCK_MONOTONIC = 1


@intrinsic
def clock_ns(typingctx):
    """Nanoseconds on the monotonic clock (the origin is arbitrary: take differences)."""

    def codegen(context, builder, signature, args):
        i32, i64 = ir.IntType(32), ir.IntType(64)
        timespec = ir.LiteralStructType([i64, i64])
        fnty = ir.FunctionType(i32, [i32, timespec.as_pointer()])
        gettime = cgutils.get_or_insert_function(builder.module, fnty, "clock_gettime")
        ts = cgutils.alloca_once(builder, timespec)
        builder.call(gettime, [ir.Constant(i32, _CLOCK_MONOTONIC), ts])
        sec = builder.load(cgutils.gep_inbounds(builder, ts, 0, 0))
        nsec = builder.load(cgutils.gep_inbounds(builder, ts, 0, 1))
        return builder.add(builder.mul(sec, ir.Constant(i64, 10**9)), nsec)

    return types.int64(), codegen
