"""The points of section 2, stated once.

Nakki values are white 2, red 3, kaisa 6 for each distinct ball the cue ball touched. With no nakki the
called ball is worth white 2, red 3, kaisa 6 (corner) or 12 (middle, direct). With at least one nakki the
called ball itself is worth white 1, red 3, kaisa 9 (corner) or 15 (middle, direct), plus the nakki values.
A kaisa in a middle pocket that was not direct (kyyti, off a ball, via cushions) counts as a corner kaisa
(2.1). The whole points table of REFERENCE.md section 3 follows from this; the tests check every entry.
"""

from __future__ import annotations

from collections.abc import Iterable

from kaisa.call import Call
from kaisa.model import BallId

NAKKI_VALUE = {"white": 2, "red": 3, "kaisa": 6}
BALL_VALUE = {"white": 2, "red": 3, "kaisa": 6}
"""The value of a ball as an extra ball (2.1) and of a white or red called ball with no nakki."""


def kind(ball: BallId) -> str:
    return "white" if ball.is_white else ("red" if ball.is_red else "kaisa")


def called_ball_value(ball: BallId, *, middle_direct: bool, with_nakki: bool) -> int:
    """The called ball's own value, given the pocket and route, with or without nakki."""
    if ball.is_kaisa:
        if with_nakki:
            return 15 if middle_direct else 9
        return 12 if middle_direct else 6
    if ball.is_white:
        return 1 if with_nakki else 2
    return 3


def is_middle_direct_kaisa(call: Call) -> bool:
    """The call earns the middle-pocket kaisa value: the kaisa into a middle pocket, direct (2.1)."""
    return call.ball.is_kaisa and call.pocket.is_middle and call.is_direct


def nakki_value(balls: Iterable[BallId]) -> int:
    return sum(NAKKI_VALUE[kind(b)] for b in set(balls))


def pot_value(ball: BallId, nakki: Iterable[BallId], *, middle_direct: bool) -> int:
    """The points of a legal pot of ``ball`` with these nakki balls (extra balls not included)."""
    nakki = set(nakki)
    return called_ball_value(ball, middle_direct=middle_direct, with_nakki=bool(nakki)) + nakki_value(nakki)
