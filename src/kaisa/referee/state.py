"""What the referee must know about the game before a stroke (STATE.json)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from kaisa.errors import FormatError
from kaisa.model import BallId

CUE_BALLS = (BallId.W1, BallId.W2)


def opponent_of(cue_ball: BallId) -> BallId:
    return BallId.W2 if cue_ball is BallId.W1 else BallId.W1


@dataclass(frozen=True)
class GameState:
    """Scores and flags, keyed by the players' cue balls (W1 breaks, 1.2).

    ``in_hand`` holds the cue balls whose owners play their next stroke from hand (5, 7c);
    ``last_pot_direct_middle_kaisa`` is True when the previous pot of this inning put the kaisa directly into
    a middle pocket (2.1); ``kaisa_off_centre`` when the kaisa was spotted off the centre spot and no ball has
    touched it since (4); ``shootout`` when the stroke belongs to the penalty shoot-out (6).
    """

    scores: Mapping[BallId, int] = field(default_factory=lambda: {BallId.W1: 0, BallId.W2: 0})
    shooter: BallId = BallId.W1
    opening: bool = False
    in_hand: frozenset[BallId] = frozenset()
    last_pot_direct_middle_kaisa: bool = False
    kaisa_off_centre: bool = False
    shootout: bool = False

    def __post_init__(self) -> None:
        if self.shooter not in CUE_BALLS:
            raise FormatError(f"the shooter is a cue ball, W1 or W2, not {self.shooter}")
        if set(self.scores) != set(CUE_BALLS):
            raise FormatError("scores need exactly the two cue balls W1 and W2")
        if not self.in_hand <= set(CUE_BALLS):
            raise FormatError("only cue balls (W1, W2) can be in hand")
        object.__setattr__(self, "scores", {b: int(self.scores[b]) for b in CUE_BALLS})

    @property
    def from_hand(self) -> bool:
        """This stroke is played from behind the head string: ball in hand or the break."""
        return self.opening or self.shooter in self.in_hand

    @property
    def shootout_inning_start(self) -> bool:
        """The first stroke of a shoot-out inning: the cue ball in hand, the kaisa on the centre spot (6)."""
        return self.shootout and self.shooter in self.in_hand

    def score(self, cue_ball: BallId) -> int:
        return self.scores[cue_ball]

    def evolve(self, **changes: Any) -> GameState:
        return replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        """The state as JSON; ``shootout`` appears only in the shoot-out, so states stored before it existed
        read and write back the same."""
        out: dict[str, Any] = {
            "scores": {b.value: s for b, s in self.scores.items()},
            "shooter": self.shooter.value,
            "opening": self.opening,
            "in_hand": sorted(b.value for b in self.in_hand),
            "last_pot_direct_middle_kaisa": self.last_pot_direct_middle_kaisa,
            "kaisa_off_centre": self.kaisa_off_centre,
        }
        if self.shootout:
            out["shootout"] = True
        return out

    @classmethod
    def from_json(cls, data: object) -> GameState:
        if not isinstance(data, dict):
            raise FormatError('a state must be an object like {"scores": {"W1": 0, "W2": 0}, "shooter": "W1"}')
        allowed = {
            "scores",
            "shooter",
            "opening",
            "in_hand",
            "last_pot_direct_middle_kaisa",
            "kaisa_off_centre",
            "shootout",
        }
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise FormatError(f"state has unknown keys {unknown}; allowed are {sorted(allowed)}")
        try:
            scores_raw = data.get("scores", {"W1": 0, "W2": 0})
            if not isinstance(scores_raw, dict) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in scores_raw.values()
            ):
                raise FormatError('scores must be whole numbers, e.g. {"W1": 12, "W2": -2}')
            in_hand = data.get("in_hand", [])
            if not isinstance(in_hand, list) or not all(isinstance(b, str) for b in in_hand):
                raise FormatError(f'state in_hand is a list of cue balls, e.g. ["W1"], not {in_hand!r}')
            for key in ("opening", "last_pot_direct_middle_kaisa", "kaisa_off_centre", "shootout"):
                if not isinstance(data.get(key, False), bool):
                    raise FormatError(f"state {key} must be true or false")
            return cls(
                scores={BallId(str(k)): v for k, v in scores_raw.items()},
                shooter=BallId(str(data.get("shooter", "W1"))),
                opening=data.get("opening", False),
                in_hand=frozenset(BallId(b) for b in in_hand),
                last_pot_direct_middle_kaisa=data.get("last_pot_direct_middle_kaisa", False),
                kaisa_off_centre=data.get("kaisa_off_centre", False),
                shootout=data.get("shootout", False),
            )
        except ValueError as exc:
            if isinstance(exc, FormatError):
                raise
            raise FormatError(f"bad state: {exc}; balls are W1 W2 R1 R2 K") from None
