"""KAAVIO 10: the ranking options (bonuses for beating the series' 1st/2nd/3rd, Pudari2 round-1 wins) and the
prize split settings (SBiL and club shares, fixed or percent rounded up, winner weight, paid places)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kaisa.cli.app import app
from kaisa.competition import GameState, Kaavio, KaavioType, Settings
from kaisa.competition.model import PrizeSettings, Share
from kaisa.competition.placings import (
    RankingOptions,
    placings,
    pot,
    prize_split,
    prizes,
    ranking_points,
    ranking_series,
    round_up,
    share_of,
)

NAMES = ("Aho", "Berg", "Cajander", "Dahl", "Eskola", "Forsman")


def night(order: tuple[str, ...], kind: KaavioType = KaavioType.DOUBLE, date: str = "2026-01-01") -> Kaavio:
    """A finished competition of ``order``'s players where the one earlier in ``order`` wins every game."""
    k = Kaavio(Settings(name="Viikkokisa", date=date, kind=kind, tables=("1", "2"), entry_fee=10))
    for name in NAMES[: len(order)]:
        k.add_player(name)
    k.assign_numbers({name: i + 1 for i, name in enumerate(NAMES[: len(order)])})
    strength = {k.player(i + 1).number: order.index(k.player(i + 1).name) for i in range(len(order))}
    while not k.finished:
        g = next(g for g in k.games if g.state in (GameState.READY, GameState.RUNNING) and g.player2 is not None)
        if g.state == GameState.READY:
            k.start(g.number)
        assert g.player2 is not None
        first_wins = strength[g.player1] < strength[g.player2]
        k.record(g.number, *(("60", "20") if first_wins else ("20", "60")))
    return k


def wins_over(k: Kaavio, name: str, loser: str) -> int:
    by_name = {p.name: p.number for p in k.players}
    n, o = by_name[name], by_name[loser]
    if n == o:
        return 0
    return sum(1 for g in k.games if g.involves(n) and g.involves(o) and k.decided(g) and g.won(n, k.target))


def test_10_default_ranking_has_no_bonus() -> None:
    k = night(("Berg", "Aho", "Cajander", "Dahl"))
    ranks = {"Aho": 1, "Berg": 2, "Cajander": 3}
    assert ranking_points(k, ranks=ranks) == ranking_points(k)


def test_10_bonus_for_beating_ranking_numbers_1_2_3() -> None:
    k = night(("Dahl", "Cajander", "Berg", "Aho"))
    ranks = {"Aho": 1, "Berg": 2, "Cajander": 3}
    options = RankingOptions(beat_first=5, beat_second=3, beat_third=2)
    plain = ranking_points(k)
    with_bonus = ranking_points(k, options=options, ranks=ranks)
    number = {p.name: p.number for p in k.players}
    for name in NAMES[:4]:
        expected = 5 * wins_over(k, name, "Aho") + 3 * wins_over(k, name, "Berg") + 2 * wins_over(k, name, "Cajander")
        assert with_bonus[number[name]] - plain[number[name]] == expected
    assert with_bonus[number["Dahl"]] > plain[number["Dahl"]]  # the winner beat ranked players
    assert with_bonus[number["Aho"]] == plain[number["Aho"]]  # Aho beat no one


def test_10_series_ranks_before_each_competition_by_date() -> None:
    january = night(("Aho", "Berg", "Cajander", "Dahl"), date="2026-01-10")
    february = night(("Dahl", "Cajander", "Berg", "Aho"), date="2026-02-10")
    options = RankingOptions(beat_first=10)
    plain = dict((n, t) for _, n, t in ranking_series([january, february]))
    series = ranking_series([february, january], options)  # given out of order: counted by date
    bonus = dict((n, t) for _, n, t in series)
    for name in ("Berg", "Cajander", "Dahl"):
        # January's points make Aho the series' number 1 going into February; January itself has no ranks.
        assert bonus[name] - plain[name] == 10 * wins_over(february, name, "Aho")
    assert bonus["Aho"] == plain["Aho"]
    assert sum(bonus.values()) > sum(plain.values())


def test_10_ko2_round1_win_bonus() -> None:
    k = night(("Aho", "Berg", "Cajander", "Dahl", "Eskola", "Forsman"), KaavioType.KO2)
    plain = ranking_points(k)
    with_bonus = ranking_points(k, options=RankingOptions(ko2_round1_win=1))
    round1_winners = {
        g.player1 if g.won(g.player1) else g.player2
        for g in k.games
        if g.player2 is not None and g.round1 == 1 and g.round2 == 1
    }
    assert round1_winners
    assert {n for n in plain if with_bonus[n] != plain[n]} == round1_winners
    assert all(with_bonus[n] - plain[n] == 1 for n in round1_winners)
    double = night(("Aho", "Berg", "Cajander", "Dahl", "Eskola", "Forsman"))
    assert ranking_points(double, options=RankingOptions(ko2_round1_win=1)) == ranking_points(double)


def test_10_ranking_options_round_trip() -> None:
    o = RankingOptions(1, 2, 3, 4)
    assert RankingOptions.from_json(json.loads(json.dumps(o.to_json()))) == o


def test_10_shares_fixed_or_percent_rounded_up() -> None:
    assert share_of(Share(25), 160) == 25
    assert share_of(Share(10, percent=True), 160) == 20  # 16 € rounds up to 20 (5 € steps under 100)
    assert share_of(Share(3, percent=True), 100) == 3
    assert share_of(Share(7, percent=True), 50) == 4  # 3,50 € rounds up to 4 (1 € steps under 10)
    assert share_of(Share(500), 160) == 160  # never more than there is
    # SBiL first, of the fees; the club's percentage of what is left
    assert pot(160, PrizeSettings(sbil=Share(10, True), club=Share(20))) == (20, 20, 120)
    assert pot(200, PrizeSettings(sbil=Share(20), club=Share(10, True))) == (20, 20, 160)
    assert pot(160) == (0, 0, 160)


def test_10_round_up_each_step_boundary() -> None:
    assert [round_up(x) for x in (0.2, 9.99, 10, 10.01, 99.5, 100, 101, 249, 250, 251, 499, 500, 501)] == [
        1, 10, 10, 15, 100, 100, 110, 250, 260, 260, 500, 500, 550,
    ]  # fmt: skip


def test_10_worked_split_of_120_euros() -> None:
    # 16 players x 10 € = 160 €; SBiL 10 % (16 -> 20 €), the club 20 €: 120 € to split.
    # v = 0,5, d = 1, 2/3, 1/3: weights 1, 0,702, 0,504 -> 45,3 %, 31,8 %, 22,8 % of 120 = 54,4, 38,2, 27,4
    # rounded up 55, 40, 30 = 125: the 5 € excess comes off the last place.
    assert prize_split(120, [1, 2, 3, 4]) == [55, 40, 25]
    # winner weight 100 %: weights d² = 1, 4/9, 1/9 -> 77,1 80 / 34,3 35 / 8,6 9; 124: 4 off the last
    assert prize_split(120, [1, 2, 3, 4], winner_weight=1.0) == [80, 35, 5]
    # winner weight 0: d^0,1 -> 42,0 45 / 40,3 45 / 37,6 40; 130: 10 off the last
    assert prize_split(120, [1, 2, 3, 4], winner_weight=0.0) == [45, 45, 30]
    assert prize_split(120, [1, 2, 3, 4, 5], paid=5) == [35, 30, 25, 20, 10]
    assert prize_split(120, [1, 2, 3, 4], paid=0) == []


def test_10_paid_places_extend_to_the_tied_last_place() -> None:
    # 3rd shared by two: 4 paid; the tied share averaged (22,47 € each) and rounded up to 1 € (23), the 6 € excess
    # taken evenly off the tied places.
    assert prize_split(120, [1, 2, 3, 3, 5]) == [45, 35, 20, 20]
    assert len(prize_split(120, [1, 2, 2, 2, 5], paid=2)) == 4


def test_10_every_paid_place_gets_at_least_1_euro() -> None:
    # 10 € over 3: 4,53 -> 5, 3,18 -> 4, 2,28 -> 3 = 12: the 2 € excess off the last place
    assert prize_split(10, [1, 2, 3]) == [5, 4, 1]
    # 4 €: 2 + 2 + 1 = 5, the excess leaves the last with 0: 1 € moves down from 2nd
    assert prize_split(4, [1, 2, 3]) == [2, 1, 1]


def test_10_prizes_of_a_competition_use_its_settings() -> None:
    k = night(("Aho", "Berg", "Cajander", "Dahl", "Eskola", "Forsman"))
    split = prizes(k, settings=PrizeSettings(club=Share(20, percent=True), paid_places=2, winner_weight=50))
    assert (split.entry_fees, split.sbil, split.club, split.pot) == (60, 0, 15, 45)
    assert [p.name for p, _ in split.rows] == [p.name for p in placings(k)[:2]]
    assert sum(a for _, a in split.rows) == 45
    assert PrizeSettings.from_json(json.loads(json.dumps(split_settings().to_json()))) == split_settings()


def split_settings() -> PrizeSettings:
    return PrizeSettings(sbil=Share(5, True), club=Share(30), winner_weight=70, paid_places=4)


def test_10_settings_keep_the_prize_settings() -> None:
    s = Settings(name="x", entry_fee=10, prizes=split_settings())
    assert Settings.from_json(json.loads(json.dumps(s.to_json()))).prizes == split_settings()
    assert Settings.from_json({"name": "old"}).prizes == PrizeSettings()


@pytest.fixture
def done_file(tmp_path: Path) -> Path:
    path = tmp_path / "kisa.json"
    path.write_text(json.dumps(night(("Aho", "Berg", "Cajander", "Dahl", "Eskola", "Forsman")).to_json()))
    return path


def test_10_cli_placings_prizes(done_file: Path) -> None:
    r = CliRunner().invoke(
        app, ["kaavio", "placings", str(done_file), "--sbil", "7%", "--club", "5", "--paid", "2", "--lang", "fi"]
    )
    assert r.exit_code == 0, r.output
    assert "Rahanjako" in r.output
    # 6 x 10 = 60 €; SBiL 7 % = 4,20 € rounded up to 5 €; the club 5 €: 50 € to split over 2 places
    for line in ("SBiL:n osuus: 5 €", "seuran osuus: 5 €", "jaettavana: 50 €"):
        assert line in r.output
    k = Kaavio.from_json(json.loads(done_file.read_text()))
    amounts = prize_split(50, [p.place for p in placings(k)], paid=2)
    for amount in amounts:
        assert f"{amount} €" in r.output
    plain = CliRunner().invoke(app, ["kaavio", "placings", str(done_file)])
    assert plain.exit_code == 0
    assert "Prize split" not in plain.output
    bad = CliRunner().invoke(app, ["kaavio", "placings", str(done_file), "--sbil", "ten"])
    assert bad.exit_code == 2
    assert "10%" in bad.output


def test_10_cli_ranking_bonus_options(tmp_path: Path) -> None:
    january = night(("Aho", "Berg", "Cajander", "Dahl"), date="2026-01-10")
    february = night(("Dahl", "Cajander", "Berg", "Aho"), date="2026-02-10")
    files = []
    for i, k in enumerate((january, february)):
        f = tmp_path / f"{i}.json"
        f.write_text(json.dumps(k.to_json()))
        files.append(str(f))
    runner = CliRunner()
    plain = runner.invoke(app, ["kaavio", "ranking", *files])
    bonus = runner.invoke(app, ["kaavio", "ranking", *files, "--beat-1", "10", "--ko2-round1", "1"])
    assert plain.exit_code == 0
    assert bonus.exit_code == 0, bonus.output
    expected = {name: total for _, name, total in ranking_series([january, february], RankingOptions(beat_first=10))}
    for name, total in expected.items():
        assert any(name in line and line.rstrip(" │").split()[-1] == str(total) for line in bonus.output.splitlines())
    assert plain.output != bonus.output
