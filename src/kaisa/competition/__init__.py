"""Competitions: the Finnish double-elimination draw (kaavio), as KaisaKaavio runs it (rules/KAAVIO.md).

Pure and typed, no web or database: players, games and results in; pairings and placings out.

* ``model``: bracket types, players, games, reading a typed score (KAAVIO 2, 7);
* ``draw``: draw numbers, 8 and 24 seeds, rounds 1-2 with the twist (KAAVIO 3);
* ``search``: the search for later rounds, fast and careful modes (KAAVIO 4);
* ``cup``: two rounds, then a cup (KAAVIO 5);
* ``kaavio``: the aggregate a night is run with (register, draw, start, record, correct, pair by hand);
* ``placings``: placings, ranking, prize split (KAAVIO 8, 10);
* ``kaisakaavio``: KaisaKaavio 1.0's saved competition files (XML);
* ``paper``: the pelipöytäkirja and the results as A4 PDF, results and placings as CSV (kaavio in, bytes out);
* ``replay``: a recorded competition replayed through the search (KAAVIO 11);
* ``simulate``: random competitions, for the tests, the Monte Carlo figures and the bench.

The Finnish terms (kaavio, tuplakaavio, pudari, huilaaja, kieppi, pelipöytäkirja) are defined in
``kaisa.glossary``; the [?] decisions are in each module's docstring.
"""

from kaisa.competition.kaavio import Kaavio
from kaisa.competition.model import (
    CompetitionError,
    Game,
    GameState,
    KaavioType,
    Outcome,
    PlacingMode,
    Player,
    SearchRerun,
    Seeding,
    Settings,
    read_result,
)

__all__ = [
    "CompetitionError",
    "Game",
    "GameState",
    "Kaavio",
    "KaavioType",
    "Outcome",
    "PlacingMode",
    "Player",
    "SearchRerun",
    "Seeding",
    "Settings",
    "read_result",
]
