"""issue 29: the competition API and KaisaKaavio imports fuzzed past the schema, on a real competition with
its director's token: any JSON value in any field of a change, any id in a path, and KaisaKaavio files with
mutated attributes. Every answer is a success or a refusal in the one error shape (a code, Finnish and English),
never a 500; an import the API accepts can be shown and exported again. Bounded: 40 examples each."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kaisa.competition import CompetitionError
from kaisa.competition.kaisakaavio import from_xml, to_xml
from kaisa.records.storage import open_store
from kaisa.web import create_app

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

BOUNDED = settings(
    max_examples=40, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck)
)
API = "/api/kaavio/competitions"

json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(10**30), max_value=10**30),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=80),
        st.sampled_from(["1.0", "+1", "\x00", "60", "30v", "12h", "W1", "Pelaaja 1"]),
    ),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=3)),
    max_leaves=8,
)
CHANGES = {
    "/players": ("name", "club", "seed"),
    "/players/withdraw": ("name", "club"),
    "/prizes": ("entry_fee", "sbil", "club", "winner_weight", "paid_places"),
    "/draw": ("seed",),
    "/games/1/start": ("table", "marker", "lag_winner", "winner_takes", "clock", "expect"),
    "/games/1/result": ("points1", "points2", "innings", "longest1", "longest2", "expect"),
    "/pair": ("players", "reason"),
}


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, int, dict[str, str]]]:
    store = open_store(f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'k.sqlite3'}")
    with TestClient(create_app(store, close_store=True), raise_server_exceptions=False) as client:
        made = client.post(API, json={"name": "Fuzz", "tables": ["1", "2"]}).json()
        cid, headers = made["id"], {"X-Kaisa-Token": made["token"]}
        for i in range(6):
            client.post(f"{API}/{cid}/players", json={"name": f"Pelaaja {i}"}, headers=headers)
        client.post(f"{API}/{cid}/draw", json={"seed": 3}, headers=headers)
        yield client, cid, headers


def answered_cleanly(answer: Any) -> None:
    assert answer.status_code < 500, answer.text
    if answer.status_code >= 400:
        body = answer.json()
        assert body["code"], body
        assert body["fi"], body
        assert body["en"], body


@BOUNDED
@given(path=st.sampled_from(sorted(CHANGES)), data=st.data())
def test_a_change_with_any_json_in_its_fields_is_answered_cleanly(
    night: tuple[TestClient, int, dict[str, str]], path: str, data: st.DataObject
) -> None:
    client, cid, headers = night
    fields = data.draw(st.lists(st.sampled_from(CHANGES[path]), max_size=3, unique=True))
    body = {name: data.draw(json_values) for name in fields}
    answered_cleanly(client.post(f"{API}/{cid}{path}", json=body, headers=headers))


@BOUNDED
@given(cid=st.text(alphabet="0123456789+-.eE x", min_size=1, max_size=25), number=st.text(max_size=25))
def test_any_id_in_a_path_is_answered_cleanly(
    night: tuple[TestClient, int, dict[str, str]], cid: str, number: str
) -> None:
    client, _, headers = night
    from urllib.parse import quote

    shown = client.get(f"{API}/{quote(cid, safe='')}")
    answered_cleanly(shown)
    if not (cid.isascii() and cid.isdigit()):
        assert shown.status_code == 422, (cid, shown.text)  # 1.0, +1, 1e0 are no competition's id
    answered_cleanly(
        client.post(
            f"{API}/{quote(cid, safe='')}/games/{quote(number, safe='') or '1'}/result", json={}, headers=headers
        )
    )


def _xml(attrs: dict[str, str], target: str) -> str:
    players = "".join(
        f'<Pelaaja Nimi="P{i}" Seura="" Sijoitettu="{attrs["seed"] if i == 1 else ""}" Id="{i}"/>' for i in range(1, 5)
    )
    game = (
        f'<Peli Kierros="{attrs["round"]}" KierrosPelaaja1="1" KierrosPelaaja2="1" PelaajaId1="1" '
        f'PelaajaId2="{attrs["other"]}" Pisteet1="{attrs["points"]}" Pisteet2="10" Tilanne="Pelattu"/>'
    )
    return (
        f"<Kilpailu><Nimi>Tuonti</Nimi><TavoitePistemaara>{target}</TavoitePistemaara><AlkamisAika>2026-01-02T00:00:00"
        f"</AlkamisAika><Osallistujat>{players}</Osallistujat><Pelit>{game}</Pelit></Kilpailu>"
    )


attribute = st.one_of(
    st.sampled_from(["1", "2", "999", "-1", "x", "3P", "60", "60v", "", "1" * 401]),
    st.text(alphabet="0123456789vhPx-", max_size=8),
)


@BOUNDED
@given(seed=attribute, round_=attribute, other=attribute, points=attribute, target=attribute)
def test_a_kaisakaavio_file_with_any_attributes_is_read_or_refused_never_half_read(
    night: tuple[TestClient, int, dict[str, str]], seed: str, round_: str, other: str, points: str, target: str
) -> None:
    client, _, _ = night
    xml = _xml({"seed": seed, "round": round_, "other": other, "points": points}, target)
    said = ""
    try:
        kaavio = from_xml(xml)
    except CompetitionError as refused:
        said = refused.fi
    if said:
        assert said.startswith("Tiedosto ei kelpaa"), said
    else:
        assert from_xml(to_xml(kaavio)).to_json() == kaavio.to_json()  # read back as written
    answer = client.post(f"{API}/import", content=xml.encode(), headers={"Content-Type": "application/xml"})
    answered_cleanly(answer)
    if answer.status_code == 201:
        shown = client.get(f"{API}/{answer.json()['id']}")
        assert shown.status_code == 200, shown.text
