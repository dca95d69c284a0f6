"""Replay a recorded competition through this project's search (KAAVIO 11, KaisaKaavio's TestiKilpailu).

The same players with the same draw numbers are drawn again (rounds 1-2 must come out identical), then ready
games are started on ``tables`` tables in list order, the first running game is finished with its recorded
points, and the search adds its games. Every game the search makes must exist in the recorded bracket with the
same round, numbers and personal rounds, and the game counts must match at the end; ``renumbered`` counts the
games whose game number differs from the file's. This is how a club checks
that a KaisaKaavio file it brings over would have been drawn the same here, and how the search's fidelity is
measured.
"""

from __future__ import annotations

from dataclasses import dataclass

from kaisa.competition.kaavio import Kaavio
from kaisa.competition.model import CompetitionError, Game, GameState, Settings


@dataclass(frozen=True)
class ReplayResult:
    """``ok`` when every game came out as recorded; otherwise ``fi``/``en`` say where it first differed.
    ``renumbered``: games (of an ``ok`` replay) whose number is not the recorded game's (KaisaKaavio renumbers
    games already listed when a later one sorts before them; this project keeps a number once given)."""

    ok: bool
    games: int
    recorded: int
    fi: str = ""
    en: str = ""
    renumbered: int = 0


def _key(g: Game) -> tuple[int, int, int | None, int, int]:
    return (g.round, g.player1, g.player2, g.round1, g.round2)


def replay(real: Kaavio, tables: int = 4) -> ReplayResult:
    """Replay ``real``'s results through the search; see the module docstring."""
    s = real.settings
    k = Kaavio(
        Settings(
            name=s.name,
            kind=s.kind,
            target=s.target,
            seeding=s.seeding,
            tables=tuple(str(t + 1) for t in range(max(1, tables))),
            max_players=max(s.max_players, len(real.players)),
        )
    )
    for p in real.players:
        k.add_player(p.name, p.club, p.seed)
    k.assign_numbers({q.name: p.number for p, q in zip(real.players, k.players, strict=True)})
    recorded = {_key(g): g for g in real.games}
    early_real = sorted((g.round, g.player1, g.player2) for g in real.games if g.round < 3)
    early_ours = sorted((g.round, g.player1, g.player2) for g in k.games if g.round < 3)
    if early_real != early_ours:
        return _fail(k, real, "kierrosten 1–2 parit eroavat", "the round 1-2 pairs differ")
    for _ in range(4 * len(real.games) + 16):
        while k.ready() and len(k.running()) < tables:
            k.start(k.ready()[0].number)
        running = k.running()
        if not running:
            break
        g = running[0]
        rg = recorded.get(_key(g))
        if rg is None:
            return _fail(
                k,
                real,
                f"peliä {g.round}. kierros {g.player1}–{g.player2} ei ole tallennetussa kaaviossa",
                f"game round {g.round} {g.player1}-{g.player2} is not in the recorded bracket",
            )
        try:
            k.record(g.number, rg.points1, rg.points2)
        except CompetitionError as e:
            return _fail(k, real, e.fi, e.en)
        for h in k.games:
            if h.player2 is not None and _key(h) not in recorded:
                return _fail(
                    k,
                    real,
                    f"haku teki pelin {h.round}. kierros {h.player1}–{h.player2}, jota tallennetussa kaaviossa ei ole",
                    f"the search made game round {h.round} {h.player1}-{h.player2}, which the recorded bracket lacks",
                )
    if len(k.games) != len(real.games) or any(g.state != GameState.PLAYED for g in k.games):
        return _fail(
            k,
            real,
            f"pelejä {len(k.games)}, tallennetussa kaaviossa {len(real.games)}",
            f"{len(k.games)} games, {len(real.games)} in the recorded bracket",
        )
    renumbered = sum(1 for g in k.games if recorded[_key(g)].number != g.number)
    return ReplayResult(True, len(k.games), len(real.games), renumbered=renumbered)


def _fail(k: Kaavio, real: Kaavio, fi: str, en: str) -> ReplayResult:
    return ReplayResult(False, len(k.games), len(real.games), fi, en)
