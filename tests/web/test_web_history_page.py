"""The history is read a page at a time (``?offset=&limit=``): each page is the slice of the whole history."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from kaisa.records.storage import open_store
from kaisa.web import create_app


def test_history_pages_are_slices_of_the_whole_history(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'kaisa.db'}")
    with TestClient(create_app(store, close_store=True)) as client:
        body = {"players": [{"name": "Aino", "kind": "baseline"}, {"name": "Eero", "kind": "baseline"}], "seed": 3}
        match_id = client.post("/api/matches", json=body).json()["id"]
        for _ in range(7):  # the lag, the choice, W2's place and strokes: the computer plays them all
            assert client.post(f"/api/matches/{match_id}/computer").status_code == 200
        whole = client.get(f"/api/matches/{match_id}/actions").json()
        assert [a["index"] for a in whole] == list(range(len(whole)))
        assert len(whole) >= 7
        for offset, limit in ((0, 1), (2, 3), (len(whole) - 2, 5), (len(whole), 4)):
            page = client.get(f"/api/matches/{match_id}/actions", params={"offset": offset, "limit": limit})
            assert page.status_code == 200, page.text
            assert page.json() == whole[offset : offset + limit]
        for bad in ({"offset": -1}, {"limit": 0}, {"limit": 100_000}):
            refused = client.get(f"/api/matches/{match_id}/actions", params=bad)
            assert refused.status_code == 422
            assert "offset" in refused.text or "limit" in refused.text
