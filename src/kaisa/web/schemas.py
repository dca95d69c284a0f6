"""The HTTP API's request and response bodies (pydantic), documented in the OpenAPI schema.

Bodies carry the project's external contract unchanged (ball ids, pocket ids, metres, the stroke JSON, the
referee's ruling JSON); the domain types check the meaning (a legal stroke, a legal placement) and their
errors become the API's 4xx answers.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import itertools
import json
import textwrap
import types
import typing
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    WithJsonSchema,
    create_model,
    field_validator,
)

from kaisa.errors import ErrorText, KaisaError
from kaisa.model import MAX_ELEVATION, MAX_SPEED, MAX_TIP_OFFSET, MIN_SPEED, shown_value
from kaisa.players.kinds import KINDS
from kaisa.session import aids as session_aids
from kaisa.session import view as session_view
from kaisa.session.aids import ADVISOR_LEVELS

Coordinate = Annotated[float, Field(strict=True, ge=-10.0, le=10.0, allow_inf_nan=False)]
"""A coordinate in metres: a JSON number (``false`` or ``"0.5"`` is refused)."""
PointIn = tuple[Coordinate, Coordinate]
BallName = Literal["W1", "W2", "R1", "R2", "K"]
CueBallName = Literal["W1", "W2"]


def _known(names: tuple[str, ...], what: str) -> AfterValidator:
    def check(value: str) -> str:
        if value not in names:
            raise ValueError(f"unknown {what} {value!r}; the {what}s are {', '.join(names)}")
        return value

    return AfterValidator(check)


PlayerKind = Annotated[
    str, _known(tuple(KINDS), "player kind"), WithJsonSchema({"type": "string", "enum": list(KINDS)})
]
"""A kind of :mod:`kaisa.players.kinds`."""
SearchLevel = Annotated[
    str,
    _known(tuple(ADVISOR_LEVELS), "level"),
    WithJsonSchema({"type": "string", "enum": list(ADVISOR_LEVELS)}),
]
"""A level the advisor plays (:data:`kaisa.session.aids.ADVISOR_LEVELS`: every computer player's kind)."""
Language = Literal["fi", "en"]


CONTROL = {chr(c) for c in range(32)} - {"\t", "\n", "\r"} | {"\x7f"}
"""Characters no text of a request may hold (a NUL byte, the other control characters): a name or an event
with them cannot be shown, printed or stored as it was sent."""


def _shown(value: object) -> str:
    return json.dumps(value) if isinstance(value, bool) or value is None else shown_value(value)


def _kinds(annotation: Any) -> list[Any]:
    """The alternatives a field's type allows, looking through Annotated and unions (``None`` dropped)."""
    if typing.get_origin(annotation) is Annotated:
        return _kinds(typing.get_args(annotation)[0])
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return [k for a in typing.get_args(annotation) for k in _kinds(a) if k is not type(None)]
    return [annotation]


class JsonTypeError(KaisaError):
    """A value of the wrong JSON type or with control characters, said in Finnish and English."""

    code = "invalid-request"
    kind = ErrorText("Pyynnön arvo on väärää tyyppiä.", "A value of the request is of the wrong type.")

    def __init__(self, en: str, fi: str) -> None:
        super().__init__(en)
        self.text = ErrorText(fi, en[:1].upper() + en[1:] + ".")


def _not_number(value: object) -> JsonTypeError:
    what = "totuusarvo" if isinstance(value, bool) else "tekstiä" if isinstance(value, str) else "luku"
    return JsonTypeError(f"a number, not {_shown(value)}", f"arvon on oltava luku, ei {what}.")


def check_json_types(annotation: Any, value: Any) -> None:
    """Refuse what pydantic's lax mode would read as something else, at any depth of a body: ``true`` or
    ``1.0`` for a whole number (``"expect": [true, 2]``), a number for ``true``/``false`` (``"percent": 1``,
    ``"marker": 1``), ``true`` for a choice of numbers (``"lag_winner": true``), and text with control
    characters (a NUL byte in a name). One check for every body of every router (:class:`Strict`)."""
    if value is None:
        return
    kinds = _kinds(annotation)
    scalar = {k for k in kinds if k in (int, float, bool)}
    literals = [v for k in kinds if typing.get_origin(k) is Literal for v in typing.get_args(k)]
    numbers = bool(scalar & {int, float}) or any(isinstance(v, int) and not isinstance(v, bool) for v in literals)
    if isinstance(value, str):
        if any(ch in CONTROL for ch in value):
            raise JsonTypeError(
                "text without control characters (such as a NUL byte)",
                "tekstissä ei saa olla ohjausmerkkejä (kuten NUL-merkkiä).",
            )
        if numbers and str not in kinds and not any(isinstance(v, str) for v in literals):
            raise _not_number(value)
        return
    if isinstance(value, list | tuple):
        containers = [k for k in kinds if typing.get_origin(k) in (tuple, list)]
        for kind in containers[:1]:
            args = [a for a in typing.get_args(kind) if a is not Ellipsis]
            for i, item in enumerate(value):
                if args:
                    check_json_types(args[min(i, len(args) - 1)], item)
        return
    if isinstance(value, dict):
        return
    if bool in scalar and not isinstance(value, bool) and not numbers:
        raise JsonTypeError(
            f"true or false, not {_shown(value)}", "arvon on oltava kyllä tai ei (true tai false), ei luku."
        )
    if isinstance(value, bool):
        if numbers and bool not in scalar and not any(isinstance(v, bool) for v in literals):
            raise _not_number(value)
        return
    if scalar == {int} and isinstance(value, float):
        raise JsonTypeError(f"a whole number, not {_shown(value)}", "arvon on oltava kokonaisluku, ei desimaaliluku.")


class Strict(BaseModel):
    """A request body: unknown fields are refused, a number must be a JSON number, ``true``/``false`` must be
    JSON booleans and text holds no control characters, in every field at every depth (:func:`check_json_types`).
    Pydantic's lax mode would take ``true`` as 1, ``1.0`` as a whole number, ``"1"`` as a number and 1 as
    ``true``."""

    model_config = ConfigDict(extra="forbid")

    @field_validator("*", mode="before")
    @classmethod
    def _json_types(cls, value: Any, info: ValidationInfo) -> Any:
        if info.field_name:
            check_json_types(cls.model_fields[info.field_name].annotation, value)
        return value


class StrokeIn(Strict):
    """A stroke in the project's JSON contract."""

    ball: CueBallName
    speed: float = Field(ge=MIN_SPEED, le=MAX_SPEED, allow_inf_nan=False, description="cue speed at impact, m/s")
    direction: float = Field(ge=-720, le=720, allow_inf_nan=False, description="degrees, 0 = +x, 90 = +y")
    elevation: float = Field(0.0, ge=0, le=MAX_ELEVATION, allow_inf_nan=False, description="degrees")
    side: float = Field(
        0.0, ge=-MAX_TIP_OFFSET, le=MAX_TIP_OFFSET, allow_inf_nan=False, description="ball radii, + is right"
    )
    follow: float = Field(
        0.0, ge=-MAX_TIP_OFFSET, le=MAX_TIP_OFFSET, allow_inf_nan=False, description="ball radii, - is draw"
    )
    place: PointIn | None = Field(None, description="where a ball in hand is put first (metres)")


class PositionIn(Strict):
    """``{"balls": {"W1": [x, y], ...}}``: a ball off the table is absent."""

    balls: dict[BallName, PointIn]


class PlayerIn(Strict):
    name: str = Field(min_length=1, max_length=60)
    kind: PlayerKind = "human"


class NewMatch(Strict):
    """Two players (a person is ``human``; a computer player is its level), the clock and the seed."""

    players: tuple[PlayerIn, PlayerIn]
    clock: Literal["off", "wall"] = Field(
        "off", description="off: a casual match (undo allowed); wall: the competition clock of rule 6"
    )
    seed: int | None = Field(None, ge=0, le=2**62, description="the computer players' seed (random if absent)")
    options: dict[str, Any] = Field(default_factory=dict, description="rule options (kaisa rule --help lists them)")


class LagIn(Strict):
    """Both lag strokes; ``null`` for a computer player's, which it plays itself."""

    strokes: tuple[StrokeIn | None, StrokeIn | None]
    lift: bool = Field(False, description="take the object balls off their spots for the lag (1.1)")


class ChooseIn(Strict):
    cue_ball: CueBallName


class PlaceIn(Strict):
    point: PointIn


class ShotIn(Strict):
    call: str | None = Field(
        None, max_length=200, description="the call in the call notation (e.g. 'K FL'), or null for no call"
    )
    stroke: StrokeIn
    seconds: float | None = Field(
        None, ge=0, le=3600, allow_inf_nan=False, description="time the stroke took, for the competition clock"
    )


class CallCheckIn(Strict):
    call: str = Field(min_length=1, max_length=200)
    shooter: CueBallName = "W1"
    match: int | None = Field(None, description="check the call in this match's state (the break, 2.1, from hand)")
    position: PositionIn | None = Field(None, description="or in this position (study), with ``state``")
    state: dict[str, Any] | None = Field(None, description="the referee's game state JSON for ``position``")
    verdict: bool = Field(
        False,
        description="answer a call that cannot be accepted with 200 and valid false (its code, fi, en) instead of "
        "422: a page checking the call as a person types it has no failed request to log",
    )


class CallCheckOut(BaseModel):
    valid: bool = True
    """False only when ``verdict`` was asked and the call cannot be accepted: then ``code``, ``fi`` and ``en``
    say why, as the 422 answer would, and ``call``, ``ball`` and ``pocket`` are empty."""
    call: str
    """The call written back in the notation's canonical form."""
    ball: str
    pocket: str
    prospects: list[dict[str, Any]] = []
    """Why the call cannot score in the given state, each with its clause and fi/en texts (empty: it can)."""
    code: str | None = None
    fi: str | None = None
    en: str | None = None


class BreakIn(Strict):
    cue_ball: CueBallName
    seconds: float = Field(gt=0, le=300, allow_inf_nan=False)


STUDY_STATE = (
    "the referee's game state JSON (default: W1 to play, 0-0): whose turn, both scores, the cue balls in hand, the "
    "break, the 2.1 flag; a state no match can be in is refused (code invalid-study-state), and a shooter in hand "
    "set on the table is placed there"
)


class StudyShotIn(Strict):
    position: PositionIn
    stroke: StrokeIn
    call: str | None = Field(None, max_length=200)
    state: dict[str, Any] | None = Field(None, description=STUDY_STATE)


class AdviseIn(Strict):
    position: PositionIn
    state: dict[str, Any] | None = Field(None, description=STUDY_STATE)
    level: SearchLevel = "club"
    limit: int = Field(5, ge=1, le=20)


class HintIn(Strict):
    """Ask the advisor for the person to move in a match: its level (stronger levels think longer)."""

    level: SearchLevel = "club"
    limit: int = Field(3, ge=1, le=10)


class PlayerOut(BaseModel):
    name: str
    kind: str
    cue_ball: str | None


def _attribute_docs(cls: type) -> dict[str, str]:
    """The docstrings written under a class's fields (the house style), by field name."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    docs = {}
    for node, after in itertools.pairwise(body):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            docs[node.target.id] = inspect.cleandoc(after.value.value)
    return docs


def model_of(cls: type, name: str, refined: dict[str, Any]) -> type[BaseModel]:
    """A response model with the fields of the dataclass ``cls``: its types (``refined`` gives some a richer
    type for the schema), defaults, and docstrings as the fields' descriptions. The fields are stated once, in the
    dataclass, and the OpenAPI schema follows it."""
    hints = typing.get_type_hints(cls)
    docs = _attribute_docs(cls)
    fields: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        default = ... if f.default is dataclasses.MISSING else f.default
        fields[f.name] = (refined.get(f.name, hints[f.name]), Field(default, description=docs.get(f.name)))
    model: type[BaseModel] = create_model(name, __doc__=cls.__doc__, __module__=__name__, **fields)
    return model


if TYPE_CHECKING:

    class MatchView(BaseModel):
        """The fields of :class:`kaisa.session.view.MatchView` (made by :func:`model_of` at run time)."""

        def __getattr__(self, name: str) -> Any: ...

else:
    MatchView = model_of(session_view.MatchView, "MatchView", {"players": list[PlayerOut]})
    """A match as the page shows it: :class:`kaisa.session.view.MatchView`'s fields, players with their cue balls."""


class MatchSummary(BaseModel):
    id: int
    players: list[PlayerOut]
    """With each player's cue ball once the lag has given them (``cue_ball``)."""
    status: str
    actions: int
    result: dict[str, Any] | None
    created_at: str
    updated_at: str
    strokes: int | None = None
    """Strokes played (the lag and placements not counted); None when not read (beyond the newest 200)."""


class Played(BaseModel):
    """An action's answer: the match after it and what happened, with paths to animate."""

    match: MatchView
    action: dict[str, Any]
    outcome: dict[str, Any]


class ActionOut(BaseModel):
    index: int
    player: int | None
    action: dict[str, Any]
    outcome: dict[str, Any]
    state_after: dict[str, Any]


class StudyShotOut(BaseModel):
    record: dict[str, Any]
    ruling: dict[str, Any]


class AdviceOut(BaseModel):
    call: str | None
    words: dict[str, str] | None = None
    """The call in words, ``{"fi": ..., "en": ...}`` (null for a safety)."""
    kind: str
    stroke: dict[str, Any]
    p_pot: float
    expected_points: float
    p_foul: float
    p_win: float
    penalties: dict[str, float]
    window: float
    position_value: float
    score: float


class AimIn(Strict):
    call: str = Field(min_length=1, max_length=200, description="the call to aim at, in the call notation")
    stroke: StrokeIn = Field(description="the stroke as set: its speed, spin, elevation and place are kept")
    deep: bool = Field(
        True,
        description="search other speeds and spins when the stroke's own pot in no direction (true), or only the "
        "stroke as set (false: the page's window drawn on the aim, asked at every change of call or power)",
    )


class PreviewIn(Strict):
    call: str | None = Field(None, max_length=200)
    stroke: StrokeIn


class StudyAimIn(AimIn):
    position: PositionIn
    state: dict[str, Any] | None = Field(None, description=STUDY_STATE)


if TYPE_CHECKING:

    class AimOut(BaseModel):
        """The fields of :class:`kaisa.session.aids.Aim` (made by :func:`model_of` at run time)."""

        def __getattr__(self, name: str) -> Any: ...

else:
    AimOut = model_of(session_aids.Aim, "AimOut", {"said": dict[str, str] | None})
    """The aim helper's answer: :class:`kaisa.session.aids.Aim`'s fields, ``said`` as ``{"fi": ..., "en": ...}``."""


class FieldError(BaseModel):
    loc: list[str]
    """Where in the request: ``body``, ``path`` or ``query``, then the field names."""
    msg: str
    type: str


class ErrorOut(BaseModel):
    """Every refusal: ``detail`` says in a sentence what was wrong and what is allowed; a request that does not
    fit the schema also lists each wrong field in ``errors``."""

    detail: str
    code: str = "invalid-input"
    """Stable, for programs: e.g. invalid-request, unknown-match, stale-state, database-unavailable, cross-origin."""
    fi: str = ""
    """The error for people, in Finnish."""
    en: str = ""
    """The error for people, in English."""
    errors: list[FieldError] = []


MAX_NUMBER_DIGITS = 18
"""The most digits of a whole number in a path or query (a match's or competition's id, an offset): any larger
would not fit the database's 64-bit integers."""


def whole_number_params(request: Request) -> None:
    """Every whole number of a request's path and query (ids, game numbers, offsets) written as digits only, a
    query's at most :data:`MAX_NUMBER_DIGITS`: ``1.0``, ``+1`` or a 19-digit offset is refused (422) before any
    router reads it. One check for every route of every router (the app's dependency), not one per endpoint."""
    route = request.scope.get("route")
    dependant = getattr(route, "dependant", None)
    if dependant is None:
        return
    errors = []
    for section, fields, given in (
        ("path", dependant.path_params, request.path_params),
        ("query", dependant.query_params, request.query_params),
    ):
        for field in fields:
            raw = given.get(field.alias)
            if raw is None or int not in _kinds(field.field_info.annotation):
                continue
            text = str(raw)
            # a path's id too long for the database is simply not stored (404); a query's number is a bound
            longest = MAX_NUMBER_DIGITS if section == "query" else len(text)
            if not (text.isascii() and text.isdigit() and len(text) <= longest):
                errors.append(
                    {
                        "type": "whole_number",
                        "loc": (section, field.alias),
                        "msg": f"Input should be a whole number written with the digits 0-9 "
                        f"(at most {MAX_NUMBER_DIGITS} of them)",
                        "input": text[:40],
                        "ctx": {"digits": MAX_NUMBER_DIGITS},
                    }
                )
    if errors:
        raise RequestValidationError(errors)
