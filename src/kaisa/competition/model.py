"""The kaavio's values: bracket types, players, games and how a typed score reads (KAAVIO.md 2, 7).

Everything here is a plain typed value with ``to_json``/``from_json`` next to each other, so the storage, the
web and the KaisaKaavio file format read the same facts back as typed objects.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from kaisa.errors import ErrorText, KaisaError

#: A knockout round so late that no game reaches it: the tuplakaavio never knocks out on one loss.
NEVER = 999


class CompetitionError(KaisaError):
    """Bad input to a competition: a stable ``code`` plus the message in Finnish and English."""

    kind = ErrorText("Kilpailun tieto on virheellinen.", "The competition's data is not valid.")

    def __init__(self, code: str, fi: str, en: str) -> None:
        super().__init__(en)
        self.code = code
        self.fi = fi
        self.en = en
        self.text = ErrorText(fi, en)
        """The whole refusal in both languages (:func:`kaisa.errors.error_text` reads it)."""


class KaavioType(StrEnum):
    """The bracket types (KaavioTyyppi, KAAVIO 2); the values are KaisaKaavio's names."""

    DOUBLE = "TuplaKaavio"
    KO2 = "Pudari2Kierros"
    KO3 = "Pudari3Kierros"
    KO4 = "Pudari4Kierros"
    KO5 = "Pudari5Kierros"
    KO6 = "Pudari6Kierros"
    CUP = "KaksiKierrostaJaCup"

    @property
    def first_ko_round(self) -> int:
        """From this personal round on, one loss puts a player out (KAAVIO 1, 2)."""
        return {
            KaavioType.KO2: 2,
            KaavioType.KO3: 3,
            KaavioType.KO4: 4,
            KaavioType.KO5: 5,
            KaavioType.KO6: 6,
            KaavioType.CUP: 3,
        }.get(self, NEVER)

    def label(self, lang: str = "fi") -> str:
        fi = {
            KaavioType.DOUBLE: "Tuplakaavio",
            KaavioType.CUP: "Kaksi kierrosta ja cup",
        }
        en = {
            KaavioType.DOUBLE: "Double elimination",
            KaavioType.CUP: "Two rounds, then a cup",
        }
        if self in fi:
            return fi[self] if lang == "fi" else en[self]
        k = self.first_ko_round
        return f"Pudari {k}. kierroksesta" if lang == "fi" else f"Out after one loss from round {k}"


class PlacingMode(StrEnum):
    """How places are decided at the end (KAAVIO 8)."""

    POINTS = "points"  # the winner first, the others by wins·100000 + points
    FINALISTS = "finalists"  # as POINTS, and the loser of the last game is 2nd
    TOP3_BY_ROUNDS = "top3"  # as FINALISTS, and non-finalists out with the most games share 3rd
    CUP = "cup"  # 0 wins last; the rest by games played


class Seeding(StrEnum):
    """Seeded draw numbers (KAAVIO 3.2, 3.3)."""

    NONE = "none"
    EIGHT = "8"
    TWENTY_FOUR = "24"


class Outcome(StrEnum):
    """What a game's two score columns say (Tulos, KAAVIO 7)."""

    UNKNOWN = "unknown"
    P1 = "p1"
    P2 = "p2"
    BOTH_LOST = "both_lost"
    INVALID = "invalid"

    @property
    def decided(self) -> bool:
        return self in (Outcome.P1, Outcome.P2, Outcome.BOTH_LOST)


class GameState(StrEnum):
    """Tilanne: not ready, ready to start, on a table, played."""

    EMPTY = "empty"
    READY = "ready"
    RUNNING = "running"
    PLAYED = "played"


_POINTS = re.compile(r"^\s*(\d{0,3})\s*([vVhH]?)\s*$")


def parse_points(text: str, target: int = 60) -> tuple[int | None, str]:
    """One score column: a number clamped to 0..target and an optional mark, v (won) or h (lost)."""
    m = _POINTS.match(text)
    if m is None:
        raise CompetitionError(
            "bad_points",
            f"Pistemäärä '{text}' ei kelpaa: anna luku 0–{target}, perään tarvittaessa v (voitti) tai h (hävisi).",
            f"Score '{text}' is not valid: give a number 0-{target}, optionally followed by v (won) or h (lost).",
        )
    number = int(m.group(1)) if m.group(1) else None
    if number is not None:
        number = max(0, min(target, number))
    return number, m.group(2).lower()


def read_result(points1: str, points2: str, target: int = 60) -> Outcome:
    """KAAVIO 7, reading a result: the v/h marks first, then who reached the target."""
    n1, m1 = parse_points(points1, target)
    n2, m2 = parse_points(points2, target)
    if m1 == "v" and m2 == "v":
        return Outcome.INVALID
    if m1 == "h" and m2 == "h":
        return Outcome.BOTH_LOST
    if m1 == "v" or m2 == "h":
        return Outcome.P1
    if m2 == "v" or m1 == "h":
        return Outcome.P2
    reached1 = n1 is not None and n1 >= target
    reached2 = n2 is not None and n2 >= target
    if reached1 and reached2:
        return Outcome.INVALID
    if reached1:
        return Outcome.P1
    if reached2:
        return Outcome.P2
    return Outcome.UNKNOWN


def points_value(text: str, target: int = 60) -> int:
    """The number in a score column (0 when empty)."""
    n, _ = parse_points(text, target)
    return n or 0


@dataclass(frozen=True)
class Player:
    """A registered player: his draw number (0 until the draw), name, club and seed (0 = unseeded).

    ``extra`` keeps the attributes of a KaisaKaavio file's ``<Pelaaja>`` this project does not use (the fees:
    KabikeMaksu, LisenssiMaksu, OsMaksu, SeuranJasenMaksu, Veloitettu), in the file's order, so that a file read
    and written again keeps them."""

    number: int
    name: str
    club: str = ""
    seed: int = 0
    extra: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"number": self.number, "name": self.name, "club": self.club, "seed": self.seed}
        if self.extra:
            d["extra"] = dict(self.extra)
        return d

    @staticmethod
    def from_json(d: dict[str, Any]) -> Player:
        extra = tuple((str(k), str(v)) for k, v in d.get("extra", {}).items())
        return Player(int(d["number"]), str(d["name"]), str(d.get("club", "")), int(d.get("seed", 0)), extra)


HAND_PAIRED = "Haettu käsin: "
"""How a game paired by hand (hae käsin) starts its comment (HakuKommentti), followed by the director's reason in
his own words: KaisaKaavio's file keeps the comment, so the prefix is the same in every language."""


def hand_reason(comment: str) -> str | None:
    """The director's reason for a game paired by hand, as he wrote it; None for a game the search made."""
    if comment.startswith(HAND_PAIRED):
        return comment[len(HAND_PAIRED) :]
    if comment.startswith(HAND_PAIRED.rstrip(": ")):
        return ""
    return None


@dataclass(frozen=True)
class Game:
    """One game of the kaavio (Peli, KAAVIO 7). ``player2`` is None for a seed's walkover."""

    number: int
    round: int
    round1: int
    round2: int
    player1: int
    player2: int | None
    points1: str = ""
    points2: str = ""
    state: GameState = GameState.EMPTY
    table: str = ""
    innings: int = 0
    longest1: int = 0
    longest2: int = 0
    second1: int = 0
    second2: int = 0
    forfeit1: str = ""
    forfeit2: str = ""
    comment: str = ""
    started: str = ""
    ended: str = ""
    match_id: str = ""

    def outcome(self, target: int = 60) -> Outcome:
        if self.player2 is None:
            return Outcome.P1
        return read_result(self.points1, self.points2, target)

    def involves(self, number: int) -> bool:
        return self.player1 == number or self.player2 == number

    def personal_round(self, number: int) -> int:
        return self.round1 if self.player1 == number else self.round2

    def opponent(self, number: int) -> int | None:
        return self.player2 if self.player1 == number else self.player1

    def lost(self, number: int, target: int = 60) -> bool:
        o = self.outcome(target)
        if o == Outcome.BOTH_LOST:
            return self.involves(number)
        return (o == Outcome.P1 and self.player2 == number) or (o == Outcome.P2 and self.player1 == number)

    def won(self, number: int, target: int = 60) -> bool:
        o = self.outcome(target)
        return (o == Outcome.P1 and self.player1 == number) or (o == Outcome.P2 and self.player2 == number)

    def pair(self) -> tuple[int, int | None]:
        return (self.player1, self.player2)

    def with_(self, **changes: Any) -> Game:
        return replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        return {k: (v.value if isinstance(v, GameState) else v) for k, v in self.__dict__.items()}

    @staticmethod
    def from_json(d: dict[str, Any]) -> Game:
        kw: dict[str, Any] = dict(d)
        kw["state"] = GameState(kw.get("state", "empty"))
        for name, f in Game.__dataclass_fields__.items():
            value = kw.get(name)
            if f.type in ("int", "int | None") and value is not None and (type(value) is not int):
                raise ValueError(f"game {kw.get('number')}'s {name} is a whole number, not {str(value)[:20]!r}")
            if f.type == "str" and value is not None and not isinstance(value, str):
                raise ValueError(f"game {kw.get('number')}'s {name} is text, not {str(value)[:20]!r}")
        return Game(**kw)


@dataclass(frozen=True)
class Share:
    """A share taken off the entry fees before the prize split (KAAVIO 10): whole euros, or a percentage."""

    amount: int = 0
    percent: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"amount": self.amount, "percent": self.percent}

    @staticmethod
    def from_json(d: dict[str, Any]) -> Share:
        return Share(int(d.get("amount", 0)), bool(d.get("percent", False)))

    @staticmethod
    def parse(text: str) -> Share:
        """``20`` (euros) or ``10%`` (a percentage), as typed on the command line."""
        t = text.strip().replace(" ", "")
        percent = t.endswith("%")
        digits = t.rstrip("%").removesuffix("€")
        if not digits.isdigit() or (percent and int(digits) > 100):
            raise CompetitionError(
                "bad_share",
                f"Osuus {text!r} ei kelpaa: anna euroina (20) tai prosentteina (10 %), prosentti enintään 100.",
                f"The share {text!r} is not valid: give it in euros (20) or as a percentage (10%), at most 100%.",
            )
        return Share(int(digits), percent)

    def label(self) -> str:
        return f"{self.amount} %" if self.percent else f"{self.amount} €"


@dataclass(frozen=True)
class PrizeSettings:
    """How the entry fees are split (Rahanjako, KAAVIO 10); the fee itself is :attr:`Settings.entry_fee`.

    ``winner_weight`` is v in percent (KaisaKaavio's VoittajanOsuus): 0 spreads the money evenly, 100 gives the
    winner most; ``paid_places`` is extended to everyone tied on the last paid place."""

    sbil: Share = Share()
    club: Share = Share()
    winner_weight: int = 50
    paid_places: int = 3

    def to_json(self) -> dict[str, Any]:
        return {
            "sbil": self.sbil.to_json(),
            "club": self.club.to_json(),
            "winner_weight": self.winner_weight,
            "paid_places": self.paid_places,
        }

    @staticmethod
    def from_json(d: dict[str, Any]) -> PrizeSettings:
        return PrizeSettings(
            sbil=Share.from_json(d.get("sbil", {})),
            club=Share.from_json(d.get("club", {})),
            winner_weight=int(d.get("winner_weight", 50)),
            paid_places=int(d.get("paid_places", 3)),
        )


MAX_PLAYERS = 128
"""The most players a competition takes (KaisaKaavio's largest kaavio); the API and an imported file alike."""
MAX_NAME = 60
"""The longest player's or club's name, in characters."""
MAX_COMPETITION_NAME = 120
"""The longest competition name, in characters."""
MIN_TARGET, MAX_TARGET = 10, 200
"""The points a game may be played to (KAAVIO 2's 60 by default)."""


@dataclass(frozen=True)
class Settings:
    """A competition's settings (KAAVIO 2 defaults: target 60, at least 4 players)."""

    name: str
    date: str = ""
    club: str = ""
    kind: KaavioType = KaavioType.DOUBLE
    target: int = 60
    placing: PlacingMode = PlacingMode.POINTS
    seeding: Seeding = Seeding.NONE
    tables: tuple[str, ...] = ()
    max_players: int = 128
    entry_fee: int = 0
    prizes: PrizeSettings = PrizeSettings()
    extra: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "date": self.date,
            "club": self.club,
            "kind": self.kind.value,
            "target": self.target,
            "placing": self.placing.value,
            "seeding": self.seeding.value,
            "tables": list(self.tables),
            "max_players": self.max_players,
            "entry_fee": self.entry_fee,
            "prizes": self.prizes.to_json(),
            "extra": dict(self.extra),
        }

    @staticmethod
    def from_json(d: dict[str, Any]) -> Settings:
        return Settings(
            name=str(d["name"]),
            date=str(d.get("date", "")),
            club=str(d.get("club", "")),
            kind=KaavioType(d.get("kind", KaavioType.DOUBLE.value)),
            target=int(d.get("target", 60)),
            placing=PlacingMode(d.get("placing", PlacingMode.POINTS.value)),
            seeding=Seeding(d.get("seeding", Seeding.NONE.value)),
            tables=tuple(str(t) for t in d.get("tables", ())),
            max_players=int(d.get("max_players", 128)),
            entry_fee=int(d.get("entry_fee", 0)),
            prizes=PrizeSettings.from_json(d.get("prizes", {})),
            extra={str(k): str(v) for k, v in d.get("extra", {}).items()},
        )
