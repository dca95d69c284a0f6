"""pooltool 0.6.0's small-vector maths (``pooltool/ptmath/utils.py``, ``ptmath/roots/quadratic.py`` and
``ptmath/roots/core.py``): the functions the event loop uses.

Carried from pooltool (Apache-2.0, see LICENSE and NOTICE in this folder). Changed: every dot product and
rotation is written out in a fixed order (:func:`dot3`, :func:`coordinate_rotation`,
:func:`coordinate_rotation_rows`) instead of ``np.dot``, which numba hands to BLAS, whose kernel (and so the
last bit of the result) depends on the processor and on ``OPENBLAS_CORETYPE``. The orders written out are
those of OpenBLAS's Haswell kernels (measured, see docs/PERFORMANCE.md), so that pooltool run with that kernel
is the reference bit for bit: a dot product of three summed left to right; a matrix times a vector and a
matrix times a matrix each with fused multiply-adds (:func:`fma`, correctly rounded by definition, so the
same on every processor, with or without the instruction).
"""

import cmath
import math
from math import sqrt

import numpy as np
from llvmlite import ir
from numba import jit, types
from numba.core.extending import intrinsic
from numpy.typing import NDArray

from kaisa.physics.port import constants as const


@intrinsic
def _fma(typingctx, a, b, c):
    """LLVM's ``llvm.fma.f64``: ``a * b + c`` rounded once. Where the processor has no FMA instruction,
    LLVM calls libm's ``fma``, which is exact as well: the result never depends on the processor."""
    sig = types.float64(types.float64, types.float64, types.float64)

    def codegen(context, builder, signature, args):
        double = ir.DoubleType()
        fn = builder.module.declare_intrinsic("llvm.fma", [double], ir.FunctionType(double, [double] * 3))
        return builder.call(fn, args)

    return sig, codegen


@jit(nopython=True, cache=const.use_numba_cache)
def fma(a: float, b: float, c: float) -> float:
    """``a * b + c`` with one rounding (IEEE 754 fusedMultiplyAdd)."""
    return _fma(a, b, c)


@jit(nopython=True, cache=const.use_numba_cache)
def dot3(u: NDArray[np.float64], v: NDArray[np.float64]) -> float:
    """``np.dot`` of two 3-vectors, summed left to right."""
    return (u[0] * v[0] + u[1] * v[1]) + u[2] * v[2]


@jit(nopython=True, cache=const.use_numba_cache)
def cross(u: NDArray[np.float64], v: NDArray[np.float64]) -> NDArray[np.float64]:
    """Compute cross product u x v, where u and v are 3-dimensional vectors"""
    return np.array(
        [
            u[1] * v[2] - u[2] * v[1],
            u[2] * v[0] - u[0] * v[2],
            u[0] * v[1] - u[1] * v[0],
        ]
    )


@jit(nopython=True, cache=const.use_numba_cache)
def squared_norm3d(vec: NDArray[np.float64]) -> float:
    """Calculate the squared norm of a 3D vector"""
    return vec[0] * vec[0] + vec[1] * vec[1] + vec[2] * vec[2]


@jit(nopython=True, cache=const.use_numba_cache)
def norm3d(vec: NDArray[np.float64]) -> float:
    """Calculate the norm of a 3D vector"""
    return sqrt(squared_norm3d(vec))


@jit(nopython=True, cache=const.use_numba_cache)
def unit_vector(vector: NDArray[np.float64], handle_zero: bool = False) -> NDArray[np.float64]:
    """Returns the unit vector of the vector (3D only)"""
    norm = norm3d(vector)
    if handle_zero and norm == 0.0:
        norm = 1.0
    return vector / norm


@jit(nopython=True, cache=const.use_numba_cache)
def angle(v2: NDArray[np.float64], v1: NDArray[np.float64] = np.array([1, 0])) -> float:
    """Returns counter-clockwise angle of projections of v1 and v2 onto the x-y plane"""
    ang = np.arctan2(v2[1], v2[0]) - np.arctan2(v1[1], v1[0])
    if ang < 0:
        return 2 * np.pi + ang
    return ang


@jit(nopython=True, cache=const.use_numba_cache)
def coordinate_rotation(v: NDArray[np.float64], phi: float) -> NDArray[np.float64]:
    """Rotate a 3-vector by ``phi`` about the z axis: pooltool's rotation matrix times ``v``
    (``np.dot(rotation, v)`` there), each row as OpenBLAS's Haswell matrix-vector kernel sums it: the second
    product, then the third and the first fused in."""
    cos_phi = np.cos(phi)
    sin_phi = np.sin(phi)
    out = np.empty(3, np.float64)
    out[0] = fma(cos_phi, v[0], fma(0.0, v[2], -sin_phi * v[1]))
    out[1] = fma(sin_phi, v[0], fma(0.0, v[2], cos_phi * v[1]))
    out[2] = fma(0.0, v[0], fma(1.0, v[2], 0.0 * v[1]))
    return out


@jit(nopython=True, cache=const.use_numba_cache)
def coordinate_rotation_rows(rvw: NDArray[np.float64], phi: float) -> NDArray[np.float64]:
    """Each row of a 3x3 state rotated by ``phi`` (``coordinate_rotation(rvw.T, phi).T`` in pooltool, a
    matrix product), each element as OpenBLAS's Haswell matrix-matrix kernel sums it: the first product, then
    the second and the third fused in."""
    cos_phi = np.cos(phi)
    sin_phi = np.sin(phi)
    out = np.empty((3, 3), np.float64)
    for k in range(3):
        x, y, z = rvw[k, 0], rvw[k, 1], rvw[k, 2]
        out[k, 0] = fma(0.0, z, fma(-sin_phi, y, cos_phi * x))
        out[k, 1] = fma(0.0, z, fma(cos_phi, y, sin_phi * x))
        out[k, 2] = fma(1.0, z, fma(0.0, y, 0.0 * x))
    return out


@jit(nopython=True, cache=const.use_numba_cache)
def decompose_normal_tangent(
    v: NDArray[np.float64], n: NDArray[np.float64], flip_tangent_direction: bool = False
) -> tuple[float, float, NDArray[np.float64]]:
    """Decomposes a vector into normal and tangent components given the unit normal direction"""
    v_n = dot3(n, v)
    n_cross_v = cross(n, v)
    v_t = norm3d(n_cross_v)
    if flip_tangent_direction:
        v_t = -v_t
    t = cross(n_cross_v, n) / v_t if v_t != 0 else np.zeros(3)
    return v_n, v_t, t


@jit(nopython=True, cache=const.use_numba_cache)
def point_on_line_closest_to_point(
    p1: NDArray[np.float64], p2: NDArray[np.float64], p0: NDArray[np.float64]
) -> NDArray[np.float64]:
    """Returns point on line defined by points p1 and p2 closest to the point p0"""
    diff = p2 - p1
    t = -dot3(p1 - p0, diff) / dot3(diff, diff)
    return p1 + diff * t


@jit(nopython=True, cache=const.use_numba_cache)
def surface_velocity(rvw: NDArray[np.float64], d: NDArray[np.float64], R: float) -> NDArray[np.float64]:
    """Compute velocity of a point on ball's surface (specified by unit direction vector)"""
    _, v, w = rvw
    return v + cross(w, R * d)


@jit(nopython=True, cache=const.use_numba_cache)
def tangent_surface_velocity(rvw: NDArray[np.float64], d: NDArray[np.float64], R: float) -> NDArray[np.float64]:
    """Compute velocity tangent to surface at a point on ball's surface (specified by unit direction vector)"""
    _, v, w = rvw
    v_t = v - np.sum(v * d) * d
    return v_t + cross(w, R * d)


@jit(nopython=True, cache=const.use_numba_cache)
def rel_velocity(rvw: NDArray[np.float64], R: float) -> NDArray[np.float64]:
    """Compute velocity of ball's point of contact with the cloth relative to the cloth"""
    return surface_velocity(rvw, np.array([0.0, 0.0, -1.0], dtype=np.float64), R)


@jit(nopython=True, cache=const.use_numba_cache)
def get_slide_time(rvw: NDArray[np.float64], R: float, u_s: float, g: float) -> float:
    if u_s == 0.0:
        return np.inf
    return 2 * norm3d(rel_velocity(rvw, R)) / (7 * u_s * g)


@jit(nopython=True, cache=const.use_numba_cache)
def get_roll_time(rvw: NDArray[np.float64], u_r: float, g: float) -> float:
    if u_r == 0.0:
        return np.inf
    _, v, _ = rvw
    return norm3d(v) / (u_r * g)


@jit(nopython=True, cache=const.use_numba_cache)
def get_spin_time(rvw: NDArray[np.float64], R: float, u_sp: float, g: float) -> float:
    if u_sp == 0.0:
        return np.inf
    _, _, w = rvw
    return np.abs(w[2]) * 2 / 5 * R / u_sp / g


# --- ptmath/roots/quadratic.py ------------------------------------------------------------------------


@jit(nopython=True, cache=const.use_numba_cache)
def quadratic_solve(a: float, b: float, c: float) -> tuple[float, float]:
    """Solve a quadratic equation :math:`A t^2 + B t + C = 0` (pooltool's ``quadratic.solve``)"""
    if np.abs(a) < const.EPS:
        if np.abs(b) < const.EPS:
            return math.nan, math.nan
        u = -c / b
        return u, u
    bp = b / 2
    delta = bp * bp - a * c
    u1 = (-bp - delta**0.5) / a
    u2 = -u1 - b / a
    return u1, u2


@jit(nopython=True, cache=const.use_numba_cache)
def quadratic_solve_complex(a: float, b: float, c: float) -> NDArray[np.complex128]:
    """pooltool's ``quadratic.solve_complex``"""
    _a = complex(a)
    _b = complex(b)
    _c = complex(c)

    roots = np.full(2, np.nan, dtype=np.complex128)

    if abs(_a) != 0:
        d = _b * _b - 4 * _a * _c
        sqrt_d = cmath.sqrt(d)
        sign_b = 1.0 if _b.real >= 0 else -1.0
        r1_num = -_b - sign_b * sqrt_d
        r1_den = 2 * _a
        if abs(r1_num) < 1e-14 * abs(r1_den):
            r1_num = -_b + sign_b * sqrt_d
        r1 = r1_num / r1_den
        if abs(r1) < 1e-14:
            r2 = (-_b + sqrt_d) / (2 * _a)
        else:
            r2 = (_c / _a) / r1
        roots[0] = r1
        roots[1] = r2
        return roots

    if abs(_b) != 0:
        r1 = -_c / _b
        roots[0] = r1
        return roots

    return roots


# --- ptmath/roots/core.py -----------------------------------------------------------------------------


@jit(nopython=True, cache=const.use_numba_cache)
def get_real_positive_smallest_root(
    roots: NDArray[np.complex128],
    abs_or_rel_cutoff: float = 1e-3,
    rtol: float = 1e-3,
    atol: float = 1e-9,
) -> float:
    """Returns the smallest positive and real root from a set of roots (np.inf if none)."""
    min_root = np.inf
    for i in range(len(roots)):
        root = roots[i]
        root_real = root.real
        root_imag = root.imag
        if root_real < 0.0:
            continue
        imag_mag = abs(root_imag)
        real_mag = abs(root_real)
        is_real = False
        if real_mag > abs_or_rel_cutoff:
            is_real = imag_mag < atol
        elif real_mag > 0:
            is_real = (imag_mag / real_mag) < rtol
        else:
            is_real = imag_mag == 0.0
        if is_real and root_real < min_root:
            min_root = root_real
    return min_root
