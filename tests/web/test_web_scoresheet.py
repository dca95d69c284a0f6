"""The scoresheet PDF's layout, checked on the drawn pages: no text over other text or over the signature lines,
nothing past the page's edge, every foul written out in full, and the words and date the scoresheet page uses."""

from __future__ import annotations

import re
from typing import Any

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.text import Text
from matplotlib.transforms import Bbox

from kaisa.competition.paper import date_text
from kaisa.web.scoresheet import minutes, scoresheet_figures, scoresheet_to_pdf

HAND_FAULT = {
    "clause": "5",
    "points": 0,
    "fi": "Käsipallovirhe: aloituslinjalla tai sen takana olevaa palloa saa pelata vain vallin tai linjan "
    "etupuolella olevan pallon kautta",
    "en": "hand fault: a ball on or behind the head string may be played only via a cushion or a ball in front "
    "of the string",
}
TURN_PASSES = {
    "clause": "7c",
    "points": -2,
    "fi": "Virhe käsipallotilanteessa: lyöntivuoro vaihtuu",
    "en": "a fault with ball in hand: the turn passes",
}


def sheet(innings: int, foul_at: tuple[int, ...], names: tuple[str, str] = ("Matti Virtanen", "Pekka Korhonen")):
    rows = [
        {
            "number": i + 1,
            "player": i % 2,
            "points": 2,
            "score": 2 * (i // 2 + 1),
            "strokes": [3 * i + 1, 3 * i + 2],
            "fouls": [HAND_FAULT, TURN_PASSES] if i + 1 in foul_at else [],
        }
        for i in range(innings)
    ]
    return {
        "id": 7,
        "event": "Seurailta 3.12.",
        "table_label": "3",
        "date": "2026-12-03",
        "players": [{"name": names[0], "cue_ball": "W1"}, {"name": names[1], "cue_ball": "W2"}],
        "innings": rows,
        "runs": [6, 4],
        "inning_counts": [(innings + 1) // 2, innings // 2],
        "fouls": [len(foul_at), len(foul_at)],
        "result": {"winner": "W1", "scores": {"W1": 60, "W2": 34}},
        "shootout": None,
        "breaks": {"W1": 183.4},
    }


def drawn(figure: Figure) -> tuple[list[tuple[str, Bbox]], list[Bbox]]:
    """The page's texts with their boxes and its lines' boxes, in the page's pixels, as drawn."""
    canvas = FigureCanvasAgg(figure)
    canvas.draw()  # type: ignore[no-untyped-call]
    renderer = canvas.get_renderer()  # type: ignore[no-untyped-call]
    texts = [(t.get_text(), t.get_window_extent(renderer)) for t in figure.findobj(Text) if t.get_text()]
    lines = [line.get_window_extent(renderer) for line in figure.findobj(Line2D)]
    return texts, lines


def check_layout(data: dict[str, Any], lang: str) -> list[list[str]]:
    """Each page's texts, after checking that no two overlap, that none crosses a line and that all are on the
    page inside its margins."""
    pages = []
    for number, figure in enumerate(scoresheet_figures(data, lang), start=1):
        texts, lines = drawn(figure)
        width, height = figure.bbox.width, figure.bbox.height
        for i, (text, box) in enumerate(texts):
            assert box.x0 >= 0.05 * width, (number, text)
            assert box.x1 <= 0.95 * width, (number, text, box.x1 / width)
            assert box.y0 >= 0, (number, text)
            assert box.y1 <= height, (number, text)
            for other, other_box in texts[i + 1 :]:
                assert not box.overlaps(other_box), (number, text, other)
            for line in lines:
                assert not box.overlaps(line.expanded(1.0, 1.0)), (number, text, "crosses a line")
        pages.append([text for text, _ in texts])
    return pages


@pytest.mark.parametrize("lang", ["fi", "en"])
@pytest.mark.parametrize("innings", [10, 30, 33, 34, 80])
def test_the_pdf_scoresheet_has_no_text_over_text_or_lines_and_every_foul_in_full(innings: int, lang: str) -> None:
    data = sheet(innings, foul_at=(4, innings - 1, innings))
    pages = check_layout(data, lang)
    words = " ".join(" ".join(page) for page in pages)
    for foul in (HAND_FAULT, TURN_PASSES):  # each of the three innings' two fouls, word for word
        said = f"§ {foul['clause']} ({foul['points']:+d}) {foul[lang]}"
        assert words.count(said) == 3, said
    # the summary and the signatures after the last inning, on the last page
    last = pages[-1]
    assert any(text.startswith("Tulos: 60 – 34" if lang == "fi" else "Result: 60 – 34") for text in last)
    assert ("Kirjuri" if lang == "fi" else "Marker") in last
    assert str(innings) in last  # the last inning's number, above the summary
    assert sum(text == str(i + 1) for page in pages for text in page for i in range(innings)) >= innings


def test_the_pdf_scoresheet_says_what_the_scoresheet_page_says() -> None:
    assert date_text("2026-12-03", "fi") == "3.12.2026"
    assert date_text("2026-12-03", "en") == "3 Dec 2026"
    assert minutes(183.4) == "3:03"
    (fi,) = check_layout(sheet(6, foul_at=(2,)), "fi")
    assert "Päivä: 3.12.2026   Pöytä: 3   Seurailta: Seurailta 3.12." in fi
    assert "Lyöntivuoro" in fi
    assert any("Lyöntivuorot 3" in text for text in fi)
    assert "Tauot: Matti Virtanen (W1) 3:03" in fi
    assert "Pelaaja: Pekka Korhonen" in fi
    assert not any(re.search(r"\bVuoro|Kilpailu|\d+ s\b", text) for text in fi)
    (en,) = check_layout(sheet(6, foul_at=(2,)), "en")
    assert "Breaks: Matti Virtanen (W1) 3:03" in en


def test_long_names_wrap_in_the_column_heads_and_the_pdf_has_its_pages() -> None:
    data = sheet(34, foul_at=(34,), names=("Matti-Pekka Virtanen-Korhonen", "Anna-Kaisa Lehtinen-Salminen"))
    assert len(check_layout(data, "fi")) == 2
    pdf = scoresheet_to_pdf(data, "fi")
    assert pdf.startswith(b"%PDF")
    assert len(re.findall(rb"/Type /Page\b", pdf)) == 2
