"""issue 29: a competition file and a KaisaKaavio import meet the API's limits (players, names, the target),
keep a seeding as written, refuse a game naming an unknown player or a round that is no number, and a large
competition's player lookups do not grow with the players (10,000 players made draw and show take minutes)."""

from __future__ import annotations

import time

import pytest

from kaisa.competition import CompetitionError, Kaavio, Settings
from kaisa.competition.kaisakaavio import from_xml, to_xml
from kaisa.competition.model import MAX_PLAYERS, Player


def _file(players: int = 4, name: str = "Pelaaja", target: str = "60", most: str = "128", seed: str = "") -> str:
    rows = "".join(
        f'<Pelaaja Nimi="{name} {i}" Seura="" Sijoitettu="{seed if i == 1 else ""}" Id="{i}"/>'
        for i in range(1, players + 1)
    )
    return (
        f"<Kilpailu><Nimi>Kisa</Nimi><TavoitePistemaara>{target}</TavoitePistemaara>"
        f"<PelaajiaEnintaan>{most}</PelaajiaEnintaan><Osallistujat>{rows}</Osallistujat><Pelit/></Kilpailu>"
    )


@pytest.mark.parametrize(
    ("players", "name", "target", "most"),
    [
        (10_001, "P", "60", "128"),  # past the most players
        (4, "N" * 100_000, "60", "128"),  # a 100 KB name
        (4, "P", "1" * 401, "128"),  # a 401-digit target
        (4, "P", "0", "128"),  # target 0
        (200, "P", "60", "1000"),  # a most beyond the API's
    ],
)
def test_a_kaisakaavio_import_is_held_to_the_apis_limits(players: int, name: str, target: str, most: str) -> None:
    with pytest.raises(CompetitionError) as refused:
        from_xml(_file(players, name, target, most))
    assert refused.value.code == "bad_kaisakaavio_file"
    assert refused.value.fi.startswith("Tiedosto ei kelpaa")
    assert len(refused.value.en) < 400  # the bad value is not echoed whole


def test_a_seeding_written_with_letters_is_kept_through_import_and_export() -> None:
    k = from_xml(_file(seed="3P"))
    assert k.player(1).seed == 3
    assert 'Sijoitettu="3P"' in to_xml(k)


def test_a_competition_file_naming_an_unknown_player_or_a_round_not_a_number_is_refused() -> None:
    k = Kaavio(Settings("Kisa"), [Player(i, f"P{i}") for i in range(1, 5)])
    data = k.to_json()
    game = {"number": 1, "round": 1, "round1": 1, "round2": 1, "player1": 1, "player2": 999}
    with pytest.raises(CompetitionError, match="not in the competition"):
        Kaavio.from_json({**data, "games": [game]})
    with pytest.raises(ValueError, match="whole number"):
        Kaavio.from_json({**data, "games": [{**game, "player2": 2, "round": "x"}]})
    assert Kaavio.from_json({**data, "games": [{**game, "player2": 2}]}).games[0].player2 == 2


def test_a_player_lookup_does_not_grow_with_the_players() -> None:
    k = Kaavio(Settings("Kisa", max_players=MAX_PLAYERS), [Player(i, f"P{i}") for i in range(1, 20_001)])
    began = time.perf_counter()
    for number in range(1, 20_001):
        assert k.player(number).number == number
    assert time.perf_counter() - began < 2.0  # a search from the start took about 20 s here
