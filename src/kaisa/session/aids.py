"""The aids a page offers in study and during a match: the advisor's ranked calls (:func:`advise`), the aim
helper's window of directions that pots a call (:func:`aim`) and why a call cannot score (:func:`call_prospects`).

They read a position and a state and record nothing; a change to how the aim helper searches goes here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from kaisa.call import Call
from kaisa.errors import InvalidPositionError, InvalidStrokeError, KaisaError
from kaisa.model import Position, Stroke
from kaisa.players import COMPUTER_KINDS, seat_noise
from kaisa.referee import GameState, RuleOptions
from kaisa.referee.prospects import call_words
from kaisa.referee.ruling import RulingItem, Text
from kaisa.table import OFFICIAL, TableSpec

if TYPE_CHECKING:
    from kaisa.players.search import Evaluation


def advise(position: Position, game: GameState | None, level: str, seed: int = 0) -> list[Evaluation]:
    """The advisor's evaluated calls in ``position`` (``game``: default W1 at the table), best first: a search
    level's ranked calls, or for ``baseline`` the one stroke the baseline player would play, appraised the same
    way (:data:`ADVISOR_LEVELS`). Refuses a cue ball that is neither on the table nor in hand."""
    from kaisa.players.kinds import BASELINE
    from kaisa.players.search import advise as search_advise

    game = game or GameState()
    if not game.from_hand and game.shooter not in position:
        raise InvalidPositionError(
            f"{game.shooter.value} is to play but is not on the table: put it in the position, or play it from hand "
            f"(a state with {game.shooter.value} in in_hand)"
        )
    if level == BASELINE:
        return [_baseline_advice(position, game, seed)]
    return search_advise(position, game, level=level, seed=seed)


ADVISOR_LEVELS = COMPUTER_KINDS
"""The levels :func:`advise` plays: every computer player's kind (baseline, beginner, club, master)."""

BASELINE_SAMPLES = 12
"""Noisy executions that appraise the baseline player's stroke in :func:`advise`."""


def _baseline_advice(position: Position, game: GameState, seed: int) -> Evaluation:
    """The baseline player's stroke, played with its seat's noise and scored as the search scores its own (no
    look at the position left: the baseline never thinks of it)."""
    from kaisa.players import BASELINE, BaselinePlayer
    from kaisa.players.levels import LEVELS
    from kaisa.players.search import SearchPlayer

    call, stroke = BaselinePlayer(BASELINE, seed).shot(position, game, OFFICIAL, 0)
    yardstick = SearchPlayer("beginner", seed=seed, noise=seat_noise(BASELINE) / LEVELS["beginner"].noise)
    appraised = yardstick.appraise(call, stroke, position, game, BASELINE_SAMPLES)
    return replace(appraised, kind="direct" if call is not None else "safety")


@dataclass(frozen=True)
class Aim:
    """The aim helper's answer: the centre of the run of directions that pots a call (the physics, not geometry)
    with the stroke it found, or, when nothing it tried pots, ``found`` false with what to try instead."""

    direction: float
    """Degrees: the window's centre (when nothing pots: the geometric aim, or the stroke's own direction)."""
    width: float
    """Degrees: how far the direction may err and still pot (0.01-0.5 on most pots; 0 when nothing pots)."""
    speed: float
    """m/s: the stroke's speed, or the one the search found when the person's pots in no direction."""
    simulations: int
    side: float = 0.0
    """The stroke's side spin, or the one the search found (fractions of the ball's radius)."""
    follow: float = 0.0
    """The stroke's follow (+) or draw (-), or the one the search found."""
    found: bool = True
    said: Text | None = None
    """What happened, in Finnish and English: what was changed to pot, or that nothing pots and what to try."""

    def to_json(self) -> dict[str, Any]:
        out = {k: v for k, v in self.__dict__.items() if k != "said"}
        out["said"] = None if self.said is None else {"fi": self.said.fi, "en": self.said.en}
        return out


def call_prospects(position: Position, game: GameState, call: Call, spec: TableSpec = OFFICIAL) -> list[RulingItem]:
    """Why ``call`` cannot score in this state, as the referee would say it (empty: it can): the referee's
    :func:`kaisa.referee.prospects.call_prospects`, the very list the judge voids a pot by, so the page marks a
    call before the stroke exactly as the ruling would void it after."""
    from kaisa.referee.prospects import call_prospects as referee_prospects

    return referee_prospects(position, call, game, spec)


AIM_SCANS = ((0.8, 0.04), (0.25, 0.01))
"""(half width, step) in degrees of the window scans around the aim for each stroke tried, wide and coarse
first, then narrow and fine (a window of a thin cut is often under 0.04 degrees wide)."""

AIM_WIDE_SCAN = (3.0, 0.1)
"""The scan of the person's own stroke that looks furthest from the geometric aim."""

AIM_SPEEDS = (1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0)
"""m/s: the speeds the aim helper tries, nearest the person's first, when the person's own pots in no direction."""

AIM_SPINS = ((0.0, 0.0), (0.0, 0.4), (0.0, -0.4))
"""(side, follow): the spins it tries after the speeds with the person's own spin (none, follow, draw)."""

AIM_BUDGET = 2500
"""Simulations the search may spend before it says that nothing pots (1-3 s; more on a loaded machine)."""


def _fmt(x: float, fi: bool) -> str:
    text = f"{x:.2f}"
    return text.replace(".", ",") if fi else text


def aim(
    position: Position,
    game: GameState,
    call: Call,
    stroke: Stroke,
    *,
    options: RuleOptions | None = None,
    spec: TableSpec = OFFICIAL,
    deep: bool = True,
) -> Aim:
    """Aim ``stroke`` (its place and elevation kept) at the centre of the window of directions that pots ``call``
    legally, found by the players' window search around the geometric aim of the call (or the stroke's own
    direction when the geometry has no route for it). The person's own speed and spin are tried first; when they
    pot in no direction, the geometric route's speed, then :data:`AIM_SPEEDS` nearest the person's, then
    :data:`AIM_SPINS`, so that the helper never gives up on a call that a plain stroke pots (not ``deep``: the
    stroke as set only, a quick search for the window drawn on the aim). When nothing pots the answer says so
    (``found`` false) with what to try, as a normal answer: not finding is no error."""
    from kaisa.players.candidates import ShotCandidate
    from kaisa.players.search import find_window
    from kaisa.players.shots import generate

    options = options or RuleOptions()
    call.check_shooter(game.shooter)
    if game.from_hand and stroke.place is None:
        raise InvalidStrokeError(f"{game.shooter.value} plays from hand: place it behind the head string first")
    if not game.from_hand and game.shooter not in position:
        raise InvalidPositionError(f"{game.shooter.value} is to play but is not on the table")
    start = position.without(game.shooter) if game.from_hand else position
    if call.ball not in start:
        raise InvalidStrokeError(f"the called ball {call.ball.value} is not on the table")
    try:
        routes = [c for c in generate(position, game, spec, cue=stroke.place) if c.call == call]
    except (ValueError, KaisaError):
        routes = []
    base = routes[0].stroke.direction if routes else stroke.direction
    own = (stroke.side, stroke.follow)
    tries: list[tuple[float, float, float, tuple[tuple[float, float], ...]]] = [
        (stroke.speed, *own, (*AIM_SCANS, AIM_WIDE_SCAN))
    ]
    speeds = sorted(AIM_SPEEDS, key=lambda v: abs(v - stroke.speed))
    if routes:
        speeds.insert(0, routes[0].stroke.speed)
    for side, follow in (own, *(s for s in AIM_SPINS if s != own)) if deep else ():
        for speed in speeds:
            if abs(speed - stroke.speed) > 0.05 or (side, follow) != own:
                tries.append((speed, side, follow, AIM_SCANS))
    simulations = 0
    for speed, side, follow, scans in tries:
        candidate = ShotCandidate(
            call, replace(stroke, direction=base, speed=speed, side=side, follow=follow), 0.0, "person"
        )
        for half_width, step in scans:
            if simulations >= AIM_BUDGET:
                break
            window = find_window(start, candidate, game, half_width, step, spec, options)
            if window is None:
                simulations += 2 * round(half_width / step) + 1
                continue
            direction = (window.stroke.direction + 180.0) % 360.0 - 180.0
            said = None
            if abs(speed - stroke.speed) > 0.005 or (side, follow) != own:
                spin_fi = spin_en = ""
                if (side, follow) != own:
                    spin_fi = ", ylä" if follow > 0 else ", ala" if follow < 0 else ", keskeltä"
                    spin_en = ", follow" if follow > 0 else ", draw" if follow < 0 else ", centre ball"
                said = Text(
                    f"Omalla voimallasi ja kierteelläsi maalaus ei mene: tähtäys pussittavalla voimalla "
                    f"{_fmt(speed, True)} m/s{spin_fi}.",
                    f"Your own power and spin pot the call in no direction: aimed with a power that pots, "
                    f"{_fmt(speed, False)} m/s{spin_en}.",
                )
            return Aim(
                round(direction, 4),
                round(window.width, 4),
                round(speed, 3),
                simulations + window.simulations,
                side,
                follow,
                said=said,
            )
        if simulations >= AIM_BUDGET:
            break
    words = call_words(call)
    low, high = min(AIM_SPEEDS), max(AIM_SPEEDS)
    said = Text(
        f"Mikään suunta ei pussita maalausta ({words.fi}) voimilla {_fmt(low, True)}–{_fmt(high, True)} m/s "
        "ylä-, ala- tai keskikierteellä. Kokeile toista maalausta tai vallin kautta, tai pelaa varmistus.",
        f"No direction pots the call ({words.en}) at {_fmt(low, False)}-{_fmt(high, False)} m/s with follow, "
        "draw or a centre ball. Try another call or a route off a cushion, or play safe.",
    )
    if not deep:
        said = Text(
            f"Mikään suunta ei pussita maalausta ({words.fi}) voimalla {_fmt(stroke.speed, True)} m/s ja tällä "
            "kierteellä. Kokeile toista voimaa tai kierrettä (tähtäysapu etsii niitä).",
            f"No direction pots the call ({words.en}) at {_fmt(stroke.speed, False)} m/s with this spin. Try "
            "another power or spin (the aim helper searches them).",
        )
    return Aim(
        round((base + 180.0) % 360.0 - 180.0, 4),
        0.0,
        stroke.speed,
        simulations,
        stroke.side,
        stroke.follow,
        found=False,
        said=said,
    )
