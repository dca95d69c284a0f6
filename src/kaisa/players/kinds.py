"""The kinds of player a match can have, stated once: their names and descriptions in Finnish and English,
whether the computer plays them, and the execution noise of their seat at a simulated table.

Every interface (the command line's ``--p1``/``--level``/``--players``, the browser table's API and page, the
environments' opponents, the tournament) takes its list and its words from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kaisa.players.levels import LEVELS

HUMAN = "human"
BASELINE = "baseline"


@dataclass(frozen=True, kw_only=True)
class PlayerKind:
    """One kind of player."""

    kind: str
    """The identifier used everywhere: the API, the database, the command line."""
    name_fi: str
    name_en: str
    description_fi: str
    description_en: str
    computer: bool
    """The computer decides this player's actions."""
    noise: float
    """The execution noise of this player's seat at a simulated table, in multiples of the stroke-noise
    convention; 0 for a person, whose stroke is played exactly as aimed on the screen."""

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": {"fi": self.name_fi, "en": self.name_en},
            "description": {"fi": self.description_fi, "en": self.description_en},
            "computer": self.computer,
            "noise": self.noise,
        }


KINDS: dict[str, PlayerKind] = {
    HUMAN: PlayerKind(
        kind=HUMAN,
        name_fi="ihminen",
        name_en="person",
        description_fi="pelaaja tämän ruudun ääressä",
        description_en="a person at this screen",
        computer=False,
        noise=0.0,
    ),
    BASELINE: PlayerKind(
        kind=BASELINE,
        name_fi="vertailupelaaja",
        name_en="baseline",
        description_fi="maalaa helpoimman suoran pussituksen ja tähtää sitä kohti, ei etsi muuta",
        description_en="calls the easiest direct pot and aims at it by eye, searches nothing else",
        computer=True,
        noise=1.0,
    ),
    "beginner": PlayerKind(
        kind="beginner",
        name_fi="aloittelija",
        name_en="beginner",
        description_fi="pussittaa suoria lyöntejä, mutta käsi vapisee",
        description_en="pots straight shots, with a shaky arm",
        computer=True,
        noise=LEVELS["beginner"].noise,
    ),
    "club": PlayerKind(
        kind="club",
        name_fi="seurapelaaja",
        name_en="club player",
        description_fi="vallilyönnit ja kyydit, vakaa käsi",
        description_en="banks and kyyti, with a steady arm",
        computer=True,
        noise=LEVELS["club"].noise,
    ),
    "master": PlayerKind(
        kind="master",
        name_fi="mestari",
        name_en="master",
        description_fi="kaikki maalaukset, asemapeli ja varmistukset",
        description_en="every kind of call, position play and safeties",
        computer=True,
        noise=LEVELS["master"].noise,
    ),
}

COMPUTER_KINDS = tuple(k for k, v in KINDS.items() if v.computer)
"""The computer players, weakest first by design: baseline, beginner, club, master."""


def player_kind(kind: str) -> PlayerKind:
    """The kind called ``kind``; ``ValueError`` naming the kinds there are."""
    try:
        return KINDS[kind]
    except KeyError:
        raise ValueError(f"unknown player kind {kind!r}; the kinds are {', '.join(KINDS)}") from None


def seat_noise(kind: str, scale: float = 1.0) -> float:
    """The execution noise of a seat taken by a player of ``kind`` (``scale`` 1 = the kind's own)."""
    return player_kind(kind).noise * scale
