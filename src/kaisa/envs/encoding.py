"""How the environments see Kaisa: the enumerated calls, the observation, and the normalised stroke.

Everything is relative to the agent at the table ("own" cue ball first), so one policy can play either cue
ball.

**Calls** (a ``Discrete(N_CALLS)`` choice): index 0 is no call; then, for each object-ball slot (the other
white, R1, R2, the kaisa) and each pocket, the direct pot; the pot via one named rail; and the pot with each
konsti (kyyti, kara, kiss) via each other object ball. :func:`call_mask` marks the calls whose balls are on the
table: whether a called pot scores (the opening's restrictions, ball in hand) is the referee's business, as
for a person, so such calls stay available and are simply ruled.

**Stroke** (a ``Box(-1, 1, (7,))``): speed, direction, elevation, side, follow, and the place of a cue ball in
hand; see :func:`decode_stroke`. A place is used only when the cue ball is in hand; an illegal one is moved to
the nearest legal point behind the head string.
"""

from __future__ import annotations

import math
from itertools import product
from typing import Any

import numpy as np

from kaisa.call import Call, Konsti, Leg
from kaisa.model import MAX_ELEVATION, MAX_SPEED, MAX_TIP_OFFSET, MIN_SPEED, BallId, Position, Stroke
from kaisa.session import GameState, IllegalPlacementError, check_hand_placement, opponent_of
from kaisa.table import OFFICIAL, PocketId, Point, RailId, TableSpec

SLOTS = ("other", BallId.R1, BallId.R2, BallId.K)
"""Object-ball slots: ``other`` is the opponent's cue ball."""
BALL_ROWS = 5
"""Observation rows: own cue ball, the other white, R1, R2, the kaisa."""
FLAGS = ("from_hand", "opening", "kaisa_off_centre", "last_pot_direct_middle_kaisa", "opponent_in_hand")
STROKE_SIZE = 7
SCORE_SCALE = 60.0

_Template = tuple[str, object, PocketId, str | None, object]
"""(kind, slot, pocket, konsti, rail or via slot)"""


def _templates() -> list[_Template | None]:
    out: list[_Template | None] = [None]
    for slot, pocket in product(SLOTS, PocketId):
        out.append(("direct", slot, pocket, None, None))
    for slot, rail, pocket in product(SLOTS, RailId, PocketId):
        out.append(("bank", slot, pocket, None, rail))
    for konsti, slot, via, pocket in product(Konsti, SLOTS, SLOTS, PocketId):
        if via != slot:
            out.append(("konsti", slot, pocket, konsti.value, via))
    return out


TEMPLATES = _templates()
N_CALLS = len(TEMPLATES)
"""385: no call, 24 direct, 144 one-rail banks, 216 konsti calls."""


def _ball(slot: object, me: BallId) -> BallId:
    return opponent_of(me) if slot == "other" else BallId(str(slot))


def call_at(index: int, me: BallId) -> Call | None:
    """The call at ``index`` for the player of cue ball ``me`` (None: no call)."""
    template = TEMPLATES[index]
    if template is None:
        return None
    kind, slot, pocket, konsti, extra = template
    ball = _ball(slot, me)
    if kind == "direct":
        return Call(ball, pocket)
    if kind == "bank":
        assert isinstance(extra, RailId)
        return Call(ball, pocket, legs=(Leg(), Leg((extra,))))
    return Call(ball, pocket, konsti=Konsti(str(konsti)), via=_ball(extra, me))


def _slot_table() -> tuple[np.ndarray, np.ndarray]:
    """For each call, the slot of its ball and of its konsti ball (``len(SLOTS)``: none, always present)."""
    balls = np.full(N_CALLS, len(SLOTS), dtype=np.intp)
    vias = np.full(N_CALLS, len(SLOTS), dtype=np.intp)
    for index, template in enumerate(TEMPLATES):
        if template is not None:
            balls[index] = SLOTS.index(template[1])
            if template[0] == "konsti":
                vias[index] = SLOTS.index(template[4])
    return balls, vias


_BALL_SLOT, _VIA_SLOT = _slot_table()


def call_mask(position: Position, me: BallId) -> np.ndarray:
    """1 for each call whose balls are on the table (and for no call), else 0."""
    present = np.array([_ball(slot, me) in position for slot in SLOTS] + [True])
    mask: np.ndarray = (present[_BALL_SLOT] & present[_VIA_SLOT]).astype(np.int8)
    return mask


def observe_state(position: Position, game: GameState, me: BallId, spec: TableSpec = OFFICIAL) -> dict[str, Any]:
    """The observation of the player of ``me`` (whose turn it may or may not be)."""
    balls = np.zeros((BALL_ROWS, 3), dtype=np.float32)
    for row, ball in enumerate((me, opponent_of(me), BallId.R1, BallId.R2, BallId.K)):
        point = position.get(ball)
        if point is not None:
            balls[row] = (2 * point[0] / spec.width - 1, 2 * point[1] / spec.length - 1, 1.0)
    scores = np.clip(np.array([game.score(me), game.score(opponent_of(me))], dtype=np.float32) / SCORE_SCALE, -1.0, 2.0)
    flags = np.array(
        [
            game.shooter is me and game.from_hand,
            game.opening,
            game.kaisa_off_centre,
            game.last_pot_direct_middle_kaisa,
            opponent_of(me) in game.in_hand,
        ],
        dtype=np.int8,
    )
    return {"balls": balls, "scores": scores, "flags": flags, "call_mask": call_mask(position, me)}


def decode_stroke(
    values: np.ndarray | list[float], me: BallId, position: Position, game: GameState, spec: TableSpec = OFFICIAL
) -> Stroke:
    """The stroke for normalised ``values`` in [-1, 1] (clipped):

    0. speed: ``MAX_SPEED * ((v + 1) / 2) ** 2`` (finer at the soft end), at least ``MIN_SPEED``;
    1. direction: ``180 * v`` degrees;
    2. elevation: ``MAX_ELEVATION * (v + 1) / 2``;
    3. 4. side and follow: ``MAX_TIP_OFFSET * v`` each, pulled onto the legal tip circle if outside it;
    5. 6. the place of a cue ball in hand: x across the bed, y from the head cushion to the head string (used
       only from hand; an illegal place moves to the nearest legal point).
    """
    v = np.clip(np.asarray(values, dtype=np.float64).reshape(-1), -1.0, 1.0)
    if v.shape != (STROKE_SIZE,) or not np.all(np.isfinite(v)):
        raise ValueError(f"a stroke is {STROKE_SIZE} finite numbers in [-1, 1], got {values!r}")
    speed = max(MIN_SPEED, MAX_SPEED * ((v[0] + 1) / 2) ** 2)
    side, follow = MAX_TIP_OFFSET * v[3], MAX_TIP_OFFSET * v[4]
    offset = math.hypot(side, follow)
    if offset > MAX_TIP_OFFSET:
        side, follow = side * MAX_TIP_OFFSET / offset, follow * MAX_TIP_OFFSET / offset
    place = None
    if game.shooter is me and game.from_hand:
        r = spec.ball_radius
        wanted = (r + (spec.width - 2 * r) * (v[5] + 1) / 2, r + (spec.head_string - 2 * r) * (v[6] + 1) / 2)
        place = legal_place(position.without(me), me, wanted, spec)
    return Stroke(me, float(speed), float(180 * v[1]), float(MAX_ELEVATION * (v[2] + 1) / 2), side, follow, place)


def encode_stroke(stroke: Stroke, spec: TableSpec = OFFICIAL) -> np.ndarray:
    """The normalised values that :func:`decode_stroke` turns back into ``stroke`` (a place only matters from
    hand): for replaying known strokes, such as a computer player's, through an environment."""
    direction = (stroke.direction + 180.0) % 360.0 - 180.0
    r = spec.ball_radius
    place = stroke.place or (spec.width / 2, spec.head_string / 2)
    return np.array(
        [
            2 * math.sqrt(stroke.speed / MAX_SPEED) - 1,
            direction / 180.0,
            2 * stroke.elevation / MAX_ELEVATION - 1,
            stroke.side / MAX_TIP_OFFSET,
            stroke.follow / MAX_TIP_OFFSET,
            2 * (place[0] - r) / (spec.width - 2 * r) - 1,
            2 * (place[1] - r) / (spec.head_string - 2 * r) - 1,
        ],
        dtype=np.float32,
    )


def call_index(call: Call | None, me: BallId) -> int:
    """The index of ``call`` among the enumerated calls of the player of ``me``; ``ValueError`` for a call the
    environments do not enumerate (a route with more than one rail, a konsti with rails, a jaw)."""
    for index in range(N_CALLS):
        if call_at(index, me) == call:
            return index
    raise ValueError(f"the call {call} is not among the environments' {N_CALLS} calls")


def legal_place(others: Position, me: BallId, wanted: Point, spec: TableSpec = OFFICIAL) -> Point:
    """``wanted`` if a cue ball in hand may go there (5), else the nearest legal point found on rings around it."""
    candidates = [wanted]
    for ring in range(1, 60):
        radius = ring * spec.ball_radius / 2
        steps = 8 + 4 * ring
        candidates += [
            (
                wanted[0] + radius * math.cos(2 * math.pi * k / steps),
                wanted[1] + radius * math.sin(2 * math.pi * k / steps),
            )
            for k in range(steps)
        ]
    for point in candidates:
        point = spec.push_off_cushions(point)
        try:
            check_hand_placement(others, me, point, spec)
        except IllegalPlacementError:
            continue
        return point
    raise IllegalPlacementError("no legal place for the cue ball in hand behind the head string")


__all__ = [
    "FLAGS",
    "N_CALLS",
    "SLOTS",
    "STROKE_SIZE",
    "TEMPLATES",
    "call_at",
    "call_index",
    "call_mask",
    "decode_stroke",
    "encode_stroke",
    "legal_place",
    "observe_state",
]
