"""pooltool 0.6.0's cue strike: the instantaneous point model with squirt
(``physics/resolve/stick_ball/instantaneous_point`` and ``stick_ball/squirt.py``), and the cue's masses.

Carried from pooltool (Apache-2.0, see LICENSE and NOTICE in this folder). Changed: written as plain
functions of floats instead of methods on pooltool's ``Cue`` and ``Ball``; the scalar cosines, sines, arc
tangents and square roots are the ``math`` module's (the C library's) instead of numpy's, whose loops are
chosen by the processor's vector extensions and differ from it in the last bit on some processors; the
rotations are :func:`kaisa.physics.port.ptmath.coordinate_rotation`.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from kaisa.physics.port import ptmath

CUE_MASS = 0.567
"""The cue's mass in kg (pooltool's ``CueSpecs.M``)."""

CUE_END_MASS = 0.170097 / 30
"""The mass of the cue's end in kg, which sets the squirt (pooltool's ``CueSpecs.end_mass``)."""

ENGLISH_THROTTLE = 1.0
SQUIRT_THROTTLE = 1.0


def cue_strike(
    m: float, M: float, R: float, V0: float, phi: float, theta: float, Q: NDArray[np.float64]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The ball's velocity and spin after the cue hits it at ``Q`` (pooltool's ``cue_strike``)."""
    phi *= math.pi / 180
    theta *= math.pi / 180
    I_m = 2 / 5 * R**2
    a, c, b = float(Q[0]), float(Q[1]), float(Q[2])
    numerator = 2 * V0
    temp = (
        a**2 + (b * math.cos(theta)) ** 2 + (c * math.sin(theta)) ** 2 - 2 * b * c * math.cos(theta) * math.sin(theta)
    )
    denominator = 1 + m / M + temp / I_m
    v = numerator / denominator
    v_B = -v * np.array([0, math.cos(theta), 0])
    vec_x = -c * math.sin(theta) + b * math.cos(theta)
    vec_y = a * math.sin(theta)
    vec_z = -a * math.cos(theta)
    vec = np.array([vec_x, vec_y, vec_z])
    w_B = v / I_m * vec
    rot_angle = phi + math.pi / 2
    v_T = ptmath.coordinate_rotation(v_B, rot_angle)
    w_T = ptmath.coordinate_rotation(w_B, rot_angle)
    return v_T, w_T


def squirt_angle(m_b: float, m_e: float, a: float, throttle: float) -> float:
    """The squirt deflection in radians (pooltool's ``get_squirt_angle``): negative to the right."""
    m_r = m_b / m_e
    A = 1 - a**2
    numerator = 5 / 2 * a * math.sqrt(A)
    denominator = 1 + m_r + 5 / 2 * A
    return -throttle * math.atan2(numerator, denominator)


def strike(
    rvw: NDArray[np.float64], m: float, R: float, V0: float, phi: float, theta: float, a: float, b: float
) -> NDArray[np.float64]:
    """The struck ball's state (``InstantaneousPoint.solve``): ``rvw`` the resting ball, the cue at speed
    ``V0`` (m/s), direction ``phi`` and elevation ``theta`` (degrees), tip offsets ``a`` (pooltool's side,
    positive on the ball's left) and ``b`` (follow) as fractions of the radius. The ball is then sliding."""
    theta_rad = theta * math.pi / 180
    cue_c = math.sqrt(1.0 - a**2 - b**2)
    ball_a = a
    ball_c = math.cos(theta_rad) * cue_c - math.sin(theta_rad) * b
    ball_b = math.sin(theta_rad) * cue_c + math.cos(theta_rad) * b
    v, w = cue_strike(m, CUE_MASS, R, V0, phi, theta, R * np.array([ball_a, ball_c, ball_b]))
    alpha = squirt_angle(m, CUE_END_MASS, ball_a, SQUIRT_THROTTLE)
    v = ptmath.coordinate_rotation(v, alpha)
    return np.array([rvw[0], v, w * ENGLISH_THROTTLE])
