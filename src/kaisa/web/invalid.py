"""A request the API's schemas refuse (422 ``invalid-request``), said to a person in Finnish and English.

FastAPI reports each bad field as its place in the request (``body.stroke.speed``) and pydantic's English
message. People read the page's language, so each field error becomes a sentence naming the field in words a
player or a club secretary knows and saying what is allowed: the field names and the common kinds of error
are listed here once. An error raised by the package's own codecs (a :class:`~kaisa.errors.KaisaError`, e.g.
the marker's entry) already has its own Finnish and English, and is used as it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kaisa.errors import ErrorText, KaisaError, error_text

FIELDS: dict[str, tuple[str, str]] = {
    "ball": ("pallo", "the ball"),
    "balls": ("pallot", "the balls"),
    "call": ("maalaus", "the call"),
    "cid": ("kilpailun numero", "the competition's number"),
    "clause": ("sääntökohta", "the clause"),
    "clock": ("kello", "the clock"),
    "club": ("seura", "the club"),
    "cue_ball": ("lyöntipallo", "the cue ball"),
    "date": ("päivämäärä", "the date"),
    "direction": ("suunta", "the direction"),
    "elevation": ("kohotus", "the elevation"),
    "entry_fee": ("osallistumismaksu", "the entry fee"),
    "event": ("tapahtuma", "the event"),
    "expect": ("pelin pelaajat", "the game's players"),
    "follow": ("ylä- tai alakierre", "the follow or draw"),
    "index": ("toiminnon numero", "the action's number"),
    "innings": ("lyöntivuorot", "the innings"),
    "kind": ("kaavion tyyppi", "the bracket type"),
    "lag_winner": ("teikkauksen voittaja", "the lag winner"),
    "level": ("taso", "the level"),
    "lift": ("pallot pois pisteiltä", "the balls off their spots"),
    "limit": ("ehdotusten määrä", "the number of suggestions"),
    "longest1": ("pelaajan 1 pisin sarja", "player 1's longest run"),
    "longest2": ("pelaajan 2 pisin sarja", "player 2's longest run"),
    "marker": ("kirjuri", "the marker"),
    "marks": ("kirjurin merkinnät", "the marker's entry"),
    "match": ("ottelu", "the match"),
    "match_id": ("ottelun numero", "the match's number"),
    "max_players": ("pelaajien enimmäismäärä", "the most players"),
    "name": ("nimi", "the name"),
    "number": ("pelin numero", "the game's number"),
    "offset": ("ensimmäinen toiminto", "the first action"),
    "options": ("sääntövalinnat", "the rule options"),
    "place": ("käsipallon paikka", "the place of the ball in hand"),
    "placing": ("sijoitusten ratkaisu", "the placing"),
    "players": ("pelaajat", "the players"),
    "point": ("paikka", "the place"),
    "points1": ("pelaajan 1 pisteet", "player 1's points"),
    "points2": ("pelaajan 2 pisteet", "player 2's points"),
    "position": ("pallojen asema", "the position"),
    "reason": ("syy", "the reason"),
    "seconds": ("sekunnit", "the seconds"),
    "seed": ("siemenluku", "the seed"),
    "seeding": ("sijoittelu", "the seeding"),
    "shooter": ("lyöjän lyöntipallo", "the shooter's cue ball"),
    "side": ("sivukierre", "the side spin"),
    "since": ("alkuhetki", "the start"),
    "speed": ("voima", "the power"),
    "state": ("pelitilanne", "the game state"),
    "stroke": ("lyönti", "the stroke"),
    "strokes": ("lyönnit", "the strokes"),
    "table": ("pöytä", "the table"),
    "tables": ("pöydät", "the tables"),
    "target": ("pistetavoite", "the target score"),
    "winner": ("voittaja", "the winner"),
    "winner_takes": ("voittajan valitsema lyöntipallo", "the cue ball the winner takes"),
}
"""Each field of a request body, path or query by its API name: its name in Finnish and English."""

_SECTIONS = {"body", "path", "query", "header", "cookie"}


def _number(value: object, fi: bool) -> str:
    """A bound as a person writes it: Finnish groups thousands with spaces and uses a decimal comma."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    if isinstance(value, int) or value.is_integer():
        text = f"{int(value):,}"
        return text.replace(",", "\u00a0") if fi else text
    text = f"{value:g}"
    return text.replace(".", ",") if fi else text


def _choices(expected: object, fi: bool) -> str:
    return str(expected).replace(" or ", " tai ") if fi else str(expected)


def _fi_rule(kind: str, ctx: Mapping[str, Any]) -> str:
    """What is wrong with a field, in Finnish, by pydantic's error type; the bounds from its context."""
    n = {key: _number(value, True) for key, value in ctx.items()}
    rules = {
        "missing": "puuttuu",
        "extra_forbidden": "ei kuulu tähän pyyntöön",
        "less_than_equal": f"saa olla enintään {n.get('le')}",
        "less_than": f"on oltava pienempi kuin {n.get('lt')}",
        "greater_than_equal": f"on oltava vähintään {n.get('ge')}",
        "greater_than": f"on oltava suurempi kuin {n.get('gt')}",
        "int_parsing": "on oltava kokonaisluku",
        "int_type": "on oltava kokonaisluku",
        "int_from_float": "on oltava kokonaisluku",
        "whole_number": f"on oltava kokonaisluku numeroin 0–9 kirjoitettuna (enintään {n.get('digits')} numeroa)",
        "float_parsing": "on oltava luku",
        "float_type": "on oltava luku",
        "finite_number": "on oltava äärellinen luku",
        "bool_parsing": "on oltava kyllä tai ei (true tai false)",
        "bool_type": "on oltava kyllä tai ei (true tai false)",
        "string_type": "on oltava tekstiä",
        "string_too_short": f"on liian lyhyt: vähintään {n.get('min_length')} merkkiä",
        "string_too_long": f"on liian pitkä: enintään {n.get('max_length')} merkkiä",
        "string_pattern_mismatch": "ei ole oikeassa muodossa",
        "too_short": f"on liian lyhyt: vähintään {n.get('min_length')} kohtaa",
        "too_long": f"on liian pitkä: enintään {n.get('max_length')} kohtaa",
        "literal_error": f"on oltava jokin näistä: {_choices(ctx.get('expected'), True)}",
        "enum": f"on oltava jokin näistä: {_choices(ctx.get('expected'), True)}",
        "list_type": "on oltava luettelo",
        "tuple_type": "on oltava luettelo",
        "dict_type": "on oltava nimetyt kentät (JSON-olio)",
        "model_type": "on oltava nimetyt kentät (JSON-olio)",
        "model_attributes_type": "on oltava nimetyt kentät (JSON-olio)",
    }
    return rules.get(kind, "ei kelpaa")


def _field(loc: Sequence[object], path: str) -> tuple[str, str]:
    """The field an error is about, in Finnish and English: the innermost named field, with the item's
    number when the error is about one item of a list (``players.1`` is the second player)."""
    parts = [part for part in loc if not (isinstance(part, str) and part in _SECTIONS)]
    last = max((i for i, part in enumerate(parts) if isinstance(part, str)), default=None)
    if last is None:
        return ("pyyntö", "the request")
    name = str(parts[last])
    item = next((part for part in parts[last + 1 :] if isinstance(part, int)), None)
    parent: tuple[str, str] | None = None
    before = parts[last - 1] if last >= 2 else None
    if item is None and isinstance(before, int) and isinstance(parts[last - 2], str):
        item, parent = before, FIELDS.get(str(parts[last - 2]))  # players.0.name: the first player's name
    if name == "seed" and path.rstrip("/").endswith("/players"):
        fi, en = "sijoitusnumero", "the seeding number"
    else:
        fi, en = FIELDS.get(name, (f"kenttä {name}", f"the field {name}"))
    if item is not None and parent is not None:
        fi, en = f"{fi} ({parent[0]}, kohta {item + 1})", f"{en} ({parent[1]}, item {item + 1})"
    elif item is not None:
        fi, en = f"{fi} (kohta {item + 1})", f"{en} (item {item + 1})"
    return fi, en


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def invalid_request_text(errors: Sequence[Mapping[str, Any]], path: str = "") -> ErrorText:
    """The whole refusal in Finnish and English: one sentence per bad field (at most five), naming the field
    and saying what is allowed."""
    fi_parts: list[str] = []
    en_parts: list[str] = []
    for error in errors[:5]:
        ctx = error.get("ctx") or {}
        own = ctx.get("error")
        field_fi, field_en = _field(error.get("loc", ()), path)
        if isinstance(own, KaisaError):
            text = error_text(own)
            fi_parts.append(f"{_capital(field_fi)}: {text.fi}")
            en_parts.append(f"{_capital(field_en)}: {text.en}")
            continue
        if error.get("type") == "json_invalid":
            fi_parts.append("Pyynnön sisältö ei ole kelvollista JSON-tekstiä.")
            en_parts.append("The request's body is not valid JSON.")
            continue
        fi_parts.append(f"{_capital(field_fi)} {_fi_rule(str(error.get('type')), ctx)}.")
        message = str(error.get("msg", "is not valid"))
        en_parts.append(f"{_capital(field_en)}: {message[:1].lower()}{message[1:]}.")
    if len(errors) > 5:
        fi_parts.append(f"Lisäksi {len(errors) - 5} muuta virhettä.")
        en_parts.append(f"And {len(errors) - 5} more errors.")
    return ErrorText("Pyyntö ei kelpaa. " + " ".join(fi_parts), "The request was not accepted. " + " ".join(en_parts))


__all__ = ["FIELDS", "invalid_request_text"]
