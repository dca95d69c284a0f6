"""Ratings from game results: Bradley-Terry strengths, reported on the Elo scale, with bootstrap intervals.

The model (Bradley-Terry): player ``i`` has a strength ``p_i > 0`` and beats player ``j`` with probability
``p_i / (p_i + p_j)``. On the Elo scale, ``R_i = 1500 + 400 / ln 10 * (ln p_i - mean_k ln p_k)``, the same
model reads ``P(i beats j) = 1 / (1 + 10 ** (-(R_i - R_j) / 400))``: 400 points mean 10-to-1 odds, and the
ratings are anchored so that their mean is 1500 (a rating only means something against the others rated
in the same fit).

The fit and its choices:

- **maximum likelihood**, by Newton's method on the log strengths (with step halving, so every step raises
  the likelihood) started from a few steps of the MM algorithm (Hunter 2004, "MM algorithms for generalized
  Bradley-Terry models": ``p_i <- W_i / sum_j n_ij / (p_i + p_j)``). MM alone (``method="mm"``) finds the
  same maximum, but needs thousands of steps when a player wins or loses nearly every game, a common result
  between computer players of different levels, and the bootstrap fits hundreds of times;
- **a weak prior**: every player gets one virtual win and one virtual loss against a virtual player of
  strength 1 (the scale's origin). Without it a player who won (or lost) every game has no maximum (its
  strength runs off to infinity or zero) and players in separate groups have no common scale; with it every
  rating is finite and a player with few games is pulled gently towards the middle. Two virtual games are
  little against a tournament's tens of games, and nothing against hundreds;
- **95 % confidence intervals by a bootstrap over the games**: the tournament's decisive games are played
  again ``resamples`` times (200 by default, from a seeded generator, so the same results give the same
  intervals), each resample is fitted and anchored the same way, and the interval runs from the 2.5 to the
  97.5 percentile of each player's ratings. Two ways to play the games again (``bootstrap``):

  - ``model`` (the default, a parametric bootstrap): the same games between the same pairs, each winner drawn
    from the fitted model, ``P(i beats j) = p_i / (p_i + p_j)``;
  - ``games`` (the classic nonparametric bootstrap): as many games drawn with replacement from the games
    played.

  The default is ``model`` because the nonparametric bootstrap breaks down exactly where computer players
  often are: when one player won every game against another, every resample says so again, and the interval
  shrinks to a point (a 2-0 reads as certain). Drawing the winners from the fitted model (whose prior keeps
  every probability strictly between 0 and 1) lets a 2-0 come out 1-1 or 0-2 in some resamples, as it
  would if the games were played again. With many games both agree.

  A percentile interval of a very small sample can miss the estimate itself (the resamples' distribution
  is lumpy); the interval is then widened to include it, so that ``low <= rating <= high`` always holds.

Unfinished games (no winner) carry no information about who is stronger and are left out of the fit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

ELO_ORIGIN = 1500.0
"""The mean rating."""
ELO_PER_NAT = 400.0 / math.log(10.0)
"""Elo points per unit of log strength: 400 points for a factor of 10."""
PRIOR_GAMES = 1.0
"""Virtual wins (and as many virtual losses) of every player against the strength-1 origin."""
RESAMPLES = 200
CONFIDENCE = 0.95

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Rating:
    """One player's fitted strength and rating."""

    name: str
    strength: float
    """Bradley-Terry strength, scaled so that the geometric mean over the players is 1."""
    rating: float
    """Elo-scale rating (mean 1500)."""
    low: float
    """Lower end of the confidence interval (Elo scale)."""
    high: float
    """Upper end of the confidence interval (Elo scale)."""

    def to_json(self) -> dict[str, float | str]:
        return {"name": self.name, "strength": self.strength, "rating": self.rating, "low": self.low, "high": self.high}


def win_matrix(players: int, outcomes: Sequence[tuple[int, int]]) -> FloatArray:
    """``wins[i, j]``: how many times player ``i`` beat player ``j``; ``outcomes`` are (winner, loser) pairs."""
    wins = np.zeros((players, players), dtype=np.float64)
    for winner, loser in outcomes:
        if not (0 <= winner < players and 0 <= loser < players) or winner == loser:
            raise ValueError(f"an outcome names two different players among 0..{players - 1}, not {(winner, loser)}")
        wins[winner, loser] += 1.0
    return wins


def log_posterior(wins: FloatArray, theta: FloatArray, prior: float = PRIOR_GAMES) -> float:
    """The log-likelihood of ``wins`` at log strengths ``theta``, with the prior's virtual games."""
    diff = theta[:, None] - theta[None, :]
    games = float(np.sum(wins * -np.logaddexp(0.0, -diff)))
    virtual = float(np.sum(theta - 2.0 * np.logaddexp(0.0, theta)))
    return games + prior * virtual


def _newton(wins: FloatArray, prior: float, theta: FloatArray, tolerance: float, max_iterations: int) -> FloatArray:
    games = wins + wins.T
    won = wins.sum(axis=1)
    current = log_posterior(wins, theta, prior)
    for _ in range(max_iterations):
        p_beats = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # P(i beats j)
        p_origin = 1.0 / (1.0 + np.exp(-theta))
        gradient = won - (games * p_beats).sum(axis=1) + prior * (1.0 - 2.0 * p_origin)
        curvature = games * p_beats * (1.0 - p_beats)
        hessian = curvature - np.diag(curvature.sum(axis=1) + 2.0 * prior * p_origin * (1.0 - p_origin))
        step = -np.linalg.solve(hessian, gradient)  # the log posterior is strictly concave: a rise direction
        scale = 1.0
        while True:  # halve the step until the posterior rises (it always does for a small enough step)
            candidate = theta + scale * step
            value = log_posterior(wins, candidate, prior)
            if value >= current or scale < 1e-6:
                break
            scale /= 2.0
        theta, current = candidate, value
        if float(np.max(np.abs(scale * step))) < tolerance:
            break
    return theta


def _mm(wins: FloatArray, prior: float, theta: FloatArray, tolerance: float, max_iterations: int) -> FloatArray:
    games = wins + wins.T
    won = wins.sum(axis=1) + prior
    p = np.exp(theta)
    for _ in range(max_iterations):
        denominator = (games / (p[:, None] + p[None, :])).sum(axis=1) + 2.0 * prior / (p + 1.0)
        updated = won / denominator
        change = float(np.max(np.abs(np.log(updated) - np.log(p))))
        p = updated
        if change < tolerance:
            break
    return np.asarray(np.log(p), dtype=np.float64)


def bradley_terry(
    wins: FloatArray,
    *,
    prior: float = PRIOR_GAMES,
    method: str = "newton",
    tolerance: float = 1e-10,
    max_iterations: int | None = None,
) -> FloatArray:
    """The strengths that maximise the Bradley-Terry likelihood of ``wins`` (``wins[i, j]``: wins of ``i``
    over ``j``) with ``prior`` virtual wins and losses of every player against a strength-1 player (see the
    module); scaled to a geometric mean of 1.

    ``method``: ``newton`` (the default: Newton's method on the log strengths, with step halving, from a few
    MM steps; quadratic convergence) or ``mm`` (the MM algorithm alone, whose convergence is slow when a
    player wins or loses nearly everything). Both find the same maximum, which is unique: with the prior the
    log-likelihood is strictly concave in the log strengths.
    """
    wins = np.asarray(wins, dtype=np.float64)
    n = wins.shape[0]
    if wins.ndim != 2 or wins.shape != (n, n) or n == 0:
        raise ValueError(f"wins must be a non-empty square matrix, not of shape {wins.shape}")
    if prior <= 0:
        raise ValueError("the prior must be > 0: without it an unbeaten player's strength is infinite")
    if method not in ("newton", "mm"):
        raise ValueError(f"method must be newton or mm, not {method!r}")
    theta = np.zeros(n, dtype=np.float64)
    if method == "mm":
        theta = _mm(wins, prior, theta, tolerance, max_iterations or 100_000)
    else:
        theta = _newton(wins, prior, _mm(wins, prior, theta, 1e-3, 5), tolerance, max_iterations or 100)
    return np.asarray(np.exp(theta - theta.mean()), dtype=np.float64)


def elo(strengths: FloatArray) -> FloatArray:
    """Strengths on the Elo scale, anchored so that the mean rating is 1500."""
    logs = np.log(np.asarray(strengths, dtype=np.float64))
    return np.asarray(ELO_ORIGIN + ELO_PER_NAT * (logs - logs.mean()), dtype=np.float64)


def expected_score(rating: float, other: float) -> float:
    """The probability that a player rated ``rating`` beats one rated ``other`` (the model's prediction)."""
    return 1.0 / (1.0 + math.pow(10.0, -(rating - other) / 400.0))


BOOTSTRAPS = ("model", "games")


def rate(
    names: Sequence[str],
    outcomes: Sequence[tuple[int, int]],
    *,
    resamples: int = RESAMPLES,
    seed: int = 0,
    confidence: float = CONFIDENCE,
    prior: float = PRIOR_GAMES,
    bootstrap: str = "model",
) -> tuple[Rating, ...]:
    """Rate ``names`` from decisive games given as (winner index, loser index) pairs: the Bradley-Terry fit
    on the Elo scale with bootstrap confidence intervals over the games, ``bootstrap`` ``model`` or ``games``
    (see the module). Deterministic for the same arguments. With no games every player is rated 1500 with
    an empty interval."""
    if len(names) < 1:
        raise ValueError("rating needs at least one player")
    if resamples < 0 or not 0.0 < confidence < 1.0:
        raise ValueError("resamples must be >= 0 and the confidence between 0 and 1")
    if bootstrap not in BOOTSTRAPS:
        raise ValueError(f"bootstrap must be one of {', '.join(BOOTSTRAPS)}, not {bootstrap!r}")
    n = len(names)
    pairs = np.asarray(outcomes, dtype=np.int64).reshape(-1, 2)
    strengths = bradley_terry(win_matrix(n, [(int(w), int(lo)) for w, lo in pairs]), prior=prior)
    ratings = elo(strengths)
    low, high = ratings.copy(), ratings.copy()
    if len(pairs) and resamples:
        rng = np.random.default_rng(seed)
        p_first = strengths[pairs[:, 0]] / (strengths[pairs[:, 0]] + strengths[pairs[:, 1]])
        samples = np.empty((resamples, n), dtype=np.float64)
        for b in range(resamples):
            if bootstrap == "games":
                drawn = pairs[rng.integers(0, len(pairs), size=len(pairs))]
            else:
                keep = rng.random(len(pairs)) < p_first
                drawn = np.where(keep[:, None], pairs, pairs[:, ::-1])
            wins = np.zeros((n, n), dtype=np.float64)
            np.add.at(wins, (drawn[:, 0], drawn[:, 1]), 1.0)
            samples[b] = elo(bradley_terry(wins, prior=prior))
        tail = 100.0 * (1.0 - confidence) / 2.0
        low = np.minimum(np.percentile(samples, tail, axis=0), ratings)
        high = np.maximum(np.percentile(samples, 100.0 - tail, axis=0), ratings)
    return tuple(
        Rating(name, float(s), float(r), float(lo), float(hi))
        for name, s, r, lo, hi in zip(names, strengths, ratings, low, high, strict=True)
    )
