"""Kaisa's physics engine: pooltool 0.6.0's event-based simulation as numba functions over plain arrays.

This is the one engine: :func:`kaisa.physics.simulate` plays every stroke here, with or without the positions
sampled for animation, for every interface (web, club, CLI, players, environments, tournaments, data sets).
pooltool itself is not imported: the kernels it would call are carried in :mod:`kaisa.physics.port` (Apache-2.0,
see its NOTICE), and pooltool is only the reference this is checked against (:mod:`kaisa.physics.reference`).

What runs here is pooltool's own loop, step for step (``pooltool.evolution.event_based.simulate``):
the next event is the earliest of the next transition and the earliest cached ball-ball, circular
cushion, linear cushion and pocket time, ties broken as pooltool breaks them (the first entry of the
cache in dictionary order, which this keeps as an insertion counter; then the priority tier and energy);
every ball is evolved to it by pooltool's ``evolve_ball_motion``; the event is resolved by the models pooltool
0.6.0 has by default (the ball-ball ``make_kiss``, Alciatore friction, ``_resolve_ball_ball`` and
``resolve_continually_touching``; the cushions' ``make_kiss`` and Stronge's compliant model; the pocket; the
transitions), written out with the same floating-point operations in the same order; the caches are updated
and invalidated as pooltool's are. Stronge's stick-slip cases
(``resolve_collinear_compliant_frictional_inelastic_collision``) and scipy's ``toms748``, Python in
pooltool, are compiled here with the same operations. The strike is pooltool's instantaneous point model
(:func:`kaisa.physics.port.strike.strike`). Where a model cannot resolve a contact (where pooltool's would
assert), the stroke is refused with a :class:`~kaisa.errors.SimulationError`, as pooltool's is.

The same bits on every machine: no BLAS and no processor-chosen numpy loop inside a stroke (every small
product is written out in a fixed order, see :mod:`kaisa.physics.port.ptmath`), numba's default (no fast-math)
so LLVM neither reorders nor fuses the loop's arithmetic.

Work whose result pooltool computes and never uses is skipped (see the pruning notes before
:func:`run_loop`): collision times later than the ball's next transition.

The kernels are compiled with ``cache=True``: the first use on a machine compiles them (55-100 s on this
project's 2-core machine) and later processes load them from numba's cache (0.1 s).

The agreement with pooltool (event sequences, final positions, sampled paths, referee rulings over random
strokes) and the speed are measured side by side by ``kaisa bench compiled`` (:mod:`kaisa.bench.compiled`)
and checked by ``tests/physics/test_compiled.py``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, cast

import numba
import numpy as np
from numpy.typing import NDArray

from kaisa.errors import SimulationError
from kaisa.model import BallId, Position, ShotRecord, Stroke, Trajectories
from kaisa.physics import engine
from kaisa.physics.engine import EngineEvent
from kaisa.physics.port import constants as ptconst
from kaisa.physics.port import ptmath as ptu
from kaisa.physics.port import solve, stronge
from kaisa.physics.port.ball_ball import _resolve_ball_ball
from kaisa.physics.port.evolve import evolve_ball_motion
from kaisa.physics.port.ptmath import quadratic_solve, quadratic_solve_complex
from kaisa.physics.port.strike import strike
from kaisa.table import OFFICIAL, Point, TableSpec

F8 = NDArray[np.float64]
I8 = NDArray[np.int64]

# --- event kinds (codes in the compiled event log) ------------------------------------------------------

K_BALL_BALL = 1
K_LINEAR = 2
K_CIRCULAR = 3
K_POCKET = 4
K_SPINNING_STATIONARY = 5
K_ROLLING_STATIONARY = 6
K_ROLLING_SPINNING = 7
K_SLIDING_ROLLING = 8

KIND_TO_EVENT_TYPE: dict[int, EngineEvent] = {
    K_BALL_BALL: EngineEvent.BALL_BALL,
    K_LINEAR: EngineEvent.BALL_LINEAR_CUSHION,
    K_CIRCULAR: EngineEvent.BALL_CIRCULAR_CUSHION,
    K_POCKET: EngineEvent.BALL_POCKET,
    K_SPINNING_STATIONARY: EngineEvent.SPINNING_STATIONARY,
    K_ROLLING_STATIONARY: EngineEvent.ROLLING_STATIONARY,
    K_ROLLING_SPINNING: EngineEvent.ROLLING_SPINNING,
    K_SLIDING_ROLLING: EngineEvent.SLIDING_ROLLING,
}

# error codes the loop returns (0 = settled)
E_TOO_MANY_EVENTS = 1
E_MODEL = 2  # a model cannot resolve a contact (where pooltool asserts or finds no root): a SimulationError

STATIONARY = ptconst.stationary
SPINNING = ptconst.spinning
SLIDING = ptconst.sliding
ROLLING = ptconst.rolling
POCKETED = ptconst.pocketed
MIN_DIST = ptconst.MIN_DIST

TWO = 2.0
"""The exponent of pooltool's ``x ** 2`` in its Python (numpy scalars, Python floats): libm's ``pow(x, 2)``,
which differs from ``x * x`` in the last bit for about one value in a thousand. Compiled, ``x ** 2`` or
``x ** 2.0`` with a constant exponent becomes ``x * x``; with this exponent handed in at run time (in the
loop's parameters) it stays a call of ``pow``, as in pooltool."""

_JIT: dict[str, Any] = {"nopython": True, "cache": True, "error_model": "numpy"}
_F = TypeVar("_F", bound=Callable[..., Any])


def _jit(fn: _F) -> _F:
    """numba's nopython jit, cached on disk, with numpy's float semantics (x / 0 is inf, as in pooltool's
    Python), typed for mypy as the function it compiles."""
    return cast("_F", numba.jit(**_JIT)(fn))


_evolve = evolve_ball_motion
_norm3d = ptu.norm3d
_unit_vector = ptu.unit_vector
_cross = ptu.cross
_surface_velocity = ptu.surface_velocity
_tangent_surface_velocity = ptu.tangent_surface_velocity
_decompose = ptu.decompose_normal_tangent
_closest = ptu.point_on_line_closest_to_point
_slide_time = ptu.get_slide_time
_roll_time = ptu.get_roll_time
_spin_time = ptu.get_spin_time
_squared_norm3d = ptu.squared_norm3d
_dot3 = ptu.dot3
_solve_complex = quadratic_solve_complex
_quadratic = quadratic_solve
_angle = ptu.angle
_get_u = solve.get_u
EPS = ptconst.EPS
_bb_time = solve.ball_ball_collision_time
_lin_time = solve.ball_linear_cushion_collision_time
_circ_time = solve.ball_circular_cushion_collision_time
_pocket_time = solve.ball_pocket_collision_time
_frequency_n = stronge.frequency_n
_frequency_t = stronge.frequency_t
_compression_duration = stronge.compression_duration
_collision_duration = stronge.collision_duration
_is_gross_slip = stronge.is_gross_slip
_v_n_restitution = stronge.v_n_restitution
_is_initial_stick = stronge.is_initial_stick
_phase = stronge.phase_angle_restitution
_t_c_shift = stronge.t_c_shift
_v_t_stick = stronge.v_t_stick
_u_t_initial_slip = stronge.u_t_initial_slip
_v_t_initial_slip = stronge.v_t_initial_slip
_stick_time_for_initial_slip = stronge.stick_time_for_initial_slip


@_jit
def _nontranslating(s: int) -> bool:
    return s in (STATIONARY, SPINNING, POCKETED)


@_jit
def _ball_energy(rvw: F8, rb: float, m: float, two: float) -> float:
    """pooltool's ``get_ball_energy`` (Python there), the same operations (``x ** two``: see :data:`TWO`)."""
    nv: float = _norm3d(rvw[1])
    nw: float = _norm3d(rvw[2])
    lke = m * nv**two / 2
    rke = (2 / 5 * m * rb**two) * nw**two / 2
    energy: float = lke + rke
    return energy


@_jit
def _next_transition(
    rvw: F8, s: int, t: float, rb: float, u_sp: float, u_r: float, u_s: float, g: float
) -> tuple[float, int]:
    if s in (STATIONARY, POCKETED):
        return np.inf, 0
    if s == SPINNING:
        return t + _spin_time(rvw, rb, u_sp, g), K_SPINNING_STATIONARY
    if s == ROLLING:
        spin = _spin_time(rvw, rb, u_sp, g)
        roll = _roll_time(rvw, u_r, g)
        if spin > roll:
            return t + roll, K_ROLLING_SPINNING
        return t + roll, K_ROLLING_STATIONARY
    return t + _slide_time(rvw, rb, u_s, g), K_SLIDING_ROLLING


@_jit
def _kiss_time(roots_complex: Any) -> tuple[float, bool]:
    """The smallest-magnitude real root, as ``make_kiss`` picks it (first of equals); False if none."""
    best = np.inf
    found = False
    for k in range(roots_complex.shape[0]):
        z = roots_complex[k]
        if abs(z.imag) / abs(z.real) < 1e-3:
            x = z.real
            if not found or abs(x) < abs(best):
                best = x
                found = True
    return best, found


@_jit
def _ball_ball_fallback(r1: F8, r2: F8, rb: float, spacer: float) -> tuple[F8, F8]:
    correction = 2 * rb - _norm3d(r2 - r1) + spacer
    r1c = r1 - correction / 2 * _unit_vector(r2 - r1)
    r2c = r2 + correction / 2 * _unit_vector(r2 - r1)
    return r1c, r2c


@_jit
def _resolve_ball_ball_event(
    rvw: F8, s: I8, i: int, j: int, rb: float, fa: float, fb: float, fc: float, e_b: float
) -> bool:
    """FrictionalInelastic.resolve: make_kiss, Alciatore friction and the model, continually touching."""
    r1 = rvw[i, 0].copy()
    r2 = rvw[j, 0].copy()
    v1 = rvw[i, 1]
    v2 = rvw[j, 1]
    spacer = MIN_DIST
    if _nontranslating(s[i]) and _nontranslating(s[j]):
        r1c, r2c = _ball_ball_fallback(r1, r2, rb, spacer)
    else:
        bx = v2[0] - v1[0]
        by = v2[1] - v1[1]
        bz = v2[2] - v1[2]
        cx = r2[0] - r1[0]
        cy = r2[1] - r1[1]
        cz = r2[2] - r1[2]
        alpha = bx * bx + by * by + bz * bz
        beta = 2 * bx * cx + 2 * by * cy + 2 * bz * cz
        gamma = cx * cx + cy * cy + cz * cz - (2 * rb + spacer) * (2 * rb + spacer)
        t, found = _kiss_time(_solve_complex(alpha, beta, gamma))
        if not found:
            return False
        r1c = r1 + t * v1
        r2c = r2 + t * v2
        midpoint = (r1 + r2) / 2
        midpoint_c = (r1c + r2c) / 2
        if _norm3d(midpoint - midpoint_c) > 5 * spacer:
            r1c, r2c = _ball_ball_fallback(r1, r2, rb, spacer)
    rvw[i, 0] = r1c
    rvw[j, 0] = r2c
    # Alciatore's friction
    unit_normal = _unit_vector(rvw[j, 0] - rvw[i, 0])
    v1_c = _tangent_surface_velocity(rvw[i], unit_normal, rb)
    v2_c = _tangent_surface_velocity(rvw[j], -unit_normal, rb)
    u_b = fa + fb * math.exp(-fc * _norm3d(v1_c - v2_c))
    rvw1, rvw2 = _resolve_ball_ball(rvw[i].copy(), rvw[j].copy(), rb, u_b, e_b)
    rvw[i] = rvw1
    rvw[j] = rvw2
    s[i] = SLIDING
    s[j] = SLIDING
    # resolve_continually_touching
    r1 = rvw[i, 0]
    r2 = rvw[j, 0]
    v1 = rvw[i, 1].copy()
    v2 = rvw[j, 1].copy()
    v1_speed = _norm3d(v1)
    v2_speed = _norm3d(v2)
    if not (v1_speed > 0 and v2_speed > 0):
        return True
    loc = _unit_vector(r2 - r1)
    v1_loc = _dot3(v1, loc)
    v2_loc = _dot3(v2, loc)
    cosine = _dot3(v1, v2) / (v1_speed * v2_speed)
    if abs(v2_loc - v1_loc) < 0.01 and cosine > 0.9:
        if v1_loc > v2_loc:
            stolen = v1_loc * 0.10
            v1_new = v1_loc - stolen
            v2_new = v2_loc + stolen
        else:
            stolen = v2_loc * 0.10
            v1_new = v1_loc + stolen
            v2_new = v2_loc - stolen
        rvw[i, 1] = v1 - v1_loc * loc + v1_new * loc
        rvw[j, 1] = v2 - v2_loc * loc + v2_new * loc
    return True


# --- Stronge's stick-slip cases: pooltool's Python and scipy's toms748, the same operations compiled ------

_EPS = float(np.finfo(float).eps)
_TOMS_XTOL = 2e-12  # scipy.optimize.toms748's defaults
_TOMS_RTOL = 4 * _EPS
_TOMS_MAXITER = 100


@_jit
def _sign(x: float) -> float:
    if x > 0:
        return 1.0
    if x < 0:
        return -1.0
    return x  # 0.0 or nan, as np.sign


@_jit
def _isclose(a: float, b: float, rtol: float, atol: float) -> bool:
    """``np.isclose`` for two finite floats."""
    return abs(a - b) <= atol + rtol * abs(b)


@_jit
def _slip_f(t: float, mode: int, p: F8) -> float:
    """The two functions whose roots pooltool's Stronge model finds with toms748 (``f`` in
    ``slip_time_for_initial_stick`` for mode 0, in ``slip_time_for_stick`` for mode 1)."""
    if mode == 0:
        v_t_0_by_v_n_0, omega_t, omega_n, mu, e_n, eta_squared = p[0], p[1], p[2], p[3], p[4], p[5]
        initial: float = abs(-v_t_0_by_v_n_0 * math.sin(omega_t * t)) - (
            mu * eta_squared * omega_t / omega_n * math.sin(_phase(t, omega_n, e_n))
        )
        return initial
    omega_n, mu, v_n_0, u_t_stick, omega_t, t_stick, v_t_stick, eta_squared, e_n = (
        p[0],
        p[1],
        p[2],
        p[3],
        p[4],
        p[5],
        p[6],
        p[7],
        p[8],
    )
    stick: float = abs(
        omega_n
        / (mu * v_n_0)
        * (u_t_stick * math.cos(omega_t * (t - t_stick)) - v_t_stick / omega_t * math.sin(omega_t * (t - t_stick)))
    ) - eta_squared * math.sin(_phase(t, omega_n, e_n))
    return stick


@_jit
def _notclose(fa: float, fb: float, fd: float, fe: float) -> bool:
    """scipy's ``_notclose([fa, fb, fd, fe], rtol=0, atol=32 eps)``."""
    fs = (fa, fb, fd, fe)
    for f in fs:
        if f == 0 or not math.isfinite(f):
            return False
    for i in range(4):
        for j in range(i + 1, 4):
            if _isclose(fs[i], fs[j], 0.0, 32 * _EPS):
                return False
    return True


@_jit
def _inverse_poly_zero(a: float, b: float, c: float, d: float, fa: float, fb: float, fc: float, fd: float) -> float:
    """scipy's ``_inverse_poly_zero``: Neville's algorithm for the cubic x(f) through four points, at f = 0."""
    xv = np.array([fa, fb, fc, fd])
    q = np.zeros((4, 4))
    dd = np.zeros((4, 4))
    q[0, 0] = dd[0, 0] = a
    q[1, 0] = dd[1, 0] = b
    q[2, 0] = dd[2, 0] = c
    q[3, 0] = dd[3, 0] = d
    for k in range(1, 4):
        for i in range(k, 4):
            alpha = dd[i, k - 1] - q[i - 1, k - 1]
            diffik = xv[i - k] - xv[i]
            q[i, k] = (xv[i] - 0.0) / diffik * alpha
            dd[i, k] = (xv[i - k] - 0.0) / diffik * alpha
    zero: float = ((q[3, 1] + q[3, 2]) + q[3, 3]) + q[3, 0]
    return zero


@_jit
def _newton_quadratic(a: float, b: float, fa: float, fb: float, d: float, fd: float, k: int) -> float:
    """scipy's ``_newton_quadratic`` on the bracket [a, b] with the outside point d."""
    big_b = (fb - fa) / (b - a)
    row1 = (fd - fb) / (d - b)
    big_a = (row1 - big_b) / (d - a)
    if big_a == 0:
        return a - fa / big_b
    r = a if _sign(big_a) * _sign(fa) > 0 else b
    for _ in range(k):
        r1 = r - ((big_a * (r - b) + big_b) * (r - a) + fa) / (big_b + big_a * (2 * r - a - b))
        if not (a < r1 < b):
            if a < r < b:
                return r
            r = (a + b) / 2.0
            break
        r = r1
    return r


@_jit
def _toms748(mode: int, p: F8, a: float, b: float) -> tuple[float, bool]:
    """``scipy.optimize.toms748(f, a, b)`` (k=1, its default tolerances) for :func:`_slip_f`; False where
    scipy would raise."""
    fa = _slip_f(a, mode, p)
    if not math.isfinite(fa):
        return np.nan, False
    if fa == 0:
        return a, True
    fb = _slip_f(b, mode, p)
    if not math.isfinite(fb):
        return np.nan, False
    if fb == 0:
        return b, True
    if _sign(fb) * _sign(fa) > 0:
        return np.nan, False
    a0, a1, f0, f1 = a, b, fa, fb
    # the first step: a secant
    if f0 == f1:
        c = np.nan
    elif abs(f1) > abs(f0):
        c = (-f0 / f1 * a1 + a0) / (1 - f0 / f1)
    else:
        c = (-f1 / f0 * a0 + a1) / (1 - f1 / f0)
    if not (a0 < c < a1):
        c = (a0 + a1) / 2.0
    fc = _slip_f(c, mode, p)
    if not math.isfinite(fc):
        return np.nan, False
    if fc == 0:
        return c, True
    if _sign(f0) * _sign(fc) > 0:
        d, fd, a0, f0 = a0, f0, c, fc
    else:
        d, fd, a1, f1 = a1, f1, c, fc
    have_e = False
    e = fe = 0.0
    iterations = 1
    while True:
        iterations += 1
        width = a1 - a0
        have_c = False
        c = np.nan
        if have_e and _notclose(f0, f1, fd, fe):
            c0 = _inverse_poly_zero(a0, a1, d, e, f0, f1, fd, fe)
            if a0 < c0 < a1:
                c = c0
                have_c = True
        if not have_c:
            c = _newton_quadratic(a0, a1, f0, f1, d, fd, 2)
        fc = _slip_f(c, mode, p)
        if not math.isfinite(fc):
            return np.nan, False
        if fc == 0:
            return c, True
        e, fe, have_e = d, fd, True
        if _sign(f0) * _sign(fc) > 0:
            d, fd, a0, f0 = a0, f0, c, fc
        else:
            d, fd, a1, f1 = a1, f1, c, fc
        first = abs(f0) < abs(f1)
        u, fu = (a0, f0) if first else (a1, f1)
        slope = (f1 - f0) / (a1 - a0)
        c = u - 2 * fu / slope
        if abs(c - u) > 0.5 * (a1 - a0):
            c = (a0 + a1) / 2.0
        else:
            if _isclose(c, u, _EPS, 0.0):
                e0 = math.frexp(f0)[1]
                e1 = math.frexp(f1)[1]
                if (e0 < e1 - 50) if first else (e1 < e0 - 50):
                    c = (31 * a0 + a1) / 32 if first else (31 * a1 + a0) / 32
                else:
                    mm = 1.0 if first else -1.0
                    c = u + (mm * abs(c) * _TOMS_RTOL + mm * _TOMS_XTOL)
                if not (a0 < c < a1):
                    c = (a0 + a1) / 2.0
        fc = _slip_f(c, mode, p)
        if not math.isfinite(fc):
            return np.nan, False
        if fc == 0:
            return c, True
        e, fe = d, fd
        if _sign(f0) * _sign(fc) > 0:
            d, fd, a0, f0 = a0, f0, c, fc
        else:
            d, fd, a1, f1 = a1, f1, c, fc
        if a1 - a0 > 0.5 * width:
            e, fe = d, fd
            z = (a0 + a1) / 2.0
            fz = _slip_f(z, mode, p)
            if not math.isfinite(fz):
                return np.nan, False
            if fz == 0:
                return z, True
            if _sign(f0) * _sign(fz) > 0:
                d, fd, a0, f0 = a0, f0, z, fz
            else:
                d, fd, a1, f1 = a1, f1, z, fz
        if _isclose(a0, a1, _TOMS_RTOL, _TOMS_XTOL):
            return (a0 + a1) / 2.0, True
        if iterations >= _TOMS_MAXITER:
            return np.nan, False


@_jit
def _collinear(
    v_t_0: float, v_n_0: float, m: float, mu: float, e_n: float, eta_squared: float
) -> tuple[float, float, bool]:
    """pooltool's ``resolve_collinear_compliant_frictional_inelastic_collision`` (Stronge's collinear
    compliant collision) with beta_t 3.5, beta_n 1 and k_n 1e3, as the cushion model calls it; False where
    pooltool would raise."""
    beta_t = 3.5
    beta_n = 1.0
    k_n = 1e3
    if not (v_t_0 <= 0 and v_n_0 < 0):
        return 0.0, 0.0, False
    beta_t_by_beta_n = beta_t / beta_n
    v_t_0_by_v_n_0 = v_t_0 / v_n_0
    omega_n = _frequency_n(beta_n, k_n, m)
    omega_t = _frequency_t(omega_n, beta_t_by_beta_n, eta_squared)
    if not (omega_t / omega_n > 1 and omega_t / omega_n < 2):
        return 0.0, 0.0, False
    t_c = _compression_duration(omega_n)
    t_f = _collision_duration(t_c, e_n)
    if _is_gross_slip(v_t_0_by_v_n_0, mu, e_n, eta_squared, beta_t_by_beta_n):
        v_t_f = v_t_0 - mu * v_n_0 * beta_t_by_beta_n * (1 + e_n)
    elif _is_initial_stick(v_t_0_by_v_n_0, mu, eta_squared):
        if _isclose(v_t_0_by_v_n_0, 0.0, 1e-5, 1e-8):
            t_slip = t_f
        elif _isclose(v_t_0_by_v_n_0, mu * eta_squared, 1e-5, 1e-8):
            t_slip = t_c
        else:
            p = np.array([v_t_0_by_v_n_0, omega_t, omega_n, mu, e_n, eta_squared])
            t_slip, ok = _toms748(0, p, t_c, t_f)
            if not (ok and t_c <= t_slip <= t_f):
                return 0.0, 0.0, False
        v_t_stick_to_slip = _v_t_stick(t_slip, omega_t, v_t_0, 0.0, 0.0)
        v_t_f = v_t_stick_to_slip + mu * v_n_0 * beta_t_by_beta_n * e_n * (
            1 + math.cos(omega_n * t_slip / e_n + _t_c_shift(e_n))
        )
    else:
        t_stick = _stick_time_for_initial_slip(v_t_0_by_v_n_0, beta_t_by_beta_n, mu, e_n, eta_squared, t_c)
        u_t_slip_to_stick = _u_t_initial_slip(t_stick, t_c, v_n_0, mu, eta_squared, omega_n, e_n)
        v_t_slip_to_stick = _v_t_initial_slip(t_stick, t_c, v_t_0, v_n_0, mu, beta_t_by_beta_n, omega_n, e_n)
        ratio = v_t_0 / v_n_0
        if _isclose(ratio, mu * eta_squared, 1e-5, 1e-8):
            t_slip = t_c
        elif _isclose(ratio, mu * ((1 + e_n) * beta_t_by_beta_n - eta_squared / e_n), 1e-5, 1e-8):
            t_slip = t_f
        else:
            p = np.array([omega_n, mu, v_n_0, u_t_slip_to_stick, omega_t, t_stick, v_t_slip_to_stick, eta_squared, e_n])
            t_slip, ok = _toms748(1, p, t_c, t_f)
            if not (ok and t_stick <= t_slip <= t_f):
                return 0.0, 0.0, False
        v_t_stick_to_slip = _v_t_stick(t_slip, omega_t, v_t_slip_to_stick, u_t_slip_to_stick, t_stick)
        v_t_f = v_t_stick_to_slip + beta_t_by_beta_n * mu * v_n_0 * e_n * (1 + math.cos(_phase(t_slip, omega_n, e_n)))
    v_n_f = _v_n_restitution(t_f, v_n_0, omega_n, e_n)
    return v_t_f, v_n_f, True


@_jit
def _stronge(rvw: F8, normal: F8, rb: float, m: float, f_c: float, e_c: float, eta_squared: float) -> bool:
    """The Stronge compliant cushion model's ``_solve`` on ``rvw`` (in place), ``normal`` its 3D normal."""
    rcv = _surface_velocity(rvw, -normal, rb)
    v_n_0, v_t_0, tangent = _decompose(rcv, normal, True)
    v_t_f, v_n_f, ok = _collinear(v_t_0, v_n_0, m, f_c, e_c, eta_squared)
    if not ok:
        return False
    dv_n = (v_n_f - v_n_0) / 1.0
    rvw[1] += dv_n * normal
    dv_t = (v_t_f - v_t_0) / 3.5
    rvw[1] += dv_t * tangent
    rvw[2] += (2.5 / rb) * _cross(-normal, dv_t * tangent)
    rvw[1, 2] = 0.0
    return True


@_jit
def _linear_fallback(r: F8, p1: F8, p2: F8, rb: float, spacer: float) -> F8:
    c: F8 = _closest(p1, p2, r)
    c[2] = r[2]
    direction: F8 = _unit_vector(r - c)
    return c + (rb + spacer) * direction


@_jit
def _resolve_linear(
    rvw: F8,
    s: int,
    p1: F8,
    p2: F8,
    normal_xy: F8,
    unit_axis: F8,
    rb: float,
    m: float,
    f_c: float,
    e_c: float,
    eta: float,
) -> bool:
    spacer = MIN_DIST
    r = rvw[0].copy()
    v = rvw[1]
    if _nontranslating(s):
        rvw[0] = _linear_fallback(r, p1, p2, rb, spacer)
    else:
        n = normal_xy if _dot3(normal_xy, v) > 0 else -normal_xy
        d0 = _dot3(r - p1, n)
        vn = _dot3(v, n)
        t1 = (rb + spacer - d0) / vn
        t2 = (-(rb + spacer) - d0) / vn
        t = t1 if abs(t1) < abs(t2) else t2
        if _norm3d(t * v) > 5 * spacer:
            rvw[0] = _linear_fallback(r, p1, p2, rb, spacer)
        else:
            rvw[0] = r + t * v
    rel = rvw[0] - p1
    normal = _unit_vector(rel - _dot3(rel, unit_axis) * unit_axis)
    return _stronge(rvw, normal, rb, m, f_c, e_c, eta)


@_jit
def _resolve_circular(
    rvw: F8,
    s: int,
    cx: float,
    cy: float,
    centre: F8,
    radius: float,
    rb: float,
    m: float,
    f_c: float,
    e_c: float,
    eta: float,
    two: float,
) -> bool:
    spacer = MIN_DIST
    r = rvw[0].copy()
    v = rvw[1]
    c = np.array([cx, cy, r[2]])
    moved = False
    if not _nontranslating(s):
        diff = r - c
        target = rb + radius + spacer
        alpha = v[0] ** two + v[1] ** two
        beta = 2 * (diff[0] * v[0] + diff[1] * v[1])
        gamma = diff[0] ** two + diff[1] ** two - target**two
        t, found = _kiss_time(_solve_complex(alpha, beta, gamma))
        if not found:
            return False
        if not (_norm3d(t * v) > 5 * spacer):
            rvw[0] = r + t * v
            moved = True
    if not moved:
        direction = _unit_vector(r - c)
        rvw[0] = c + (rb + radius + spacer) * direction
    normal = _unit_vector(rvw[0] - centre)
    return _stronge(rvw, normal, rb, m, f_c, e_c, eta)


@_jit
def _earliest(times: F8, seqs: I8, valid: Any) -> tuple[float, int]:
    """``min(cache, key=cache.__getitem__)`` over a cache kept as arrays: the earliest time, and of equal
    times the entry inserted first (a dictionary iterates in insertion order)."""
    best_t = np.inf
    best_seq = -1
    best = -1
    for k in range(times.shape[0]):
        if not valid[k]:
            continue
        tk = times[k]
        if best < 0 or tk < best_t or (tk == best_t and seqs[k] < best_seq):
            best_t = tk
            best_seq = seqs[k]
            best = k
    return best_t, best


# --- pruning: contacts that cannot happen before the ball's next transition --------------------------------
# A cached time of ball b is used only until b's next event, and b's next transition is always a candidate,
# so a cached time later than that transition is never the earliest event: pooltool computes it, then
# throws it away when b's transition invalidates it. Over [t, its transition] a translating ball follows
# pooltool's own parabola c + b u + a u^2 (a straight line when rolling), which lies inside the triangle of
# its Bezier control points. A cushion segment, cushion tip or pocket farther than the contact distance
# plus PRUNE_MARGIN from that triangle cannot be reached in time: its time is stored as infinity without
# calling the kernel. This never changes which event is next, only how much is computed.

PRUNE_MARGIN = 1e-4
"""Metres of slack on top of the contact distance before a contact is ruled out (rounding is ~1e-15 m)."""


@_jit
def _path_hull(rvw: F8, s: int, rb: float, mu: float, g: float, horizon: float) -> F8:
    """The control points (3 x 2) of the ball's path over ``horizon`` seconds, as pooltool's collision
    kernels model it."""
    vx = rvw[1, 0]
    vy = rvw[1, 1]
    speed = math.sqrt(vx * vx + vy * vy + rvw[1, 2] * rvw[1, 2])
    planar = math.sqrt(vx * vx + vy * vy)
    bx = speed * vx / planar if planar > 0 else 0.0
    by = speed * vy / planar if planar > 0 else 0.0
    ux = vx / planar if planar > 0 else 1.0
    uy = vy / planar if planar > 0 else 0.0
    if s != ROLLING:
        # the relative velocity of the contact point with the cloth: v + w x (0, 0, -R)
        rx = vx - rvw[2, 1] * rb
        ry = vy + rvw[2, 0] * rb
        rz = rvw[1, 2]
        norm = math.sqrt(rx * rx + ry * ry + rz * rz)
        if norm > 0:
            ux = rx / norm
            uy = ry / norm
    k = -0.5 * mu * g
    h = horizon * (1 + 1e-9) + 1e-9
    out = np.empty((3, 2))
    out[0, 0] = rvw[0, 0]
    out[0, 1] = rvw[0, 1]
    out[1, 0] = rvw[0, 0] + bx * h / 2
    out[1, 1] = rvw[0, 1] + by * h / 2
    out[2, 0] = rvw[0, 0] + bx * h + k * ux * h * h
    out[2, 1] = rvw[0, 1] + by * h + k * uy * h * h
    return out


@_jit
def _point_segment(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    dx = bx - ax
    dy = by - ay
    length2 = dx * dx + dy * dy
    u = ((px - ax) * dx + (py - ay) * dy) / length2 if length2 > 0 else 0.0
    u = min(1.0, max(0.0, u))
    ex = ax + u * dx - px
    ey = ay + u * dy - py
    return math.sqrt(ex * ex + ey * ey)


@_jit
def _side(ax: float, ay: float, bx: float, by: float, px: float, py: float) -> float:
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax)


@_jit
def _inside(hull: F8, px: float, py: float) -> bool:
    d0 = _side(hull[0, 0], hull[0, 1], hull[1, 0], hull[1, 1], px, py)
    d1 = _side(hull[1, 0], hull[1, 1], hull[2, 0], hull[2, 1], px, py)
    d2 = _side(hull[2, 0], hull[2, 1], hull[0, 0], hull[0, 1], px, py)
    negative = d0 < 0 or d1 < 0 or d2 < 0
    positive = d0 > 0 or d1 > 0 or d2 > 0
    return not (negative and positive)


@_jit
def _crosses(ax: float, ay: float, bx: float, by: float, cx: float, cy: float, dx: float, dy: float) -> bool:
    d1 = _side(ax, ay, bx, by, cx, cy)
    d2 = _side(ax, ay, bx, by, dx, dy)
    d3 = _side(cx, cy, dx, dy, ax, ay)
    d4 = _side(cx, cy, dx, dy, bx, by)
    return (d1 * d2 <= 0) and (d3 * d4 <= 0)


@_jit
def _hull_point(hull: F8, px: float, py: float) -> float:
    """Distance from a point to the triangle ``hull`` (0 inside)."""
    if _inside(hull, px, py):
        return 0.0
    best = np.inf
    for e in range(3):
        f = (e + 1) % 3
        best = min(best, _point_segment(px, py, hull[e, 0], hull[e, 1], hull[f, 0], hull[f, 1]))
    return best


@_jit
def _hull_segment(hull: F8, p1: F8, p2: F8) -> float:
    """Distance from the segment p1-p2 (x, y) to the triangle ``hull`` (0 if they meet)."""
    ax, ay, bx, by = p1[0], p1[1], p2[0], p2[1]
    if _inside(hull, ax, ay) or _inside(hull, bx, by):
        return 0.0
    best = np.inf
    for e in range(3):
        f = (e + 1) % 3
        cx, cy, dx, dy = hull[e, 0], hull[e, 1], hull[f, 0], hull[f, 1]
        if _crosses(ax, ay, bx, by, cx, cy, dx, dy):
            return 0.0
        best = min(
            best,
            _point_segment(ax, ay, cx, cy, dx, dy),
            _point_segment(bx, by, cx, cy, dx, dy),
            _point_segment(cx, cy, ax, ay, bx, by),
            _point_segment(dx, dy, ax, ay, bx, by),
        )
    return best


@_jit
def _hull_hull(h1: F8, h2: F8) -> float:
    """Distance between two triangles (0 if they meet)."""
    for e in range(3):
        if _inside(h2, h1[e, 0], h1[e, 1]) or _inside(h1, h2[e, 0], h2[e, 1]):
            return 0.0
    best = np.inf
    for e in range(3):
        f = (e + 1) % 3
        best = min(best, _hull_segment(h2, h1[e], h1[f]))
    return best


@_jit
def _point_hull(rvw: F8) -> F8:
    out = np.empty((3, 2))
    for e in range(3):
        out[e, 0] = rvw[0, 0]
        out[e, 1] = rvw[0, 1]
    return out


@_jit
def _lin_time_within(
    rvw: F8,
    s: int,
    lx: float,
    ly: float,
    l0: float,
    p1: F8,
    p2: F8,
    direction: int,
    mu: float,
    m: float,
    g: float,
    rb: float,
    horizon: float,
) -> float:
    """pooltool's ``ball_linear_cushion_collision_time`` where it is at most ``horizon``, else infinity.

    The same roots from the same operations; pooltool evolves the ball to every positive root to check that
    the contact is on the segment and keeps the smallest that is: this checks the roots up to the horizon in
    increasing order and stops at the first on the segment, the same number. A later contact is never used
    (see the pruning notes above), so it is not looked for.
    """
    if s in (SPINNING, POCKETED, STATIONARY):
        return np.inf
    phi = _angle(rvw[1])
    v = _norm3d(rvw[1])
    u = _get_u(rvw, rb, phi, s)
    k = -0.5 * mu * g
    cos_phi = np.cos(phi)
    sin_phi = np.sin(phi)
    ax = k * (u[0] * cos_phi - u[1] * sin_phi)
    ay = k * (u[0] * sin_phi + u[1] * cos_phi)
    bx, by = v * cos_phi, v * sin_phi
    cx, cy = rvw[0, 0], rvw[0, 1]
    big_a = lx * ax + ly * ay
    big_b = lx * bx + ly * by
    roots = np.full(4, np.nan)
    if direction == 0:
        c = l0 + lx * cx + ly * cy + rb * np.sqrt(lx * lx + ly * ly)
        roots[0], roots[1] = _quadratic(big_a, big_b, c)
    elif direction == 1:
        c = l0 + lx * cx + ly * cy - rb * np.sqrt(lx * lx + ly * ly)
        roots[0], roots[1] = _quadratic(big_a, big_b, c)
    else:
        c1 = l0 + lx * cx + ly * cy + rb * np.sqrt(lx * lx + ly * ly)
        c2 = l0 + lx * cx + ly * cy - rb * np.sqrt(lx * lx + ly * ly)
        roots[0], roots[1] = _quadratic(big_a, big_b, c1)
        roots[2], roots[3] = _quadratic(big_a, big_b, c2)
    limit = horizon * (1 + 1e-9) + 1e-9
    checked = np.zeros(4, np.bool_)
    while True:
        best = -1
        for q in range(4):
            candidate = roots[q]
            if checked[q] or math.isnan(candidate) or candidate <= EPS or candidate > limit:
                continue
            if best < 0 or candidate < roots[best]:
                best = q
        if best < 0:
            return np.inf
        checked[best] = True
        root: float = roots[best]
        rvw_dtau, _ = _evolve(s, rvw, rb, m, mu, 1, mu, g, root)
        s_score = -_dot3(p1 - rvw_dtau[0], p2 - p1) / _dot3(p2 - p1, p2 - p1)
        if 0 <= s_score <= 1:
            return root


@_jit
def _apart(rvw: F8, s: I8, i: int, j: int, tr_t: F8, t: float, rb: float, u_s: float, u_r: float, g: float) -> bool:
    """Whether balls i and j stay more than two radii (plus the margin) apart until the first of their
    next transitions, so that their contact time, if any, is never used."""
    horizon = min(tr_t[i], tr_t[j]) - t
    if not math.isfinite(horizon):
        return False
    if _nontranslating(s[i]):
        hull_i = _point_hull(rvw[i])
    else:
        hull_i = _path_hull(rvw[i], s[i], rb, u_s if s[i] == SLIDING else u_r, g, horizon)
    if _nontranslating(s[j]):
        hull_j = _point_hull(rvw[j])
    else:
        hull_j = _path_hull(rvw[j], s[j], rb, u_s if s[j] == SLIDING else u_r, g, horizon)
    for e in range(3):
        for q in range(2):
            if not (math.isfinite(hull_i[e, q]) and math.isfinite(hull_j[e, q])):
                return False
    return _hull_hull(hull_i, hull_j) > 2 * rb + PRUNE_MARGIN


@_jit
def run_loop(
    rvw: F8,
    s: I8,
    params: F8,
    tr_t: F8,
    tr_k: I8,
    bb_valid: Any,
    cue: int,
    lin_p1: F8,
    lin_p2: F8,
    lin_coef: F8,
    lin_dir: I8,
    lin_normal: F8,
    lin_axis: F8,
    circ_centre: F8,
    circ_coef: F8,
    pocket_centre: F8,
    pocket_coef: F8,
    max_events: int,
    prune_on: bool = True,
) -> tuple[int, float, I8, F8, F8, F8, I8]:
    """Run pooltool's event loop from just after the strike (time 0) until every ball rests.

    ``rvw`` (n x 3 x 3) and ``s`` (n) are the balls' states, changed in place. ``params`` holds rb, m,
    u_s, u_sp, u_r, g, e_b, e_c, f_c, the friction fit a, b, c and Stronge's eta squared. ``tr_t``/``tr_k``
    are each ball's next transition. ``bb_valid`` says which ball pairs have a cached (infinite) time
    from the strike's step: those not involving the cue ball.

    Returns (error code, final time, the events' codes [kind, a, b], their times, the agents' positions
    before resolution [x_a, y_a, x_b, y_b], the agents' states after resolution [agent, rvw] and motion
    states [agent]: what the animation's samples are evolved from).
    """
    n = rvw.shape[0]
    n_lin = lin_p1.shape[0]
    n_circ = circ_centre.shape[0]
    n_pocket = pocket_centre.shape[0]
    rb = params[0]
    m = params[1]
    u_s = params[2]
    u_sp = params[3]
    u_r = params[4]
    g = params[5]
    e_b = params[6]
    e_c = params[7]
    f_c = params[8]
    fa = params[9]
    fb = params[10]
    fc = params[11]
    eta = params[12]
    two = params[13]

    # the collision caches: one flat array per event type, with an insertion counter
    n_pairs = n * (n - 1) // 2
    pair_i = np.empty(n_pairs, np.int64)
    pair_j = np.empty(n_pairs, np.int64)
    k = 0
    for i in range(n):
        for j in range(i + 1, n):
            pair_i[k] = i
            pair_j[k] = j
            k += 1
    bb_t = np.full(n_pairs, np.inf)
    bb_seq = np.zeros(n_pairs, np.int64)
    bb_ok = np.zeros(n_pairs, np.bool_)
    for k in range(n_pairs):
        bb_ok[k] = bb_valid[pair_i[k], pair_j[k]]
    lin_t = np.full(n * n_lin, np.inf)
    lin_seq = np.zeros(n * n_lin, np.int64)
    lin_ok = np.zeros(n * n_lin, np.bool_)
    circ_t = np.full(n * n_circ, np.inf)
    circ_seq = np.zeros(n * n_circ, np.int64)
    circ_ok = np.zeros(n * n_circ, np.bool_)
    pk_t = np.full(n * n_pocket, np.inf)
    pk_seq = np.zeros(n * n_pocket, np.int64)
    pk_ok = np.zeros(n * n_pocket, np.bool_)
    for b in range(n):
        if b != cue:
            lin_ok[b * n_lin : (b + 1) * n_lin] = True
            circ_ok[b * n_circ : (b + 1) * n_circ] = True
            pk_ok[b * n_pocket : (b + 1) * n_pocket] = True
    seq = 1
    hulls = np.zeros((n, 3, 2))
    prunable = np.zeros(n, np.bool_)

    capacity = 256
    codes = np.zeros((capacity, 3), np.int64)
    times = np.zeros(capacity)
    where = np.zeros((capacity, 4))
    post = np.zeros((capacity, 2, 3, 3))
    post_s = np.zeros((capacity, 2), np.int64)
    count = 0
    steps = 1  # the strike was the first step
    t = 0.0
    cand_t = np.empty(5)
    while True:
        # --- the next event (get_next_event) ------------------------------------------------------
        tr_best = 0
        for b in range(1, n):
            if tr_t[b] < tr_t[tr_best]:
                tr_best = b
        for k in range(n_pairs):
            if bb_ok[k]:
                continue
            i = pair_i[k]
            j = pair_j[k]
            si = s[i]
            sj = s[j]
            if si == POCKETED or sj == POCKETED or (_nontranslating(si) and _nontranslating(sj)):
                bb_t[k] = np.inf
            elif _norm3d(rvw[i, 0] - rvw[j, 0]) < rb + rb:
                bb_t[k] = t
            elif prune_on and _apart(rvw, s, i, j, tr_t, t, rb, u_s, u_r, g):
                bb_t[k] = np.inf
            else:
                mu1 = u_s if si == SLIDING else u_r
                mu2 = u_s if sj == SLIDING else u_r
                bb_t[k] = t + _bb_time(rvw[i], rvw[j], si, sj, mu1, mu2, m, m, g, g, rb)
            bb_ok[k] = True
            bb_seq[k] = seq
            seq += 1
        for b in range(n):
            sb = s[b]
            moving = not _nontranslating(sb)
            mu = u_s if sb == SLIDING else u_r
            if moving and not (
                circ_ok[b * n_circ : (b + 1) * n_circ].all()
                and lin_ok[b * n_lin : (b + 1) * n_lin].all()
                and pk_ok[b * n_pocket : (b + 1) * n_pocket].all()
            ):
                hull = _path_hull(rvw[b], sb, rb, mu, g, tr_t[b] - t)
                prune = math.isfinite(hull[2, 0]) and math.isfinite(hull[2, 1]) and prune_on
                hulls[b] = hull
                prunable[b] = prune
            for c in range(n_circ):
                k = b * n_circ + c
                if circ_ok[k]:
                    continue
                if (
                    moving
                    and prunable[b]
                    and _hull_point(hulls[b], circ_coef[c, 0], circ_coef[c, 1]) > rb + circ_coef[c, 2] + PRUNE_MARGIN
                ):
                    circ_t[k] = np.inf
                elif moving:
                    circ_t[k] = t + _circ_time(
                        rvw[b], sb, circ_coef[c, 0], circ_coef[c, 1], circ_coef[c, 2], mu, m, g, rb
                    )
                else:
                    circ_t[k] = np.inf
                circ_ok[k] = True
                circ_seq[k] = seq
                seq += 1
        for b in range(n):
            sb = s[b]
            moving = not _nontranslating(sb)
            mu = u_s if sb == SLIDING else u_r
            for c in range(n_lin):
                k = b * n_lin + c
                if lin_ok[k]:
                    continue
                if moving and prunable[b] and _hull_segment(hulls[b], lin_p1[c], lin_p2[c]) > rb + PRUNE_MARGIN:
                    lin_t[k] = np.inf
                elif moving and prunable[b]:
                    lin_t[k] = t + _lin_time_within(
                        rvw[b],
                        sb,
                        lin_coef[c, 0],
                        lin_coef[c, 1],
                        lin_coef[c, 2],
                        lin_p1[c],
                        lin_p2[c],
                        lin_dir[c],
                        mu,
                        m,
                        g,
                        rb,
                        tr_t[b] - t,
                    )
                elif moving:
                    lin_t[k] = t + _lin_time(
                        rvw[b],
                        sb,
                        lin_coef[c, 0],
                        lin_coef[c, 1],
                        lin_coef[c, 2],
                        lin_p1[c],
                        lin_p2[c],
                        lin_dir[c],
                        mu,
                        m,
                        g,
                        rb,
                    )
                else:
                    lin_t[k] = np.inf
                lin_ok[k] = True
                lin_seq[k] = seq
                seq += 1
        for b in range(n):
            sb = s[b]
            moving = not _nontranslating(sb)
            mu = u_s if sb == SLIDING else u_r
            for c in range(n_pocket):
                k = b * n_pocket + c
                if pk_ok[k]:
                    continue
                if (
                    moving
                    and prunable[b]
                    and _hull_point(hulls[b], pocket_coef[c, 0], pocket_coef[c, 1]) > pocket_coef[c, 2] + PRUNE_MARGIN
                ):
                    pk_t[k] = np.inf
                elif moving:
                    pk_t[k] = t + _pocket_time(
                        rvw[b], sb, pocket_coef[c, 0], pocket_coef[c, 1], pocket_coef[c, 2], mu, m, g, rb
                    )
                else:
                    pk_t[k] = np.inf
                pk_ok[k] = True
                pk_seq[k] = seq
                seq += 1
        cand_t[0] = tr_t[tr_best]
        cand_t[1], bb_best = _earliest(bb_t, bb_seq, bb_ok)
        if n_pairs == 0:
            cand_t[1] = np.inf
        cand_t[2], circ_best = _earliest(circ_t, circ_seq, circ_ok)
        cand_t[3], lin_best = _earliest(lin_t, lin_seq, lin_ok)
        cand_t[4], pk_best = _earliest(pk_t, pk_seq, pk_ok)
        min_time = cand_t[0]
        for c in range(1, 5):
            if cand_t[c] < min_time:
                min_time = cand_t[c]
        if min_time == np.inf:
            break
        chosen = -1
        best_tier = 100
        best_neg_energy = 0.0
        for c in range(5):
            if cand_t[c] != min_time:
                continue
            if c == 0:
                tier = 2
                energy = _ball_energy(rvw[tr_best], rb, m, two)
            elif c == 1:
                tier = 3
                energy = _squared_norm3d(rvw[pair_i[bb_best], 1] - rvw[pair_j[bb_best], 1])
            elif c == 2:
                tier = 3
                energy = _ball_energy(rvw[circ_best // n_circ], rb, m, two)
            elif c == 3:
                tier = 3
                energy = _ball_energy(rvw[lin_best // n_lin], rb, m, two)
            else:
                tier = 2
                energy = _ball_energy(rvw[pk_best // n_pocket], rb, m, two)
            if chosen < 0 or tier < best_tier or (tier == best_tier and -energy < best_neg_energy):
                chosen = c
                best_tier = tier
                best_neg_energy = -energy
        if chosen == 0:
            kind = tr_k[tr_best]
            a = tr_best
            other = -1
        elif chosen == 1:
            kind = K_BALL_BALL
            a = pair_i[bb_best]
            other = pair_j[bb_best]
        elif chosen == 2:
            kind = K_CIRCULAR
            a = circ_best // n_circ
            other = circ_best % n_circ
        elif chosen == 3:
            kind = K_LINEAR
            a = lin_best // n_lin
            other = lin_best % n_lin
        else:
            kind = K_POCKET
            a = pk_best // n_pocket
            other = pk_best % n_pocket

        # --- evolve every ball to it -----------------------------------------------------------------
        dt = min_time - t
        for b in range(n):
            new_rvw, _ = _evolve(s[b], rvw[b], rb, m, u_s, u_sp, u_r, g, dt)
            rvw[b] = new_rvw
        state_t = t + dt  # a ball's clock after evolving; collisions set it to the event's time

        # --- record ----------------------------------------------------------------------------------
        if count == capacity:
            capacity *= 2
            codes2 = np.zeros((capacity, 3), np.int64)
            times2 = np.zeros(capacity)
            where2 = np.zeros((capacity, 4))
            post2 = np.zeros((capacity, 2, 3, 3))
            post_s2 = np.zeros((capacity, 2), np.int64)
            codes2[:count] = codes[:count]
            times2[:count] = times[:count]
            where2[:count] = where[:count]
            post2[:count] = post[:count]
            post_s2[:count] = post_s[:count]
            codes = codes2
            times = times2
            where = where2
            post = post2
            post_s = post_s2
        codes[count, 0] = kind
        codes[count, 1] = a
        codes[count, 2] = other
        times[count] = min_time
        where[count, 0] = rvw[a, 0, 0]
        where[count, 1] = rvw[a, 0, 1]
        if kind == K_BALL_BALL:
            where[count, 2] = rvw[other, 0, 0]
            where[count, 3] = rvw[other, 0, 1]
        count += 1

        # --- resolve ---------------------------------------------------------------------------------
        ok = True
        if kind == K_BALL_BALL:
            ok = _resolve_ball_ball_event(rvw, s, a, other, rb, fa, fb, fc, e_b)
            tr_t[a], tr_k[a] = _next_transition(rvw[a], s[a], min_time, rb, u_sp, u_r, u_s, g)
            tr_t[other], tr_k[other] = _next_transition(rvw[other], s[other], min_time, rb, u_sp, u_r, u_s, g)
        elif kind == K_LINEAR:
            ok = _resolve_linear(
                rvw[a], s[a], lin_p1[other], lin_p2[other], lin_normal[other], lin_axis[other], rb, m, f_c, e_c, eta
            )
            s[a] = SLIDING
            tr_t[a], tr_k[a] = _next_transition(rvw[a], s[a], min_time, rb, u_sp, u_r, u_s, g)
        elif kind == K_CIRCULAR:
            ok = _resolve_circular(
                rvw[a],
                s[a],
                circ_coef[other, 0],
                circ_coef[other, 1],
                circ_centre[other],
                circ_coef[other, 2],
                rb,
                m,
                f_c,
                e_c,
                eta,
                two,
            )
            s[a] = SLIDING
            tr_t[a], tr_k[a] = _next_transition(rvw[a], s[a], min_time, rb, u_sp, u_r, u_s, g)
        elif kind == K_POCKET:
            rvw[a, 0, 0] = pocket_coef[other, 0]
            rvw[a, 0, 1] = pocket_coef[other, 1]
            rvw[a, 0, 2] = -pocket_coef[other, 3]
            rvw[a, 1] = 0.0
            rvw[a, 2] = 0.0
            s[a] = POCKETED
            tr_t[a] = np.inf
            tr_k[a] = 0
        else:
            if kind in (K_SPINNING_STATIONARY, K_ROLLING_STATIONARY):
                for q in range(3):
                    if not (abs(rvw[a, 1, q]) < 1e-12 and abs(rvw[a, 2, q]) < 1e-12):
                        ok = False
                rvw[a, 1] = 0.0
                rvw[a, 2] = 0.0
                s[a] = STATIONARY
            elif kind == K_ROLLING_SPINNING:
                for q in range(3):
                    if not abs(rvw[a, 1, q]) < 1e-12:
                        ok = False
                for q in range(2):
                    if not abs(rvw[a, 2, q]) < 1e-12:
                        ok = False
                rvw[a, 1] = 0.0
                rvw[a, 2, 0] = 0.0
                rvw[a, 2, 1] = 0.0
                s[a] = SPINNING
            else:
                s[a] = ROLLING
            tr_t[a], tr_k[a] = _next_transition(rvw[a], s[a], state_t, rb, u_sp, u_r, u_s, g)
        t = min_time
        post[count - 1, 0] = rvw[a]
        post_s[count - 1, 0] = s[a]
        if kind == K_BALL_BALL:
            post[count - 1, 1] = rvw[other]
            post_s[count - 1, 1] = s[other]
        if not ok:
            return E_MODEL, t, codes[:count], times[:count], where[:count], post[:count], post_s[:count]
        steps += 1
        if steps > max_events:
            return E_TOO_MANY_EVENTS, t, codes[:count], times[:count], where[:count], post[:count], post_s[:count]

        # --- invalidate the cached times of the event's balls -------------------------------------
        for k in range(n_pairs):
            if pair_i[k] == a or pair_j[k] == a or (kind == K_BALL_BALL and (pair_i[k] == other or pair_j[k] == other)):
                bb_ok[k] = False
        for b in (a, other if kind == K_BALL_BALL else a):
            lin_ok[b * n_lin : (b + 1) * n_lin] = False
            circ_ok[b * n_circ : (b + 1) * n_circ] = False
            pk_ok[b * n_pocket : (b + 1) * n_pocket] = False
    return 0, t, codes[:count], times[:count], where[:count], post[:count], post_s[:count]


# --- the Python side: arrays in, the domain record out ----------------------------------------------------


class _Table:
    """A physics table's cushion segments and pockets as the loop's arrays (built once per table)."""

    def __init__(self, ptable: engine.PhysicsTable) -> None:
        linear, circular, pockets = ptable.linear, ptable.circular, ptable.capture
        self.linear_ids = tuple(c.id for c in linear)
        self.circular_ids = tuple(c.id for c in circular)
        self.pocket_ids = tuple(p.id for p in pockets)
        self.lin_p1 = np.array([c.p1 for c in linear], dtype=np.float64).reshape(-1, 3)
        self.lin_p2 = np.array([c.p2 for c in linear], dtype=np.float64).reshape(-1, 3)
        self.lin_coef = np.array([[c.lx, c.ly, c.l0] for c in linear], dtype=np.float64).reshape(-1, 3)
        self.lin_dir = np.full(len(linear), BOTH_SIDES, dtype=np.int64)
        self.lin_normal = np.array([c.normal for c in linear], dtype=np.float64).reshape(-1, 3)
        self.lin_axis = np.array([c.unit_axis for c in linear], dtype=np.float64).reshape(-1, 3)
        self.circ_centre = np.array([c.centre for c in circular], dtype=np.float64).reshape(-1, 3)
        self.circ_coef = np.array([[c.centre[0], c.centre[1], c.radius] for c in circular], dtype=np.float64).reshape(
            -1, 3
        )
        self.pocket_centre = np.array([p.centre for p in pockets], dtype=np.float64).reshape(-1, 3)
        self.pocket_coef = np.array(
            [[p.centre[0], p.centre[1], p.radius, p.depth] for p in pockets], dtype=np.float64
        ).reshape(-1, 4)


BOTH_SIDES = 2
"""pooltool's ``CushionDirection.BOTH``: a cushion piece is met from either side."""

_TABLES: dict[int, tuple[engine.PhysicsTable, _Table]] = {}


def _arrays(ptable: engine.PhysicsTable) -> _Table:
    entry = _TABLES.get(id(ptable))
    if entry is None or entry[0] is not ptable:
        entry = (ptable, _Table(ptable))
        _TABLES[id(ptable)] = entry
    return entry[1]


def _params(spec: TableSpec) -> NDArray[np.float64]:
    """The loop's parameters (see :func:`run_loop`): the ball on ``spec`` with this project's cloth."""
    p = engine.BALL_PARAMETERS
    a, b, c = engine.BALL_BALL_FRICTION
    rb = spec.ball_radius
    u_sp = p["u_sp_proportionality"] * rb  # pooltool's BallParams.u_sp
    stronge_eta = 3.5 / 1.0 / engine.CUSHION_OMEGA_RATIO**2  # beta_t / beta_n / omega_ratio**2, as Stronge's model
    e_b = (p["e_b"] + p["e_b"]) / 2  # pooltool averages the two balls' restitution
    return np.array(
        [rb, spec.ball_mass, p["u_s"], u_sp, p["u_r"], p["g"], e_b, p["e_c"], p["f_c"], a, b, c, stronge_eta, TWO],
        dtype=np.float64,
    )


def simulate(
    position: Position,
    stroke: Stroke,
    *,
    trajectories: float | None = None,
    spec: TableSpec = OFFICIAL,
) -> ShotRecord:
    """Play ``stroke`` from ``position`` and return what happened (:func:`kaisa.physics.simulate`).

    ``trajectories`` is a sampling rate in Hz (60 for animation); ``None`` skips sampling. Raises
    :class:`~kaisa.errors.InvalidPositionError` for a position that cannot be on the table and
    :class:`~kaisa.errors.SimulationError` where the models cannot resolve a contact (about one random stroke
    in 20,000: a slightly different stroke can be played) or the result cannot be true.
    """
    if trajectories is not None and not (math.isfinite(trajectories) and 1 <= trajectories <= 1000):
        raise ValueError(f"trajectory rate {trajectories} Hz is out of range: allowed is [1, 1000] Hz")
    ptable = engine.physics_table(spec)
    centres = engine.prepare(position, stroke, spec)
    run = _Run(centres, stroke, ptable)
    if run.error == E_MODEL:
        raise SimulationError(
            "the physics engine could not resolve a contact of this stroke (a cushion contact without approach "
            "speed, or a collision time without a root); a slightly different stroke can be played"
        )
    if run.error == E_TOO_MANY_EVENTS or len(run.times) + 3 > engine.MAX_ENGINE_EVENTS:
        raise SimulationError(f"the shot did not settle within {engine.MAX_ENGINE_EVENTS} physics events")
    events = engine.domain_events(_raw_events(run), ptable) if run.struck else ()
    ids, rvw, s = run.ids, run.rvw, run.s
    rests = tuple(
        (ids[k], None if s[k] == POCKETED else (float(rvw[k, 0, 0]), float(rvw[k, 0, 1]))) for k in range(len(ids))
    )
    return ShotRecord(
        position=Position(centres),
        stroke=stroke,
        events=events,
        final=engine.final_position(rests, spec),
        duration=float(run.t),
        trajectories=_sample(run, spec, trajectories) if trajectories is not None else None,
    )


class _Run:
    """One compiled run: the balls' ids, the strike, and what :func:`run_loop` returned."""

    def __init__(self, centres: Mapping[BallId, Point], stroke: Stroke, ptable: engine.PhysicsTable) -> None:
        """The balls resting with their centres at height R, the cue ball struck (pooltool's instantaneous point
        model with squirt, :func:`kaisa.physics.port.strike.strike`), then the loop. A stroke at speed 0 moves
        nothing: no strike, no events."""
        spec = ptable.spec
        self.arrays = _arrays(ptable)
        self.ids = tuple(b.value for b in centres)
        self.cue_id = stroke.ball.value
        cue_index = self.ids.index(self.cue_id)
        n = len(self.ids)
        rvw = np.zeros((n, 3, 3), dtype=np.float64)
        for k, centre in enumerate(centres.values()):
            rvw[k, 0, 0], rvw[k, 0, 1] = centre
            rvw[k, 0, 2] = spec.ball_radius
        self.initial = rvw.copy()
        self.strike_at = (float(rvw[cue_index, 0, 0]), float(rvw[cue_index, 0, 1]))
        s = np.full(n, STATIONARY, dtype=np.int64)
        p = _params(spec)
        self.params = p
        self.struck = stroke.speed > 0
        if not self.struck:
            self.error, self.t = 0, 0.0
            self.codes = np.zeros((0, 3), np.int64)
            self.times = np.zeros(0)
            self.where = np.zeros((0, 4))
            self.post = np.zeros((0, 2, 3, 3))
            self.post_s = np.zeros((0, 2), np.int64)
            self.struck_rvw = rvw[cue_index].copy()
            self.rvw, self.s = rvw, s
            return
        rvw[cue_index] = strike(
            rvw[cue_index],
            spec.ball_mass,
            spec.ball_radius,
            stroke.speed,
            stroke.direction,
            stroke.elevation,
            engine.CUE_BALL_OFFSET_TO_POOLTOOL_SIDE * stroke.side,
            stroke.follow,
        )
        s[cue_index] = SLIDING
        self.struck_rvw = rvw[cue_index].copy()
        tr_t = np.full(n, np.inf)
        tr_k = np.zeros(n, dtype=np.int64)
        tr_t[cue_index], tr_k[cue_index] = _next_transition(
            rvw[cue_index], s[cue_index], 0.0, p[0], p[3], p[4], p[2], p[5]
        )
        bb_valid = np.ones((n, n), dtype=np.bool_)
        bb_valid[cue_index, :] = False
        bb_valid[:, cue_index] = False
        a = self.arrays
        self.error, self.t, self.codes, self.times, self.where, self.post, self.post_s = run_loop(
            rvw,
            s,
            p,
            tr_t,
            tr_k,
            bb_valid,
            cue_index,
            a.lin_p1,
            a.lin_p2,
            a.lin_coef,
            a.lin_dir,
            a.lin_normal,
            a.lin_axis,
            a.circ_centre,
            a.circ_coef,
            a.pocket_centre,
            a.pocket_coef,
            engine.MAX_ENGINE_EVENTS,
            True,  # skip what cannot be the next event (see the pruning notes)
        )
        self.rvw = rvw
        self.s = s


def _raw_events(run: _Run) -> list[engine.RawEvent]:
    """The compiled event list as :func:`kaisa.physics.engine.domain_events` reads it."""
    ids, arrays = run.ids, run.arrays
    raw: list[engine.RawEvent] = [
        (EngineEvent.STICK_BALL, ("cue_stick", run.cue_id), 0.0, {BallId(run.cue_id): run.strike_at})
    ]
    for (kind, a, b), t, xy in zip(run.codes.tolist(), run.times.tolist(), run.where.tolist(), strict=True):
        if kind >= K_SPINNING_STATIONARY:
            continue
        ball = ids[a]
        positions: dict[BallId, Point] = {BallId(ball): (xy[0], xy[1])}
        if kind == K_BALL_BALL:
            positions[BallId(ids[b])] = (xy[2], xy[3])
            raw.append((EngineEvent.BALL_BALL, (ball, ids[b]), t, positions))
        elif kind == K_LINEAR:
            raw.append((EngineEvent.BALL_LINEAR_CUSHION, (ball, arrays.linear_ids[b]), t, positions))
        elif kind == K_CIRCULAR:
            raw.append((EngineEvent.BALL_CIRCULAR_CUSHION, (ball, arrays.circular_ids[b]), t, positions))
        else:
            raw.append((EngineEvent.BALL_POCKET, (ball, arrays.pocket_ids[b]), t, positions))
    return raw


def _sample(run: _Run, spec: TableSpec, rate: float) -> Trajectories:
    """The balls' positions every ``1 / rate`` seconds and at the end, as pooltool's ``continuize`` computes
    them and :func:`kaisa.physics.reference.sample` reads them: each ball evolved from its state after the last
    of its events before a time step (the cue ball from the strike), one step of ``dt`` after another."""
    dt = 1.0 / rate
    p = run.params
    rb, m, u_s, u_sp, u_r, g = p[0], p[1], p[2], p[3], p[4], p[5]
    duration = float(run.t)
    times = engine.sample_times(duration, dt)
    steps = int(duration // dt) + 1
    cue = run.ids.index(run.cue_id)
    # each ball's events: (time, state after it, motion state); the start and the end bracket them
    involved: list[list[tuple[float, NDArray[np.float64], int]]] = [[] for _ in run.ids]
    if run.struck:
        involved[cue].append((0.0, run.struck_rvw, SLIDING))
    for e, ((kind, a, b), t) in enumerate(zip(run.codes.tolist(), run.times.tolist(), strict=True)):
        involved[a].append((t, run.post[e, 0], int(run.post_s[e, 0])))
        if kind == K_BALL_BALL:
            involved[b].append((t, run.post[e, 1], int(run.post_s[e, 1])))
    balls: dict[BallId, tuple[Point | None, ...]] = {}
    for k, bid in enumerate(run.ids):
        events = [(0.0, run.initial[k], STATIONARY), *involved[k], (duration, run.rvw[k], int(run.s[k]))]
        history_t = [0.0]
        history: list[tuple[NDArray[np.float64], int]] = [(run.initial[k], STATIONARY)]
        rvw_k, s_k = run.initial[k], STATIONARY
        count = 0
        elapsed = 0.0
        for _ in range(steps - 1):
            if events[count + 1][0] - elapsed > dt:
                evolve_time = dt
            else:
                while True:
                    count += 1
                    if events[count + 1][0] - elapsed > dt:
                        break
                _, rvw_k, s_k = events[count]
                evolve_time = elapsed + dt - events[count][0]
            rvw_k, s_k = _evolve(s_k, rvw_k, rb, m, u_s, u_sp, u_r, g, evolve_time)
            history_t.append(elapsed + dt)
            history.append((rvw_k, s_k))
            elapsed += dt
        history_t.append(duration)
        history.append((run.rvw[k], int(run.s[k])))
        at = np.array(history_t)
        samples: list[Point | None] = []
        for t in times:
            i = max(int(np.searchsorted(at, t + 1e-12, side="right")) - 1, 0)
            state_rvw, state_s = history[i]
            samples.append(None if state_s == POCKETED else (float(state_rvw[0, 0]), float(state_rvw[0, 1])))
        balls[BallId(bid)] = tuple(samples)
    return Trajectories(rate=rate, times=times, balls=balls)


def engine_events(
    position: Position, stroke: Stroke, *, spec: TableSpec = OFFICIAL
) -> tuple[list[tuple[str, tuple[str, ...], float]], list[tuple[str, int, tuple[float, ...]]]]:
    """The compiled loop's every event (transitions too) as (type, ids, time) and each ball's final state
    (id, motion state, rvw), in the form of :func:`kaisa.physics.reference.engine_events`, for comparing the
    two event for event."""
    ptable = engine.physics_table(spec)
    centres = {b: spec.push_off_cushions(p) for b, p in position.items()}
    run = _Run(centres, stroke, ptable)
    ids, arrays = run.ids, run.arrays
    out: list[tuple[str, tuple[str, ...], float]] = [("stick_ball", ("cue_stick", run.cue_id), 0.0)]
    names = {K_LINEAR: arrays.linear_ids, K_CIRCULAR: arrays.circular_ids, K_POCKET: arrays.pocket_ids}
    for (kind, a, b), t in zip(run.codes.tolist(), run.times.tolist(), strict=True):
        etype = KIND_TO_EVENT_TYPE[kind]
        if kind == K_BALL_BALL:
            out.append((etype.value, (ids[a], ids[b]), t))
        elif kind in names:
            out.append((etype.value, (ids[a], names[kind][b]), t))
        else:
            out.append((etype.value, (ids[a],), t))
    finals = [(ids[k], int(run.s[k]), tuple(run.rvw[k].ravel().tolist())) for k in range(len(ids))]
    return out, finals
