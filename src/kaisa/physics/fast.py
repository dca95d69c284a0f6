"""A faster pooltool 0.6.0 with the same answers: a few of its functions replaced by equivalent ones.

Profiling a Kaisa stroke shows pooltool's Python around its numba kernels dominating, and a few spots in it
doing work whose result nobody uses. Each patch below computes exactly what the function it replaces
computes (the same floating-point operations in the same order, the same dictionary orders), so event logs
and final positions are bit for bit those of stock pooltool; ``tests/physics/test_fast.py`` checks that on
hundreds of random strokes, stock and fast side by side in one process. The gains are measured by
``kaisa bench physics`` and listed in docs/PERFORMANCE.md.

The patches are written against pooltool 0.6.0 and refuse any other version. They are applied when
:mod:`kaisa.physics` is imported unless the environment variable ``KAISA_STOCK_POOLTOOL`` is set to ``1``;
:func:`use_stock` and :func:`use_fast` switch at run time (the benchmark and the test run both).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
import pooltool
import pooltool.constants as const
import pooltool.ptmath as ptmath
from pooltool.events import (
    EventType,
    ball_ball_collision,
    ball_circular_cushion_collision,
    ball_linear_cushion_collision,
    ball_pocket_collision,
    null_event,
)
from pooltool.events.utils import event_type_to_ball_indices
from pooltool.evolution.event_based import cache as pt_cache
from pooltool.evolution.event_based import simulate as pt_simulate
from pooltool.evolution.event_based import solve
from pooltool.objects.ball.datatypes import BallState
from pooltool.physics.resolve.ball_cushion.stronge_compliant import model as stronge_model
from pooltool.physics.resolve.stronge_compliant import resolve_collinear_compliant_frictional_inelastic_collision

POOLTOOL_VERSION = "0.6.0"
"""The only pooltool version the patches are written for."""

STOCK_ENV = "KAISA_STOCK_POOLTOOL"
"""Set to ``1`` to run stock pooltool (no patches)."""


class PooltoolVersionError(RuntimeError):
    """The installed pooltool is not the version the fast layer was written and checked against."""


# --- patch 1: the Stronge cushion model without its debug messages ---------------------------------------
# Stock ``_solve`` formats numpy arrays into seven ``logger.debug(f"...")`` messages on every cushion contact;
# an f-string is built before ``debug`` is called, so the formatting is paid whether or not anything logs.
# The check that the model's two routes to the final contact velocity agree (``np.allclose``) stays, as the
# same comparison on three floats.


def _allclose3(a: Any, b: Any) -> bool:
    """``np.allclose(a, b)`` (rtol 1e-5, atol 1e-8) for two 3-vectors, without numpy's per-call overhead."""
    for x, y in zip(a.tolist(), b.tolist(), strict=True):
        if not (math.isfinite(x) and math.isfinite(y)):
            return bool(np.allclose(a, b))
        if not abs(x - y) <= 1e-8 + 1e-5 * abs(y):
            return False
    return True


def _stronge_solve(ball: Any, cushion: Any, omega_ratio: float) -> tuple[Any, Any]:
    rvw = ball.state.rvw.copy()
    normal_direction = cushion.get_normal_3d(ball.xyz)
    relative_contact_velocity = ptmath.surface_velocity(rvw, -normal_direction, ball.params.R)
    v_n_0, v_t_0, tangent_direction = ptmath.decompose_normal_tangent(relative_contact_velocity, normal_direction, True)
    effective_mass = ball.params.m
    beta_t = 3.5
    beta_n = 1.0
    beta_t_by_beta_n = beta_t / beta_n
    v_t_f, v_n_f = resolve_collinear_compliant_frictional_inelastic_collision(
        v_t_0=v_t_0,
        v_n_0=v_n_0,
        m=effective_mass,
        beta_t=beta_t,
        beta_n=beta_n,
        mu=ball.params.f_c,
        e_n=ball.params.e_c,
        k_n=1e3,
        eta_squared=(beta_t_by_beta_n / omega_ratio**2),
    )
    dv_n = (v_n_f - v_n_0) / beta_n
    rvw[1] += dv_n * normal_direction
    dv_t = (v_t_f - v_t_0) / beta_t
    rvw[1] += dv_t * tangent_direction
    rvw[2] += (2.5 / ball.params.R) * ptmath.cross(-normal_direction, dv_t * tangent_direction)
    v_c_f = v_n_f * normal_direction + v_t_f * tangent_direction
    relative_contact_velocity_f = ptmath.surface_velocity(rvw, -normal_direction, ball.params.R)
    assert _allclose3(v_c_f, relative_contact_velocity_f), (
        f"v_c_f={v_c_f}, relative_contact_velocity_f={relative_contact_velocity_f}"
    )
    rvw[1][2] = 0.0
    ball.state = BallState(rvw, const.sliding)
    return ball, cushion


# --- patch 2: invalidating the collision cache -----------------------------------------------------------
# Stock ``CollisionCache.invalidate`` walks every cached pair of every event type on every event, looking up
# the event type's ball positions and running a generator per pair. This walks them with one precomputed
# test per event type; it deletes the same keys in the same order, so every dictionary keeps stock order
# (``min`` over a cache breaks ties by that order).

_BALL_POSITIONS: dict[Any, tuple[int, ...]] = {
    event_type: tuple(sorted(indices)) for event_type, indices in event_type_to_ball_indices.items()
}


def _invalidate(self: Any, event: Any) -> None:
    ids = event.ids
    invalid = {ids[i] for i in _BALL_POSITIONS[event.event_type]}
    for event_type, event_times in self.times.items():
        positions = _BALL_POSITIONS.get(event_type, ())
        if positions == (0,):
            doomed = [key for key in event_times if key[0] in invalid]
        elif positions == (0, 1):
            doomed = [key for key in event_times if key[0] in invalid or key[1] in invalid]
        elif positions:
            doomed = [key for key in event_times if any(key[i] in invalid for i in positions)]
        else:
            continue
        for key in doomed:
            del event_times[key]


# --- patch 3: the next collision of each kind -------------------------------------------------------------
# Stock detection walks every (ball, cushion) pair on every event, reading the same ball state, parameters
# and the table's ``has_*`` properties again per pair, and picks the earliest cached time with
# ``min(cache, key=lambda k: cache[k])``. These read each ball once per event, skip whole balls whose pairs
# are all cached, and use ``cache.__getitem__`` as the key. The same pairs are computed by the same kernels
# with the same arguments and inserted in the same order, so ``min`` returns the same pair (first of ties).

_INF = np.inf
_NONTRANSLATING = const.nontranslating
_SLIDING = const.sliding
_POCKETED = const.pocketed


def _next_linear(shot: Any, collision_cache: Any) -> Any:
    cushions = shot.table.cushion_segments.linear
    if not cushions:
        return null_event(_INF)
    cache = collision_cache.times.setdefault(EventType.BALL_LINEAR_CUSHION, {})
    segments = tuple(cushions.values())
    t = shot.t
    for ball in shot.balls.values():
        bid = ball.id
        state = ball.state
        s = state.s
        moving = s not in _NONTRANSLATING
        if moving:
            params = ball.params
            rvw = state.rvw
            mu = params.u_s if s == _SLIDING else params.u_r
            m, g, radius = params.m, params.g, params.R
        for cushion in segments:
            obj_ids = (bid, cushion.id)
            if obj_ids in cache:
                continue
            if not moving:
                cache[obj_ids] = _INF
                continue
            cache[obj_ids] = t + solve.ball_linear_cushion_collision_time(
                rvw=rvw,
                s=s,
                lx=cushion.lx,
                ly=cushion.ly,
                l0=cushion.l0,
                p1=cushion.p1,
                p2=cushion.p2,
                direction=cushion.direction,
                mu=mu,
                m=m,
                g=g,
                R=radius,
            )
    obj_ids = min(cache, key=cache.__getitem__)
    return ball_linear_cushion_collision(ball=shot.balls[obj_ids[0]], cushion=cushions[obj_ids[1]], time=cache[obj_ids])


def _next_circular(shot: Any, collision_cache: Any) -> Any:
    cushions = shot.table.cushion_segments.circular
    if not cushions:
        return null_event(_INF)
    cache = collision_cache.times.setdefault(EventType.BALL_CIRCULAR_CUSHION, {})
    segments = tuple(cushions.values())
    t = shot.t
    for ball in shot.balls.values():
        bid = ball.id
        state = ball.state
        s = state.s
        moving = s not in _NONTRANSLATING
        if moving:
            params = ball.params
            rvw = state.rvw
            mu = params.u_s if s == _SLIDING else params.u_r
            m, g, radius = params.m, params.g, params.R
        for cushion in segments:
            obj_ids = (bid, cushion.id)
            if obj_ids in cache:
                continue
            if not moving:
                cache[obj_ids] = _INF
                continue
            cache[obj_ids] = t + solve.ball_circular_cushion_collision_time(
                rvw=rvw, s=s, a=cushion.a, b=cushion.b, r=cushion.radius, mu=mu, m=m, g=g, R=radius
            )
    ball_id, cushion_id = min(cache, key=cache.__getitem__)
    return ball_circular_cushion_collision(
        ball=shot.balls[ball_id], cushion=cushions[cushion_id], time=cache[(ball_id, cushion_id)]
    )


def _next_pocket(shot: Any, collision_cache: Any) -> Any:
    pockets = shot.table.pockets
    if not pockets:
        return null_event(_INF)
    cache = collision_cache.times.setdefault(EventType.BALL_POCKET, {})
    holes = tuple(pockets.values())
    t = shot.t
    for ball in shot.balls.values():
        bid = ball.id
        state = ball.state
        s = state.s
        moving = s not in _NONTRANSLATING
        if moving:
            params = ball.params
            rvw = state.rvw
            mu = params.u_s if s == _SLIDING else params.u_r
            m, g, radius = params.m, params.g, params.R
        for pocket in holes:
            obj_ids = (bid, pocket.id)
            if obj_ids in cache:
                continue
            if not moving:
                cache[obj_ids] = _INF
                continue
            cache[obj_ids] = t + solve.ball_pocket_collision_time(
                rvw=rvw, s=s, a=pocket.a, b=pocket.b, r=pocket.radius, mu=mu, m=m, g=g, R=radius
            )
    ball_id, pocket_id = min(cache, key=cache.__getitem__)
    return ball_pocket_collision(ball=shot.balls[ball_id], pocket=pockets[pocket_id], time=cache[(ball_id, pocket_id)])


def _next_ball_ball(shot: Any, collision_cache: Any) -> Any:
    cache = collision_cache.times.setdefault(EventType.BALL_BALL, {})
    t = shot.t
    for ball1, ball2 in combinations(shot.balls.values(), 2):
        ball_pair = (ball1.id, ball2.id)
        if ball_pair in cache:
            continue
        ball1_state = ball1.state
        ball1_params = ball1.params
        ball2_state = ball2.state
        ball2_params = ball2.params
        s1 = ball1_state.s
        s2 = ball2_state.s
        if s1 == _POCKETED or s2 == _POCKETED or (s1 in _NONTRANSLATING and s2 in _NONTRANSLATING):
            cache[ball_pair] = _INF
        elif ptmath.is_overlapping(ball1_state.rvw, ball2_state.rvw, ball1_params.R, ball2_params.R):
            cache[ball_pair] = t
        else:
            cache[ball_pair] = t + solve.ball_ball_collision_time(
                rvw1=ball1_state.rvw,
                rvw2=ball2_state.rvw,
                s1=s1,
                s2=s2,
                mu1=(ball1_params.u_s if s1 == _SLIDING else ball1_params.u_r),
                mu2=(ball2_params.u_s if s2 == _SLIDING else ball2_params.u_r),
                m1=ball1_params.m,
                m2=ball2_params.m,
                g1=ball1_params.g,
                g2=ball2_params.g,
                R=ball1_params.R,
            )
    if not cache:
        return null_event(_INF)
    ball_pair = min(cache, key=cache.__getitem__)
    return ball_ball_collision(ball1=shot.balls[ball_pair[0]], ball2=shot.balls[ball_pair[1]], time=cache[ball_pair])


# --- the switch -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Patch:
    """One replaced attribute: where, what stock pooltool has there, and what replaces it."""

    name: str
    owner: Any
    attribute: str
    stock: Callable[..., Any]
    fast: Callable[..., Any]


PATCHES: tuple[Patch, ...] = (
    Patch(
        "Stronge cushion model without debug formatting", stronge_model, "_solve", stronge_model._solve, _stronge_solve
    ),
    Patch(
        "collision cache invalidation in one pass",
        pt_cache.CollisionCache,
        "invalidate",
        pt_cache.CollisionCache.invalidate,
        _invalidate,
    ),
    *(
        Patch(f"next {what} in one pass per ball", pt_simulate, name, getattr(pt_simulate, name), fast)
        for what, name, fast in (
            ("linear-cushion contact", "get_next_ball_linear_cushion_collision", _next_linear),
            ("circular-cushion contact", "get_next_ball_circular_cushion_event", _next_circular),
            ("pocket entry", "get_next_ball_pocket_collision", _next_pocket),
            ("ball-ball contact", "get_next_ball_ball_collision", _next_ball_ball),
        )
    ),
)


def check_version() -> None:
    """Raise :class:`PooltoolVersionError` unless pooltool is the version the patches were written for."""
    if pooltool.__version__ != POOLTOOL_VERSION:
        raise PooltoolVersionError(
            f"kaisa's fast physics layer is written for pooltool {POOLTOOL_VERSION}, but {pooltool.__version__} "
            f"is installed; install pooltool-billiards=={POOLTOOL_VERSION} or set {STOCK_ENV}=1 to run stock pooltool"
        )


def use_fast() -> None:
    """Apply every patch (pooltool 0.6.0 only)."""
    check_version()
    for patch in PATCHES:
        setattr(patch.owner, patch.attribute, patch.fast)


def use_stock() -> None:
    """Put stock pooltool's functions back."""
    for patch in PATCHES:
        setattr(patch.owner, patch.attribute, patch.stock)


def is_fast() -> bool:
    """Whether the patches are in place."""
    return all(getattr(patch.owner, patch.attribute) is patch.fast for patch in PATCHES)


def apply_from_environment() -> None:
    """What importing :mod:`kaisa.physics` does: the fast layer, unless ``KAISA_STOCK_POOLTOOL=1``."""
    if os.environ.get(STOCK_ENV, "").strip() in ("1", "true", "yes"):
        use_stock()
    else:
        use_fast()
