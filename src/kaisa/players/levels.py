"""How strong each computer player is: the search levels, stated once.

A :class:`Level` is a budget (how many candidates, windows, samples and placements a decision may spend) and
the level's execution noise. It lives apart from the search so that the list of player kinds
(:mod:`kaisa.players.kinds`) and the match's chance step can read a level without importing the physics.
"""

from __future__ import annotations

from dataclasses import dataclass

from kaisa.players.candidates import KINDS


@dataclass(frozen=True, kw_only=True)
class Level:
    """How well a computer player plays: its execution noise and how much it searches."""

    name: str
    """The level's name, also its player kind (``beginner``, ``club``, ``master``)."""
    noise: float
    """Execution noise at the table, in multiples of the stroke-noise convention (1 = a good club player)."""
    kinds: tuple[str, ...]
    """The kinds of shot it generates (direct, bank, kick, kyyti, kara, kiss)."""
    candidates: int
    """How many of the easiest candidates get a physics window search."""
    scan_half_width: float
    """Degrees either side of the geometric aim that the window search covers."""
    scan_step: float
    """Degrees between the directions the window search tries: the narrowest window it can find."""
    samples: int
    """Noisy executions per evaluated window."""
    speeds: tuple[float, ...]
    """Multipliers of the candidate's speed that are tried."""
    evaluate: int
    """How many of the best windows get the noisy evaluation."""
    placements: int
    """Cue-ball placements tried from hand."""
    position_weight: float
    """How much the position left counts: the weight of the next shot's expected points (ours if the turn
    continues, the opponent's if it passes; see :meth:`kaisa.players.search.SearchPlayer.next_shot_value`)."""
    reply_kinds: tuple[str, ...] = ("direct",)
    """The kinds of next shot the position value looks for."""
    safety_below: float = 0.3
    """A safety is searched when no pot scores more than this."""
    safety_samples: int = 1
    """Noisy executions of each of the best few safeties."""


LEVELS: dict[str, Level] = {
    # Windows are narrow (typically 0.03-0.5 degrees against a direction noise of 0.125), so the scan step
    # sets the narrowest window a level can find and use.
    "beginner": Level(
        name="beginner",
        noise=2.0,
        kinds=("direct",),
        candidates=3,
        scan_half_width=0.5,
        scan_step=0.1,
        samples=4,
        speeds=(1.0,),
        evaluate=1,
        placements=3,
        position_weight=0.0,
    ),
    "club": Level(
        name="club",
        noise=1.0,
        kinds=("direct", "bank", "kyyti"),
        candidates=5,
        scan_half_width=0.7,
        scan_step=0.07,
        samples=8,
        speeds=(1.0,),
        evaluate=2,
        placements=6,
        position_weight=0.5,
    ),
    # Issue 26: more candidates bought nothing measurable (docs/PERFORMANCE.md section 5); what cut the regret
    # against a five times deeper search was evaluating more windows (the deep search's choice was mostly a
    # window the master had found but not evaluated) with more plays each: 6 of 30 instead of 3 of 20. The
    # master as issue 26 found it is kaisa.bench.master.BEFORE_26.
    "master": Level(
        name="master",
        noise=1.0,
        kinds=KINDS,
        candidates=6,
        scan_half_width=0.8,
        scan_step=0.08,
        samples=30,
        speeds=(0.75, 1.1),
        evaluate=6,
        placements=9,
        position_weight=1.0,
        reply_kinds=KINDS,
        safety_below=1.0,
        safety_samples=6,
    ),
}
