"""The competition API (/api/kaavio): a night from registration to placings, a marker's club match flowing into
the kaavio, results entered twice or in any order, the director's token, and clear refusals. Real server parts
throughout: the app on a SQLite file, the club's per-stroke scorekeeping, and a uvicorn server for the stream."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient

from kaisa.competition.kaisakaavio import from_xml
from kaisa.records.storage import open_store
from kaisa.web import create_app
from tests.records.test_storage import db_url, postgres_server  # noqa: F401  (fixtures)
from tests.web.club_helpers import entry

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

NAMES = [
    "Virtanen Matti",
    "Korhonen Aino",
    "Mäkinen Eero",
    "Nieminen Liisa",
    "Hämäläinen Pekka",
    "Laine Sari",
    "Heikkinen Olli",
    "Koskinen Timo",
    "Järvinen Anna",
]
API = "/api/kaavio/competitions"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = open_store(f"sqlite:///{tmp_path / 'kaavio.sqlite3'}")
    with TestClient(create_app(store, close_store=True)) as c:
        yield c


class Night:
    """A competition made through the API, with the director's token."""

    def __init__(self, client: TestClient | httpx.Client, **settings: Any) -> None:
        self.client = client
        body = {"name": "Viikkokisa 3.12.", "date": "2026-12-03", "club": "KS", "tables": ["1", "2", "3"], **settings}
        made = client.post(API, json=body)
        assert made.status_code == 201, made.text
        self.id: int = made.json()["id"]
        self.token: str = made.json()["token"]
        self.made = made.json()

    @property
    def headers(self) -> dict[str, str]:
        return {"X-Kaisa-Token": self.token}

    def post(self, path: str, body: Any, key: str | None = None, token: str | None = "") -> Any:
        """The answer (an httpx response, of the test client's or of a real connection)."""
        headers = self.headers if token == "" else ({"X-Kaisa-Token": token} if token else {})
        if key:
            headers = {**headers, "Idempotency-Key": key}
        return self.client.post(f"{API}/{self.id}{path}", json=body, headers=headers)

    def ok(self, path: str, body: Any, key: str | None = None) -> dict[str, Any]:
        answer = self.post(path, body, key)
        assert answer.status_code == 200, answer.text
        out: dict[str, Any] = answer.json()
        return out

    def view(self) -> dict[str, Any]:
        answer = self.client.get(f"{API}/{self.id}")
        assert answer.status_code == 200, answer.text
        out: dict[str, Any] = answer.json()
        return out

    def register(self, names: list[str]) -> None:
        for name in names:
            self.ok("/players", {"name": name, "club": "KS"})

    def game(self, number: int) -> dict[str, Any]:
        return next(g for g in self.view()["games"] if g["number"] == number)

    def ready(self) -> list[dict[str, Any]]:
        return [g for g in self.view()["games"] if g["state"] == "ready"]


def mark_to_60(client: TestClient | httpx.Client, marker_url: str) -> int:
    """On the club API, as a marker would: W2 placed, then the breaker pots the kaisa ten times (6 points each)."""
    match_id, token = marker_url.split("/")[-2:]
    headers = {"X-Kaisa-Token": token}
    base = f"/api/club/matches/{match_id}"
    assert client.post(f"{base}/place-w2", json={"point": [0.71, 2.6]}, headers=headers).status_code == 200
    for n in range(10):
        marks: dict[str, Any] = {"pots": [["K", "FL"]], "first_contact": "K"}
        if n == 0:
            marks["place"] = [0.5, 0.3]
        answer = client.post(f"{base}/strokes", json={"call": "K FL", "marks": marks}, headers=entry(headers))
        assert answer.status_code == 200, answer.text
    return int(match_id)


# --- a night ------------------------------------------------------------------------------------------------


def test_a_nine_player_night_on_three_tables_from_registration_to_placings(client: TestClient) -> None:
    night = Night(client, kind="Pudari3Kierros", placing="top3", entry_fee=10)
    night.register(NAMES)
    drawn = night.ok("/draw", {"seed": 7})["competition"]
    assert drawn["drawn"]
    assert [(g["round"], g["player1"], g["player2"]) for g in drawn["games"]][:5] == [
        (1, 1, 2),
        (1, 3, 4),
        (1, 5, 6),
        (1, 7, 8),
        (2, 9, 1),  # KAAVIO 3.5: with odd N, N waits in round 1 and meets 1 first
    ]
    # three games start on the three tables (the first free one each time); a fourth finds none
    started = [night.ok(f"/games/{n}/start", {"marker": False})["answer"]["table"] for n in (1, 2, 3)]
    assert started == ["1", "2", "3"]
    refused = night.post("/games/4/start", {})
    assert refused.status_code == 409
    assert refused.json()["code"] == "no-free-table"
    assert "Vapaata pöytää ei ole" in refused.json()["fi"]
    # results in any order: the third table finishes first
    for number, points in ((3, ("60", "12")), (1, ("41", "60")), (2, ("60", "59"))):
        night.ok(f"/games/{number}/result", {"points1": points[0], "points2": points[1]})
    view = night.view()
    assert [g["state"] for g in view["games"][:3]] == ["played"] * 3
    assert view["tables"] == [{"table": t, "game": None} for t in ("1", "2", "3")]
    # the rest typed by the director, whichever game is ready, until one is left
    rng = random.Random(3)
    for _ in range(40):
        view = night.view()
        if view["finished"]:
            break
        game = view["games"][[g["state"] for g in view["games"]].index("ready")]
        typed = ["60", str(rng.randrange(60))]
        rng.shuffle(typed)
        night.ok(f"/games/{game['number']}/result", {"points1": typed[0], "points2": typed[1]})
    view = night.view()
    assert view["finished"]
    assert not view["late_entries"]
    placings = view["placings"]
    assert set(placings) == {"points", "finalists", "top3"}
    winners = [p for p in view["players"] if not p["out"]]
    assert len(winners) == 1
    assert placings["top3"][0]["name"] == winners[0]["name"]
    assert sorted(p["place"] for p in placings["top3"])[:2] == [1, 2]
    assert view["prizes"][0]["place"] == 1
    assert sum(p["amount"] for p in view["prizes"]) == 90  # 9 players x 10 €, no shares kept
    # the players' tallies agree with the games: every game has a loser
    played = [g for g in view["games"] if g["state"] == "played" and g["player2"] is not None]
    assert sum(p["losses"] for p in view["players"]) == len(played)
    # and are the kaavio's own, counted over the whole competition (the view counts each player's own games)
    k = from_xml(client.get(f"{API}/{night.id}/kaisakaavio.xml").content)
    for p in view["players"]:
        n = p["number"]
        assert (p["wins"], p["losses"], p["points"], p["out"]) == (
            k.wins(n),
            k.losses(n),
            k.points_total(n),
            k.knocked_out(n),
        ), p


def test_a_marker_scores_a_game_stroke_by_stroke_and_its_end_flows_into_the_kaavio(client: TestClient) -> None:
    night = Night(client)
    night.register(NAMES[:4])
    night.ok("/draw", {"seed": 1})
    game = night.game(1)
    # the lag at the table was won by the game's second player, who took W1 and breaks
    started = night.ok("/games/1/start", {"table": "2", "lag_winner": 1, "winner_takes": "W1"})["answer"]
    assert started["table"] == "2"
    marker_url = started["marker_url"]
    assert marker_url.startswith(f"/club#/match/{started['match']}/")
    # the club match is the table's: its players in the game's order, the table, the competition's club night
    match = client.get(f"/api/club/matches/{started['match']}").json()
    assert [p["name"] for p in match["players"]] == game["names"]
    assert match["table_label"] == "2"
    assert match["event"] == f"Viikkokisa 3.12. · kaavio {night.id}"
    # live: the bracket shows the running score as the marker enters strokes
    match_id, token = marker_url.split("/")[-2:]
    mark = {"pots": [["K", "FL"]], "first_contact": "K", "place": [0.5, 0.3]}
    headers = {"X-Kaisa-Token": token}
    assert client.post(
        f"/api/club/matches/{match_id}/place-w2", json={"point": [0.71, 2.6]}, headers=headers
    ).is_success
    assert client.post(
        f"/api/club/matches/{match_id}/strokes", json={"call": "K FL", "marks": mark}, headers=entry(headers)
    ).is_success
    live = night.game(1)["live"]
    assert live["scores"] == [0, 6]
    assert live["cue_balls"] == ["W2", "W1"]
    assert night.game(1)["state"] == "running"
    del mark["place"]
    for _ in range(9):
        answer = client.post(
            f"/api/club/matches/{match_id}/strokes", json={"call": "K FL", "marks": mark}, headers=entry(headers)
        )
        assert answer.status_code == 200, answer.text
    # the end: points in the game's order, the innings and the longest runs; the search ran
    before = night.view()["version"]
    game = night.game(1)
    assert game["state"] == "played"
    assert (game["points1"], game["points2"]) == ("0", "60")
    assert game["winner"] == game["player2"]
    assert (game["innings"], game["longest1"], game["longest2"]) == (1, 0, 60)
    # read again (another page, the stream): recorded once
    assert night.view()["version"] == before
    assert night.game(1)["points2"] == "60"
    # the director's view carries no marker link for a game that has ended
    director = client.get(f"{API}/{night.id}/director", headers=night.headers).json()
    assert director["markers"] == {}


def test_the_directors_view_carries_the_marker_links_of_running_games_only_for_the_director(client: TestClient) -> None:
    night = Night(client)
    night.register(NAMES[:4])
    night.ok("/draw", {"seed": 1})
    url = night.ok("/games/2/start", {})["answer"]["marker_url"]
    director = client.get(f"{API}/{night.id}/director", headers=night.headers)
    assert director.json()["markers"] == {"2": url}
    assert night.view()["markers"] is None
    assert client.get(f"{API}/{night.id}/director").status_code == 403


def test_a_forfeit_on_the_marker_page_is_recorded_as_a_marked_win(client: TestClient) -> None:
    night = Night(client, target=40)
    night.register(NAMES[:4])
    night.ok("/draw", {"seed": 1})
    url = night.ok("/games/1/start", {})["answer"]["marker_url"]
    match_id, token = url.split("/")[-2:]
    forfeit = client.post(
        f"/api/club/matches/{match_id}/forfeit", json={"cue_ball": "W2"}, headers={"X-Kaisa-Token": token}
    )
    assert forfeit.status_code == 200, forfeit.text
    game = night.game(1)
    assert game["state"] == "played"
    assert game["winner"] == game["player1"]  # player 1 took W1 (the lag winner by default)


# --- entered twice, in any order, corrected -----------------------------------------------------------------


def test_a_result_sent_twice_is_recorded_once_and_a_different_one_corrects_it(client: TestClient) -> None:
    night = Night(client)
    night.register(NAMES[:8])
    night.ok("/draw", {"seed": 2})
    first = night.ok("/games/1/result", {"points1": "60", "points2": "30"}, key="tap-1")
    again = night.ok("/games/1/result", {"points1": "60", "points2": "30"}, key="tap-1")
    assert again["answer"] == first["answer"]
    assert again["competition"]["version"] == first["competition"]["version"]
    # the same result under a new key (typed again) changes nothing either
    same = night.ok("/games/1/result", {"points1": "60", "points2": "30"}, key="tap-2")
    assert [g["points2"] for g in same["competition"]["games"]] == [g["points2"] for g in first["competition"]["games"]]
    corrected = night.ok("/games/1/result", {"points1": "45", "points2": "60"}, key="tap-3")["competition"]
    game = corrected["games"][0]
    assert (game["points1"], game["points2"], game["winner"]) == ("45", "60", game["player2"])


def test_a_game_that_changed_under_the_directors_page_is_refused(client: TestClient) -> None:
    night = Night(client)
    night.register(NAMES[:4])
    night.ok("/draw", {"seed": 1})
    game = night.game(1)
    wrong = [game["player1"], game["player2"] + 1]
    refused = night.post("/games/1/result", {"points1": "60", "points2": "1", "expect": wrong})
    assert refused.status_code == 409
    assert refused.json()["code"] == "game-changed"
    assert night.game(1)["state"] == "ready"
    assert night.post("/games/1/start", {"marker": False, "expect": wrong}).status_code == 409


# --- access and refusals ------------------------------------------------------------------------------------


def test_the_directors_changes_need_the_directors_token(client: TestClient) -> None:
    night = Night(client)
    night.register(NAMES[:4])
    changes = [
        ("/players", {"name": "Myöhäinen"}),
        ("/draw", {}),
        ("/games/1/start", {}),
        ("/games/1/result", {"points1": "60", "points2": "0"}),
        ("/pair", {"players": [1, 2], "reason": "testi"}),
    ]
    for path, body in changes:
        for token in (None, "wrong-token-0123456789abcdef"):
            answer = night.post(path, body, token=token)
            assert answer.status_code == 403, (path, token, answer.text)
            assert answer.json()["code"] == "access-denied"
    view = night.view()  # reading is open
    assert (len(view["players"]), view["drawn"], view["version"]) == (4, False, 4)


def test_bad_requests_are_refused_with_a_code_and_a_finnish_and_english_reason(client: TestClient) -> None:
    night = Night(client)
    night.register(NAMES[:3])
    cases: list[tuple[str, Any, int, str, str]] = [
        ("/draw", {}, 422, "too-few-players", "vähintään 4 pelaajaa"),
        ("/players", {"name": "   "}, 422, "empty-name", "nimi puuttuu"),
        ("/players", {"name": NAMES[0], "club": "KS"}, 422, "duplicate-player", "on jo ilmoittautunut"),
        ("/players", {"name": ""}, 422, "invalid-request", "Nimi on liian lyhyt"),
    ]
    for path, body, status, code, fi in cases:
        answer = night.post(path, body)
        assert (answer.status_code, answer.json()["code"]) == (status, code), (path, answer.text)
        assert fi in answer.json()["fi"], answer.json()
    night.register(NAMES[3:8])
    night.ok("/draw", {"seed": 5})
    cases = [
        ("/games/1/result", {"points1": "6o", "points2": "12"}, 422, "bad-points", "Pistemäärä '6o' ei kelpaa"),
        ("/games/1/result", {"points1": "30", "points2": "12"}, 200, "", ""),  # a running score, not an end
        ("/games/1/result", {"points1": "60v", "points2": "60v"}, 422, "invalid-result", "ei ratkaise peliä"),
        ("/games/99/start", {}, 422, "no-such-game", "Peliä numero 99 ei ole"),
        ("/draw", {}, 409, "already-drawn", "on jo arvottu"),
        ("/pair", {"players": [1, 1], "reason": "x"}, 409, "player-busy", "pelaamaton peli"),
    ]
    for path, body, status, code, fi in cases:
        answer = night.post(path, body)
        assert answer.status_code == status, (path, answer.text)
        if code:
            assert answer.json()["code"] == code, answer.text
            assert fi in answer.json()["fi"], answer.json()
            assert answer.json()["en"], answer.json()
    assert client.get(f"{API}/404").status_code == 404
    assert client.get(f"{API}/404").json()["code"] == "unknown-competition"
    for body in ({"name": "x", "tables": []}, {"name": "x", "tables": ["1"], "kind": "Nelinpeli"}, {"tables": ["1"]}):
        assert client.post(API, json=body).status_code == 422, body


def test_late_entries_close_when_a_round_2_game_starts(client: TestClient) -> None:
    night = Night(client)
    night.register(NAMES[:8])
    night.ok("/draw", {"seed": 4})
    late = night.ok("/players", {"name": "Myöhäinen Mikko"})
    assert late["answer"]["player"]["number"] == 9  # the next number (KAAVIO 3.1)
    assert late["competition"]["late_entries"]
    round2 = next(g for g in late["competition"]["games"] if g["round"] == 2 and g["state"] == "ready")
    night.ok(f"/games/{round2['number']}/start", {"marker": False})
    assert not night.view()["late_entries"]
    refused = night.post("/players", {"name": "Liian Myöhään"})
    assert refused.status_code == 409
    assert refused.json()["code"] == "late-entry-closed"


def test_the_competition_exports_as_a_kaisakaavio_file(client: TestClient) -> None:
    night = Night(client)
    night.register(NAMES[:6])
    night.ok("/draw", {"seed": 9})
    night.ok("/games/1/result", {"points1": "60", "points2": "22"})
    answer = client.get(f"{API}/{night.id}/kaisakaavio.xml")
    assert answer.status_code == 200
    back = from_xml(answer.content)
    assert [p.name for p in back.players] == [p["name"] for p in night.view()["players"]]
    assert (back.game(1).points1, back.game(1).points2) == ("60", "22")


def test_the_competition_list_names_each_competition(client: TestClient) -> None:
    first = Night(client)
    second = Night(client, name="Joulukisa")
    listed = client.get(API).json()
    assert [(c["id"], c["name"]) for c in listed] == [(second.id, "Joulukisa"), (first.id, "Viikkokisa 3.12.")]


# --- the stream ---------------------------------------------------------------------------------------------


@pytest.fixture
def server(db_url: str) -> Iterator[str]:  # noqa: F811
    """The app served by uvicorn in a thread over a new SQLite file or PostgreSQL database."""
    import socket

    store = open_store(db_url)
    sock = socket.create_server(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    uv = uvicorn.Server(uvicorn.Config(create_app(store), log_level="warning", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=uv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(400):
        if uv.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    uv.should_exit = True
    thread.join(timeout=10)
    store.close()


def test_the_stream_sends_the_bracket_when_a_marker_scores_and_when_the_game_ends(server: str) -> None:
    with httpx.Client(base_url=server, timeout=60) as client:
        night = Night(client)
        night.register(NAMES[:4])
        night.ok("/draw", {"seed": 1})
        url = night.ok("/games/1/start", {})["answer"]["marker_url"]
        seen: list[dict[str, Any]] = []

        def watch() -> None:
            with httpx.stream("GET", f"{server}{API}/{night.id}/stream", timeout=60) as stream:
                for line in stream.iter_lines():
                    if line.startswith("data: "):
                        seen.append(json.loads(line[6:]))
                        if seen[-1]["games"][0]["state"] == "played":
                            return

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        for _ in range(200):
            if seen:
                break
            time.sleep(0.05)
        mark_to_60(client, url)
        watcher.join(timeout=30)
        assert not watcher.is_alive(), "the stream did not send the game's end"
        lives = [v["games"][0]["live"]["scores"] for v in seen if v["games"][0]["live"]]
        assert lives[0] == [0, 0]
        assert any(s[0] > 0 for s in lives), lives  # a running score was sent while the marker entered strokes
        assert seen[-1]["games"][0]["points1"] == "60"


def finish(night: Night, seed: int) -> dict[str, Any]:
    """Type results until one player is left: the lower draw number wins, with a few upsets."""
    rng = random.Random(seed)
    for _ in range(60):
        view = night.view()
        if view["finished"]:
            return view
        game = next(g for g in view["games"] if g["state"] == "ready")
        typed = ["60", str(rng.randrange(60))]
        if rng.random() < 0.3:
            typed.reverse()
        night.ok(f"/games/{game['number']}/result", {"points1": typed[0], "points2": typed[1]})
    raise AssertionError("the competition did not end")


def test_a_ranking_series_over_the_ended_competitions_by_date_and_name(client: TestClient) -> None:
    """KAAVIO 10's default points summed over the ended competitions chosen by date and name; a competition that has
    not ended counts for nothing."""
    views: list[dict[str, Any]] = []
    for date, name in (("2026-11-05", "Viikkokisa 5.11."), ("2026-12-03", "Viikkokisa 3.12."), ("2026-12-04", "SM")):
        night = Night(client, name=name, date=date)
        night.register(NAMES[:5])
        night.ok("/draw", {"seed": len(views)})
        views.append(finish(night, len(views)))
    unfinished = Night(client, name="Viikkokisa 10.12.", date="2026-12-10")
    unfinished.register(NAMES[:5])

    def points(view: dict[str, Any]) -> dict[str, int]:
        table = (15, 12, 10, 8, 7)
        return {p["name"]: 1 + p["wins"] + table[p["place"] - 1] for p in view["placings"]["points"]}

    everything = client.get("/api/kaavio/ranking").json()
    assert [c["name"] for c in everything["competitions"]] == ["Viikkokisa 5.11.", "Viikkokisa 3.12.", "SM"]
    totals = {name: sum(points(v).get(name, 0) for v in views) for name in NAMES[:5]}
    assert {r["name"]: r["points"] for r in everything["rows"]} == totals
    assert [r["points"] for r in everything["rows"]] == sorted(totals.values(), reverse=True)
    assert everything["rows"][0]["rank"] == 1
    weekly_december = client.get("/api/kaavio/ranking", params={"since": "2026-12-01", "name": "viikkokisa"}).json()
    assert [c["name"] for c in weekly_december["competitions"]] == ["Viikkokisa 3.12."]
    assert {r["name"]: r["points"] for r in weekly_december["rows"]} == points(views[1])
    assert client.get("/api/kaavio/ranking", params={"since": "3.12.2026"}).status_code == 422


def test_choices_name_the_bracket_types_as_the_kaavio_does_and_seeds_get_their_numbers(client: TestClient) -> None:
    choices = client.get("/api/kaavio/choices").json()
    kinds = {k["value"]: k for k in choices["kinds"]}
    assert kinds["TuplaKaavio"]["fi"] == "Tuplakaavio"
    assert kinds["Pudari3Kierros"]["fi"] == "Pudari 3. kierroksesta"
    assert kinds["Pudari3Kierros"]["en"] == "Out after one loss from round 3"
    assert [x["value"] for x in choices["seedings"]] == ["none", "8", "24"]
    night = Night(client, seeding="8")
    for i, name in enumerate(NAMES[:8]):
        night.ok("/players", {"name": name, "seed": i + 1})
    night.ok("/draw", {"seed": 11})
    numbers = {p["seed"]: p["number"] for p in night.view()["players"]}
    # KAAVIO 3.2 with N = 8: s1 = N-1, s2 = N/2, s3 = s2/2, s6 = s3/2, s4 = round((s1+s2)/2), ...
    assert (numbers[1], numbers[2], numbers[3], numbers[6]) == (7, 4, 2, 1)


def test_three_tables_reporting_at_once_through_the_api_lose_nothing(server: str) -> None:
    """Three round-1 games on three tables end at the same moment, each result sent twice (a retry with the same
    key): on SQLite and on PostgreSQL every result is recorded once and the search sees them all."""
    with httpx.Client(base_url=server, timeout=60) as client:
        night = Night(client, kind="TuplaKaavio")
        night.register(NAMES[:6])
        night.ok("/draw", {"seed": 6})
        for number in (1, 2, 3):
            night.ok(f"/games/{number}/start", {"marker": False})
        version = night.view()["version"]
        barrier = threading.Barrier(6)
        answers: list[int] = []

        def report(number: int) -> None:
            with httpx.Client(base_url=server, timeout=60) as own:
                barrier.wait(timeout=30)
                answer = own.post(
                    f"{API}/{night.id}/games/{number}/result",
                    json={"points1": "60", "points2": str(10 + number)},
                    headers={**night.headers, "Idempotency-Key": f"table-{number}"},
                )
                answers.append(answer.status_code)

        threads = [threading.Thread(target=report, args=(n,)) for n in (1, 2, 3) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        assert answers == [200] * 6
        view = night.view()
        assert view["version"] == version + 3
        assert [(g["points1"], g["points2"]) for g in view["games"][:3]] == [("60", "11"), ("60", "12"), ("60", "13")]
        assert sum(p["losses"] for p in view["players"]) == 3


def test_a_club_matchs_end_reads_as_the_kaavio_reads_a_scoresheet() -> None:
    """KAAVIO 7: a winner below the target (a shoot-out won under 60, 6) is marked v; at the target the points
    decide; the players in the match's order whatever cue ball each took."""
    from kaisa.game import MatchState, Result
    from kaisa.model import BallId
    from kaisa.web.competition import match_result

    w1, w2 = BallId.W1, BallId.W2

    def ended(winner: BallId, recorded: dict[BallId, int]) -> MatchState:
        return MatchState(
            owners=(w2, w1),
            innings={w1: 14, w2: 13},
            longest_run={w1: 22, w2: 17},
            result=Result(winner, recorded, recorded, "test"),
        )

    shootout = match_result(ended(w2, {w1: 51, w2: 48}), 60)
    assert shootout == {"points1": "48v", "points2": "51", "innings": 14, "longest1": 17, "longest2": 22}
    at_60 = match_result(ended(w1, {w1: 60, w2: 33}), 60)
    assert (at_60["points1"], at_60["points2"]) == ("33", "60")
    at_40 = match_result(ended(w2, {w1: 33, w2: 40}), 40)  # a match played to the competition's target of 40
    assert (at_40["points1"], at_40["points2"]) == ("40", "33")


def test_a_marked_game_plays_to_the_competitions_target_and_who_reaches_it_first_wins(client: TestClient) -> None:
    """KAAVIO 2 and rule 3: at a target of 40 the marker's club match is played to 40 (its rule option), the
    breaker's 18 and a miss, then the other player's 42 ends it at once, and the kaavio records 18 - 40 for the
    one who reached 40 first (not 60, not clamped and marked v)."""
    night = Night(client, target=40)
    night.register(NAMES[:4])
    night.ok("/draw", {"seed": 1})
    started = night.ok("/games/1/start", {"table": "1"})["answer"]  # the game's first player won the lag, took W1
    match_id, token = started["marker_url"].split("/")[-2:]
    base, headers = f"/api/club/matches/{match_id}", {"X-Kaisa-Token": token}
    match = client.get(base).json()
    assert match["winning_score"] == 40
    assert client.post(f"{base}/place-w2", json={"point": [0.71, 2.6]}, headers=headers).is_success

    def stroke(marks: dict[str, Any]) -> dict[str, Any]:
        answer = client.post(f"{base}/strokes", json={"call": "K FL", "marks": marks}, headers=entry(headers))
        assert answer.status_code == 200, answer.text
        view: dict[str, Any] = answer.json()["match"]
        return view

    pot = {"pots": [["K", "FL"]], "first_contact": "K"}
    for n in range(3):
        stroke({**pot, "place": [0.5, 0.3]} if n == 0 else pot)
    stroke({"first_contact": "K"})  # a miss: the other player's turn
    for _ in range(6):
        view = stroke(pot)
    assert view["phase"] == "play"
    assert view["scores"] == {"W1": 18, "W2": 36}
    assert night.game(1)["state"] == "running"
    view = stroke(pot)  # 42: past the target, the game is over at once
    assert view["phase"] == "over"
    assert view["result"]["winner"] == "W2"
    assert view["result"]["recorded"] == {"W1": 18, "W2": 40}
    assert view["result"]["reason"] == "40 points (3)"
    game = night.game(1)
    assert game["state"] == "played"
    assert (game["points1"], game["points2"]) == ("18", "40")
    assert game["winner"] == game["player2"]
    assert (game["longest1"], game["longest2"]) == (18, 42)


def test_the_scoresheets_results_and_placings_are_served_as_pdf_and_csv(client: TestClient) -> None:
    """The paper module's files (kaisa.competition.paper) from the stored competition, in Finnish and English."""
    night = Night(client)
    night.register(NAMES[:4])
    night.ok("/draw", {"seed": 1})
    sheets = client.get(f"{API}/{night.id}/scoresheets.pdf", params={"blanks": 2})
    assert sheets.status_code == 200
    assert sheets.headers["content-type"] == "application/pdf"
    assert sheets.content.startswith(b"%PDF")
    view = finish(night, 1)
    results = client.get(f"{API}/{night.id}/results.csv", params={"lang": "en"})
    assert results.headers["content-type"].startswith("text/csv")
    text = results.content.decode("utf-8-sig")
    assert len(text.strip().splitlines()) == 1 + len(view["games"])
    placings = client.get(f"{API}/{night.id}/placings.csv").content.decode("utf-8-sig")
    assert view["placings"]["points"][0]["name"] in placings.splitlines()[1]
    assert client.get(f"{API}/{night.id}/results.pdf", params={"lang": "en"}).content.startswith(b"%PDF")
    assert client.get(f"{API}/{night.id}/results.pdf", params={"lang": "sv"}).status_code == 422
    assert client.get(f"{API}/{night.id}/scoresheets.pdf", params={"blanks": 101}).status_code == 422


def test_a_start_sent_again_after_a_lost_answer_opens_one_club_match(client: TestClient) -> None:
    night = Night(client)
    night.register(NAMES[:4])
    night.ok("/draw", {"seed": 1})
    first = night.ok("/games/1/start", {}, key="start-a")["answer"]
    again = night.ok("/games/1/start", {}, key="start-b")["answer"]  # a new key: the page sent it again
    assert again == first
    assert len(client.get("/api/matches").json()) == 1
    assert night.post("/games/1/start", {"table": "3"}).status_code == 409  # another table: not a repeat


def test_a_player_registered_by_mistake_is_withdrawn_before_the_draw_and_not_after(client: TestClient) -> None:
    night = Night(client)
    night.register(NAMES[:4])
    night.ok("/players", {"name": "Virtanen Mati", "club": "KS"})  # a typo
    gone = night.ok("/players/withdraw", {"name": "Virtanen Mati", "club": "KS"})
    assert gone["answer"]["player"]["name"] == "Virtanen Mati"
    assert [p["name"] for p in gone["competition"]["players"]] == NAMES[:4]
    missing = night.post("/players/withdraw", {"name": "Virtanen Mati"})
    assert (missing.status_code, missing.json()["code"]) == (422, "no-such-player")
    night.ok("/draw", {"seed": 1})
    after = night.post("/players/withdraw", {"name": NAMES[0], "club": "KS"})
    assert (after.status_code, after.json()["code"]) == (409, "already-drawn")
    assert "kirjaa hänen pelinsä hävityiksi" in after.json()["fi"]
    assert night.post("/players/withdraw", {"name": NAMES[1]}, token=None).status_code == 403


def test_a_score_that_decides_nothing_is_kept_as_interim_and_the_director_is_told(client: TestClient) -> None:
    """KAAVIO 7: any points make a game running; a score below the target without v or h is not a saved result,
    and the answer says so in both languages (the page shows it instead of 'saved')."""
    night = Night(client)
    night.register(NAMES[:8])
    night.ok("/draw", {"seed": 5})
    answer = night.ok("/games/1/result", {"points1": "38", "points2": "39"})["answer"]
    assert answer["added"] == []
    assert answer["interim"]["fi"].startswith("Peli 1 jatkuu: kumpikaan ei ole saavuttanut tavoitetta (60 pistettä)")
    assert "38–39" in answer["interim"]["fi"]
    assert answer["interim"]["en"].startswith("Game 1 goes on: neither player has reached the target (60 points)")
    assert night.game(1)["state"] == "running"
    final = night.ok("/games/1/result", {"points1": "60", "points2": "39"})["answer"]
    assert final["interim"] is None
    assert night.game(1)["state"] == "played"


def kaisakaavio_finished(client: TestClient, name: str, date: str) -> bytes:
    """A finished 5-player competition exported as a KaisaKaavio file (then deleted from nothing: a new club)."""
    night = Night(client, name=name, date=date)
    night.register(NAMES[:5])
    night.ok("/draw", {"seed": 3})
    finish(night, 3)
    return client.get(f"{API}/{night.id}/kaisakaavio.xml").content


def test_a_kaisakaavio_file_is_imported_into_the_club_and_joins_the_ranking(tmp_path: Path) -> None:
    with TestClient(create_app(open_store(f"sqlite:///{tmp_path / 'old.sqlite3'}"), close_store=True)) as old:
        data = kaisakaavio_finished(old, "Viikkokisa 5.11.", "2026-11-05")
    with TestClient(create_app(open_store(f"sqlite:///{tmp_path / 'new.sqlite3'}"), close_store=True)) as client:
        assert client.get("/api/kaavio/ranking").json()["rows"] == []
        made = client.post(f"{API}/import", content=data, headers={"Content-Type": "application/xml"})
        assert made.status_code == 201, made.text
        cid, token = made.json()["id"], made.json()["token"]
        assert made.json()["director_url"] == f"/kaavio#/director/{cid}/{token}"
        view = client.get(f"{API}/{cid}/director", headers={"X-Kaisa-Token": token}).json()
        assert (view["settings"]["name"], view["finished"]) == ("Viikkokisa 5.11.", True)
        ranking = client.get("/api/kaavio/ranking", params={"since": "2026-11-01"}).json()
        assert [c["id"] for c in ranking["competitions"]] == [cid]
        assert {r["name"] for r in ranking["rows"]} == set(NAMES[:5])
        # the same file again would count twice in the series: refused, naming the competition
        again = client.post(f"{API}/import", content=data, headers={"Content-Type": "application/xml"})
        assert (again.status_code, again.json()["code"]) == (409, "already-imported")
        assert f"kilpailu {cid}" in again.json()["fi"]
        bad = client.post(f"{API}/import", content=b"<Kilpailu><Pelit>", headers={"Content-Type": "application/xml"})
        assert (bad.status_code, bad.json()["code"]) == (422, "bad-kaisakaavio-file")
        assert "rivillä 1" in bad.json()["fi"]
        assert "line 1" in bad.json()["en"]
        big = client.post(f"{API}/import", content=b" " * 2_000_001, headers={"Content-Type": "application/xml"})
        assert (big.status_code, big.json()["code"]) == (413, "file-too-large")
        assert [c["id"] for c in client.get(API).json()] == [cid]


def test_a_hand_paired_games_reason_is_in_the_view_in_the_directors_words(client: TestClient) -> None:
    night = Night(client)
    night.register(NAMES[:6])
    night.ok("/draw", {"seed": 1})
    for _ in range(4):
        night.ok(f"/games/{night.ready()[0]['number']}/result", {"points1": "60", "points2": "1"})
    view = night.view()
    busy = {x for g in view["games"] if g["state"] != "played" for x in (g["player1"], g["player2"])}
    free = [p["number"] for p in view["players"] if not p["out"] and p["number"] not in busy]
    assert len(free) >= 2
    made = night.ok("/pair", {"players": free[:2], "reason": "Pelaaja lähtee  junalle"})
    assert night.game(made["answer"]["game"])["hand_reason"] == "Pelaaja lähtee junalle"
    assert [g["hand_reason"] for g in night.view()["games"] if g["number"] != made["answer"]["game"]] == [None] * (
        len(night.view()["games"]) - 1
    )


def test_a_game_starts_only_on_the_competitions_tables_and_an_unknown_competition_is_one_sentence(
    client: TestClient,
) -> None:
    night = Night(client)
    night.register(NAMES[:4])
    night.ok("/draw", {"seed": 2})
    refused = night.post("/games/1/start", {"table": "9", "marker": False})
    assert (refused.status_code, refused.json()["code"]) == (422, "unknown-table")
    assert refused.json()["fi"] == "Pöytää 9 ei ole tämän kilpailun pöydissä; pöydät ovat 1, 2, 3."
    assert refused.json()["en"] == "Table 9 is not one of this competition's tables; the tables are 1, 2, 3."
    assert night.game(1)["state"] == "ready"
    missing = client.get(f"{API}/999").json()
    assert (missing["fi"], missing["en"]) == ("Kilpailua 999 ei löydy.", "There is no competition 999.")


def test_the_same_name_twice_needs_clubs_that_tell_them_apart(client: TestClient) -> None:
    night = Night(client)
    night.ok("/players", {"name": "Virtanen Matti", "club": "KS"})
    for club in ("", "ks"):
        refused = night.post("/players", {"name": "virtanen  matti", "club": club})
        assert (refused.status_code, refused.json()["code"]) == (422, "duplicate-player"), club
        assert refused.json()["fi"].startswith("Virtanen Matti (KS) on jo ilmoittautunut.")
    night.ok("/players", {"name": "Virtanen Matti", "club": "PVK"})
    assert [(p["name"], p["club"]) for p in night.view()["players"]] == [
        ("Virtanen Matti", "KS"),
        ("Virtanen Matti", "PVK"),
    ]


def test_the_director_chooses_when_the_search_runs_again_through_the_api(client: TestClient) -> None:
    """KAAVIO 4.3: as KaisaKaavio by default; ``until_settled`` set through the API is kept in the competition,
    its KaisaKaavio file and its view, and a value that is not an option is refused, naming the options."""
    choices = client.get("/api/kaavio/choices").json()
    assert [x["value"] for x in choices["search_reruns"]] == ["kaisakaavio", "until_settled"]
    default = Night(client)
    assert default.view()["settings"]["search_rerun"] == "kaisakaavio"
    settled = Night(client, search_rerun="until_settled")
    assert settled.view()["settings"]["search_rerun"] == "until_settled"
    xml = client.get(f"{API}/{settled.id}/kaisakaavio.xml", headers=settled.headers).text
    assert "<KaisaHakuUudelleen>until_settled</KaisaHakuUudelleen>" in xml
    wrong = client.post(API, json={"name": "X", "tables": ["1"], "search_rerun": "often"})
    assert wrong.status_code == 422
    assert "until_settled" in wrong.text
