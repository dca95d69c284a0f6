"""The match notation: a whole match as text, header tags first, then one line per action.

Like a PGN file of chess (python-chess ``chess.pgn``), a record opens with header tags and lists the moves
after a blank line. Unlike PGN the moves are not positions to look up but strokes to play again: every shot
line holds the exact cue parameters (floats written with ``repr``, so they read back to the same bits) and
the referee's ruling in short, which :func:`replay_record` checks against a fresh simulation.

Example (the opening of a real record, the Options value cut short here)::

    [Event "Club night"]
    [Site "?"]
    [Date "2025.03.14"]
    [Round "?"]
    [Player1 "Aino"]
    [Player2 "Eero"]
    [Clock "sim"]
    [SecondsPerStroke "30.0"]
    [Options "{\\"extra_kaisa_value\\":6,\\"frozen_any_object_balls\\":false,...}"]
    [Result "*"]
    [Score "0-9"]

    1. lag W1 1.45 90.0 0.0 0.0 0.0 @0.355,0.355 W2 1.45 90.0 0.0 0.0 0.0 @1.065,0.355 ; again
    2. lag W1 1.4 90.0 0.0 0.0 0.0 @0.355,0.355 W2 1.6 90.0 0.0 0.0 0.0 @1.065,0.355 ; win 1
    3. choose W2
    4. place-w2 @0.71,2.6128
    5. W1 R2 FL | 3.0 83.07888236156501 0.0 0.0 0.0 @0.5,0.4 30.0s ; 0 void >
    6. break W2 120.0s
    7. W2 R1 HL | 1.8 266.9 0.0 0.0 0.0 30.0s ; +3 legal
    8. W2 K ML | 1.8 202.6 0.0 0.0 0.0 30.0s ; +12 legal
    9. W2 - | 1.2 10.0 5.0 0.1 -0.2 30.0s ; 0 void >
    10. W1 K rf FL | 2.0 300.0 0.0 0.30000000000000004 -0.25 12.345s ; 0 void >
    11. W2 K FL | 2.0 155.0 0.0 0.0 0.0 30.0s ; -6 void !7a >

Player 1 (Aino) won the second lag and took W2, so Eero broke with W1 from hand at (0.5, 0.4), calling red 2
into FL, and missed; Aino took her clock break, potted red 1 (3) and the kaisa directly into a middle pocket
(12), then missed; Eero's banked kaisa failed; Aino's W2 dropped off the kaisa (7a: -6) and the turn passed.
A finished record ends its header with ``[Result "W1 60-37"]``, ``[Termination "60 points (3)"]`` and
``[Score "63-37"]``, and its last shot line with ``#``.

Grammar (``SP`` is one or more spaces; the writer puts keywords in lower case and balls and pockets in upper
case, the reader takes either outside the ``;`` comment)::

    record   := tag-line* blank-line action-line*
    tag-line := "[" NAME SP '"' VALUE '"' "]"            VALUE escapes '"' and '\\' with a backslash
    action   := N "." SP body [SP ";" SP short]         N counts the actions from 1, without gaps
    body     := "lag" SP stroke SP stroke [SP "lift"]   player 1's W1 stroke, then player 2's W2 stroke
              | "choose" SP BALL                        the lag winner's cue ball (1.1)
              | "place-w2" SP place                     W2 placed before the break (1.2)
              | "break" SP BALL SP SECONDS "s"          a clock break (6) taken by BALL's player
              | BALL SP CALL SP "|" SP numbers [SP place] [SP SECONDS "s"]     a shot
    stroke   := BALL SP numbers [SP place]
    numbers  := intended [SP "~" SP executed]           the stroke intended and, when chance changed it, the
                                                        stroke the match executed (kaisa.game.chance)
    intended, executed := SPEED SP DIRECTION SP ELEVATION SP SIDE SP FOLLOW   as in Stroke (m/s, degrees, tip offsets)
    place    := "@" X "," Y                             metres; the cue ball in hand, or W2's spot
    CALL     := a call in the call notation of kaisa.call ("K FL", "kyyti R1 K rf FL", ...) or "-" for none
    short    := POINTS SP ("legal" | "void") (SP "!" CLAUSE)* [SP ">"] [SP "#"]     after a shot
              | "win" SP ("1" | "2") | "again"                                      after a lag

Numbers are decimal floats (``2.5``, ``-0.4``, ``1e-05``); the writer uses ``repr`` so every value reads
back exactly. A shot's seconds (the clock time it took) are left out when zero. In the short ruling
``POINTS`` is the net change of the shooter's score (``+3``, ``0``, ``-6``), ``legal`` means a legal pot and
``void`` anything else (a miss, no call, a voided pot or a foul), each ``!CLAUSE`` is one foul in the order the
referee gave them (``!7a``, ``!5 !7c``), ``>`` means the turn passes and ``#`` that the game is over. After a lag,
``win 1`` or ``win 2`` names the player who won it and ``again`` a lag to be played again. Choose, place-w2
and break lines carry no comment. Lines that are empty or start with ``;`` are ignored.

Tags (any order, each at most once, all optional; unknown tags are errors):

- ``Event``, ``Site``, ``Date`` (``YYYY.MM.DD``, ``?`` for unknown parts), ``Round``, ``Seed``: free text;
  ``Seed`` is the computer players' seed when they played.
- ``Chance``: ``SEED NOISE1 NOISE2``, the seed of the match's chance step and the execution noise of player 1's
  and player 2's seats (written when any is not 0), so a replay draws the same noise.
- ``Player1``, ``Player2``: the players' names (``MatchConfig.players``), player 1 lagging with W1 from the left.
- ``Clock`` (``off``, ``sim`` or ``wall``) and ``SecondsPerStroke``: the competition clock (``ClockConfig``).
- ``Options``: the rule options (``RuleOptions.to_json``) as compact JSON; defaults when absent.
- ``Table``: the table spec's fields that differ from the official table, as compact JSON (written only
  for a non-official table).
- ``Result``: ``W1 60-37`` = the winner's cue ball, then the scoresheet scores of W1 and W2 in that order (a
  winner at the winning score or more written as it, rule 3: 60, or the Options' ``winning_score``); ``*`` for a
  match not finished.
- ``Termination``: how the match ended (``Result.reason``), for a finished match.
- ``Score``: the true scores of W1 and W2 at the end of the record, ``63-37`` (``60--4`` for a negative one).

:func:`write_match` writes a :class:`~kaisa.game.Match`; :func:`read_match` reads a record without playing
it; :func:`replay_record` plays it again and checks every short ruling, the result and the score. Every error
is a :class:`NotationError` that names the line; a ruling that does not replay is a
:class:`ReplayMismatchError`.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from kaisa.call import CallError, format_call, parse_call
from kaisa.errors import ErrorText, KaisaError
from kaisa.game import (
    Action,
    Choose,
    ClockConfig,
    Forfeit,
    Lag,
    MarkedLag,
    MarkedShot,
    Match,
    MatchConfig,
    Outcome,
    PlaceW2,
    Shot,
    TakeBreak,
)
from kaisa.model import BallId, Stroke
from kaisa.referee import MarkerEntry, RuleOptions, Ruling
from kaisa.table import OFFICIAL, TABLE_RANGES, BallSize, Point, TableSpec

TAGS: tuple[str, ...] = (
    "Event",
    "Site",
    "Date",
    "Round",
    "Player1",
    "Player2",
    "Seed",
    "Chance",
    "Clock",
    "SecondsPerStroke",
    "Options",
    "Table",
    "Result",
    "Termination",
    "Score",
)
"""The known header tags, in the order :func:`write_match` writes them."""

FREE_TAGS: tuple[str, ...] = ("Event", "Site", "Date", "Round", "Seed")
"""Tags the caller of :func:`write_match` supplies; the others are written from the match."""

UNFINISHED = "*"


class NotationError(KaisaError):
    """A record that cannot be read or played; ``line`` is its 1-based line number when there is one."""

    code = "bad-record"
    kind = ErrorText("Ottelupöytäkirja on virheellinen.", "The match record is not valid.")

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        self.reason = message
        super().__init__(f"line {line}: {message}" if line is not None else message)


class ReplayError(NotationError):
    """An action of the record that the match refuses when played again (wrong phase, illegal placement)."""

    code = "replay-refused"
    kind = ErrorText(
        "Ottelupöytäkirjan toimintoa ei voi pelata uudelleen.", "An action of the record cannot be played again."
    )


class ReplayMismatchError(NotationError):
    """The record says one thing and the replay another: a short ruling, the result or the score."""

    code = "replay-mismatch"
    kind = ErrorText("Uudelleenpeluu ei vastaa ottelupöytäkirjaa.", "The replay does not match the record.")


# --- short rulings ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ShortRuling:
    """A shot's ruling in short: net points, legal pot or not, foul clauses, turn passing, game over."""

    points: int
    legal: bool
    fouls: tuple[str, ...] = ()
    turn_passes: bool = False
    game_over: bool = False

    @classmethod
    def of(cls, ruling: Ruling) -> ShortRuling:
        return cls(
            points=ruling.points,
            legal=ruling.legal_pot,
            fouls=tuple(f.clause for f in ruling.fouls),
            turn_passes=ruling.turn_passes,
            game_over=ruling.game_over,
        )

    def __str__(self) -> str:
        words = [f"{self.points:+d}" if self.points else "0", "legal" if self.legal else "void"]
        words += [f"!{clause}" for clause in self.fouls]
        if self.turn_passes:
            words.append(">")
        if self.game_over:
            words.append("#")
        return " ".join(words)


@dataclass(frozen=True)
class ShortLag:
    """A lag's outcome in short: the winning player's index (0 or 1), or ``None`` to lag again."""

    winner: int | None

    def __str__(self) -> str:
        return "again" if self.winner is None else f"win {self.winner + 1}"


Short = ShortRuling | ShortLag


def short_of(outcome: Outcome) -> Short | None:
    """The short form of what an action produced (``None`` for choose, place-w2 and break)."""
    if outcome.ruling is not None:
        return ShortRuling.of(outcome.ruling)
    if outcome.lag is not None:
        return ShortLag(outcome.lag.winner)
    return None


_POINTS = re.compile(r"^[-+]?[0-9]+$")
_CLAUSE = re.compile(r"^[0-9]+(\.[0-9]+)?[a-z]?$")


def _parse_short_ruling(text: str, line: int) -> ShortRuling:
    words = text.split()
    if len(words) < 2 or not _POINTS.match(words[0]) or words[1] not in ("legal", "void"):
        raise NotationError(
            f"bad ruling comment {text!r}: expected points and legal/void, e.g. '; +3 legal' or '; -3 void !7a >'",
            line,
        )
    fouls: list[str] = []
    flags: list[str] = []
    for word in words[2:]:
        if word.startswith("!") and not flags:
            if not _CLAUSE.match(word[1:]):
                raise NotationError(f"bad foul {word!r} in the ruling comment: write a clause like !7a", line)
            fouls.append(word[1:])
        elif word in (">", "#") and word not in flags and (word == "#" or "#" not in flags):
            flags.append(word)
        else:
            raise NotationError(
                f"unexpected {word!r} in the ruling comment: after points and legal/void come fouls (!7a), "
                "then '>' if the turn passes, then '#' if the game is over",
                line,
            )
    return ShortRuling(int(words[0]), words[1] == "legal", tuple(fouls), ">" in flags, "#" in flags)


def _parse_short_lag(text: str, line: int) -> ShortLag:
    words = text.split()
    if words == ["again"]:
        return ShortLag(None)
    if len(words) == 2 and words[0] == "win" and words[1] in ("1", "2"):
        return ShortLag(int(words[1]) - 1)
    raise NotationError(f"bad lag comment {text!r}: expected 'win 1', 'win 2' or 'again'", line)


# --- numbers ---------------------------------------------------------------------------------------------

_FLOAT = re.compile(r"^[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$")


def _num(value: float) -> str:
    value = float(value)
    if not math.isfinite(value):
        raise NotationError(f"cannot write the non-finite number {value}")
    return repr(value)


def _parse_float(text: str, what: str, line: int) -> float:
    if not _FLOAT.match(text):
        raise NotationError(f"{text!r} is not a number for {what}: write a decimal like 2.5, -0.4 or 1e-05", line)
    value = float(text)
    if not math.isfinite(value):
        raise NotationError(f"{text!r} for {what} is too large: numbers must be finite", line)
    return value


def _place(point: Point) -> str:
    return f"@{_num(point[0])},{_num(point[1])}"


def _parse_place(text: str, what: str, line: int) -> Point:
    x_text, comma, y_text = text[1:].partition(",")
    if not text.startswith("@") or not comma:
        raise NotationError(f"bad place {text!r} for {what}: write @x,y in metres, e.g. @0.71,0.3", line)
    return (_parse_float(x_text, f"{what} x", line), _parse_float(y_text, f"{what} y", line))


def _parse_ball(text: str, line: int, cue_only: bool = True) -> BallId:
    upper = text.upper()
    allowed = ("W1", "W2") if cue_only else tuple(b.value for b in BallId)
    if upper not in allowed:
        raise NotationError(f"{text!r} is not a cue ball: expected {' or '.join(allowed)}", line)
    return BallId(upper)


_STROKE_NUMBERS = ("speed", "direction", "elevation", "side", "follow")


def _stroke_numbers(stroke: Stroke, executed: Stroke | None = None) -> str:
    """The stroke's numbers, and ``~`` with the executed stroke's when chance changed them."""
    numbers = " ".join(_num(getattr(stroke, name)) for name in _STROKE_NUMBERS)
    if executed is not None and executed != stroke:
        numbers += " ~ " + " ".join(_num(getattr(executed, name)) for name in _STROKE_NUMBERS)
    return numbers


def _parse_strokes(ball: BallId, words: list[str], place: str | None, line: int) -> tuple[Stroke, Stroke | None]:
    """An intended stroke and, after ``~``, the executed one (None when it was played as intended)."""
    if "~" not in words:
        return _parse_stroke(ball, words, place, line), None
    cut = words.index("~")
    return _parse_stroke(ball, words[:cut], place, line), _parse_stroke(ball, words[cut + 1 :], place, line)


def _parse_stroke(ball: BallId, words: list[str], place: str | None, line: int) -> Stroke:
    if len(words) != len(_STROKE_NUMBERS):
        raise NotationError(
            f"a stroke has {len(_STROKE_NUMBERS)} numbers ({' '.join(_STROKE_NUMBERS)}), got {len(words)}: "
            f"{' '.join(words) or 'none'}",
            line,
        )
    values = [_parse_float(w, name, line) for w, name in zip(words, _STROKE_NUMBERS, strict=True)]
    point = None if place is None else _parse_place(place, "the cue ball", line)
    try:
        speed, direction, elevation, side, follow = values
        return Stroke(ball, speed, direction, elevation, side, follow, place=point)
    except KaisaError as exc:
        raise NotationError(f"impossible stroke: {exc}", line) from exc


# --- writing ---------------------------------------------------------------------------------------------


def _escape(value: str) -> str:
    if "\n" in value or "\r" in value:
        raise NotationError(f"a tag value must be one line, got {value!r}")
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _scores(w1: int, w2: int) -> str:
    return f"{w1}-{w2}"


def _table_json(spec: TableSpec) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in fields(spec):
        value = getattr(spec, f.name)
        if value != getattr(OFFICIAL, f.name):
            out[f.name] = value.value if isinstance(value, BallSize) else value
    return out


def format_action(number: int, action: Action, short: Short | None = None) -> str:
    """One action line: ``number`` (from 1), the action, and its short ruling as a ``;`` comment."""
    if isinstance(action, Lag):
        parts = ["lag"]
        executed = action.executed or (None, None)
        for stroke, done in zip(action.strokes, executed, strict=True):
            parts += [stroke.ball.value, _stroke_numbers(stroke, done)]
            if stroke.place is not None:
                parts.append(_place(stroke.place))
        if action.lift:
            parts.append("lift")
        body = " ".join(parts)
    elif isinstance(action, Choose):
        body = f"choose {action.cue_ball.value}"
    elif isinstance(action, PlaceW2):
        body = f"place-w2 {_place(action.point)}"
    elif isinstance(action, TakeBreak):
        body = f"break {action.cue_ball.value} {_num(action.seconds)}s"
    elif isinstance(action, MarkedLag):
        body = f"lag-won {action.winner + 1}"
    elif isinstance(action, Forfeit):
        body = f"forfeit {action.cue_ball.value} {action.clause}"
    elif isinstance(action, MarkedShot):
        call = "-" if action.call is None else format_call(action.call)
        # ';' starts a comment and '|' marks a shot line: inside JSON they can only be in strings, so escape them
        full = action.entry.to_json()
        # only what differs from a plain stroke: from_json fills in the defaults
        kept = {
            k: v
            for k, v in full.items()
            if k in ("cue_ball", "start", "final") or not (v is False or v is None or v == [])
        }
        if full["called_as_called"] is False:
            kept["called_as_called"] = False
        elif "called_as_called" in kept:
            del kept["called_as_called"]
        entry = json.dumps(kept, separators=(",", ":"), ensure_ascii=False)
        entry = entry.replace(";", "\\u003b").replace("|", "\\u007c")
        body = f"marked {call} {entry}"
        if action.seconds != 0.0:
            body += f" {_num(action.seconds)}s"
    else:
        stroke = action.stroke
        call = "-" if action.call is None else format_call(action.call)
        parts = [stroke.ball.value, call, "|", _stroke_numbers(stroke, action.executed)]
        if stroke.place is not None:
            parts.append(_place(stroke.place))
        if action.seconds != 0.0:
            parts.append(f"{_num(action.seconds)}s")
        body = " ".join(parts)
    line = f"{number}. {body}"
    return f"{line} ; {short}" if short is not None else line


def write_match(match: Match, tags: Mapping[str, str] | None = None) -> str:
    """The record of ``match``: its header tags and every action on its stack with its short ruling.

    ``tags`` may give ``Event``, ``Site``, ``Date``, ``Round`` and ``Seed``; the other tags come from the
    match. The stack must start at the lag (a match made with ``Match(config)``).
    """
    given = dict(tags or {})
    for name in given:
        if name not in FREE_TAGS:
            known = name in TAGS
            raise NotationError(
                f"tag {name!r} is written from the match, not given"
                if known
                else f"unknown tag {name!r}: the tags given to write_match are {', '.join(FREE_TAGS)}"
            )
    config, state = match.config, match.state
    header: dict[str, str] = {
        "Event": given.get("Event", "?"),
        "Site": given.get("Site", "?"),
        "Date": given.get("Date", "????.??.??"),
        "Round": given.get("Round", "?"),
        "Player1": config.players[0],
        "Player2": config.players[1],
    }
    if "Seed" in given:
        header["Seed"] = given["Seed"]
    if config.seed != 0 or config.noise != (0.0, 0.0):
        header["Chance"] = f"{config.seed} {_num(config.noise[0])} {_num(config.noise[1])}"
    header["Clock"] = config.clock.mode
    header["SecondsPerStroke"] = _num(config.clock.seconds_per_stroke)
    header["Options"] = json.dumps(config.options.to_json(), separators=(",", ":"))
    if config.spec != OFFICIAL:
        header["Table"] = json.dumps(_table_json(config.spec), separators=(",", ":"))
    result = state.result
    scores = state.game.scores
    if result is None:
        header["Result"] = UNFINISHED
    else:
        recorded = result.recorded
        header["Result"] = f"{result.winner.value} {_scores(recorded[BallId.W1], recorded[BallId.W2])}"
        header["Termination"] = result.reason
    header["Score"] = _scores(scores[BallId.W1], scores[BallId.W2])
    lines = [f'[{name} "{_escape(value)}"]' for name, value in header.items()]
    lines.append("")
    for number, entry in enumerate(match.stack, start=1):
        lines.append(format_action(number, entry.action, short_of(entry.outcome)))
    return "\n".join(lines) + "\n"


# --- reading ---------------------------------------------------------------------------------------------

_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]$')
_NUMBER = re.compile(r"^([0-9]+)\.$")
_RESULT = re.compile(r"^(W1|W2) (-?[0-9]+)-(-?[0-9]+)$")
_SCORE = re.compile(r"^(-?[0-9]+)-(-?[0-9]+)$")


@dataclass(frozen=True)
class Record:
    """A record read but not played: the config, the actions with their short rulings and line numbers."""

    config: MatchConfig
    actions: tuple[Action, ...]
    tags: Mapping[str, str]
    rulings: tuple[Short | None, ...]
    lines: tuple[int, ...]
    """The line number of each action."""
    tag_lines: Mapping[str, int]


def _score_pair(text: str) -> tuple[int, int]:
    """The W1 and W2 scores of a Score tag already checked against ``_SCORE``."""
    match = _SCORE.match(text)
    assert match is not None
    return int(match.group(1)), int(match.group(2))


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


TABLE_TAG_RANGES = TABLE_RANGES
"""The ranges a record's Table tag may set: the table's own (:data:`kaisa.table.TABLE_RANGES`)."""
MAX_TAG_LENGTH = 4000
"""A Table or Options tag is a small JSON object; longer is not a record."""


def _tag_json(text: str) -> Any:
    """A tag's JSON value, refusing what is not a small, flat document (deep nesting, huge numbers)."""
    if len(text) > MAX_TAG_LENGTH:
        raise ValueError(f"the tag is {len(text)} characters long; at most {MAX_TAG_LENGTH}")
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("the tag's JSON is nested too deeply") from None


def _table_spec(data: object) -> TableSpec:
    """The table a record's Table tag describes: known options only, each a number in its range (the table
    checks them itself)."""
    return TableSpec.from_json(data)


def _parse_tags(tags: Mapping[str, str], tag_lines: Mapping[str, int]) -> MatchConfig:
    def at(name: str) -> int:
        return tag_lines[name]

    players = (tags.get("Player1", "player 1"), tags.get("Player2", "player 2"))
    mode = tags.get("Clock", "off")
    if mode not in ("off", "sim", "wall"):
        raise NotationError(f"Clock must be off, sim or wall, not {mode!r}", at("Clock"))
    seconds = 30.0
    if "SecondsPerStroke" in tags:
        seconds = _parse_float(tags["SecondsPerStroke"], "SecondsPerStroke", at("SecondsPerStroke"))
        if seconds < 0:
            raise NotationError(f"SecondsPerStroke must not be negative, got {seconds}", at("SecondsPerStroke"))
    options = RuleOptions()
    if "Options" in tags:
        try:
            options = RuleOptions.from_json(_tag_json(tags["Options"]))
        except ValueError as exc:  # FormatError and JSONDecodeError among them
            raise NotationError(f"bad Options: {exc}", at("Options")) from None
    spec = OFFICIAL
    if "Table" in tags:
        try:
            spec = _table_spec(_tag_json(tags["Table"]))
        except (TypeError, ValueError) as exc:
            known = ", ".join(f.name for f in fields(TableSpec))
            raise NotationError(f"bad Table: {exc} (the fields are {known})", at("Table")) from None
    if "Result" in tags and tags["Result"] != UNFINISHED and not _RESULT.match(tags["Result"]):
        raise NotationError(
            f"bad Result {tags['Result']!r}: write the winner and the W1-W2 scores, e.g. 'W1 60-37', or '*'",
            at("Result"),
        )
    if "Score" in tags and not _SCORE.match(tags["Score"]):
        raise NotationError(f"bad Score {tags['Score']!r}: write the W1-W2 scores, e.g. '63-37'", at("Score"))
    seed, noise = 0, (0.0, 0.0)
    if "Chance" in tags:
        words = tags["Chance"].split()
        try:
            seed, noise = int(words[0]), (float(words[1]), float(words[2]))
            if len(words) != 3:
                raise ValueError(len(words))
            MatchConfig(noise=noise, seed=seed)
        except (ValueError, IndexError):
            raise NotationError(
                f"bad Chance {tags['Chance']!r}: write the seed and the two seats' noise, e.g. '7 1.0 2.0' "
                "(a 64-bit seed, noise from 0 to 100)",
                at("Chance"),
            ) from None
    return MatchConfig(
        players=players, clock=ClockConfig(mode, seconds), options=options, spec=spec, noise=noise, seed=seed
    )


def _parse_marked(args: str, line: int) -> MarkedShot:
    head, brace, tail = args.partition("{")
    end = tail.rfind("}")
    if not brace or end < 0:
        raise NotationError("a marked line is 'marked CALL {entry JSON} [seconds s]', with '-' for no call", line)
    call_text = head.strip()
    if not call_text:
        raise NotationError("a marked stroke names its call, or '-' for none, before its entry", line)
    call = None
    if call_text != "-":
        try:
            call = parse_call(call_text)
        except CallError as exc:
            raise NotationError(f"bad call {call_text!r}: {exc}", line) from exc
    try:
        entry = MarkerEntry.from_json(json.loads("{" + tail[: end + 1]))
    except (json.JSONDecodeError, KaisaError) as exc:
        raise NotationError(f"bad marker entry: {exc}", line) from exc
    rest = tail[end + 1 :].split()
    seconds = 0.0
    if rest:
        if len(rest) != 1 or not rest[0].endswith("s"):
            raise NotationError("after a marked stroke's entry only its seconds may follow, e.g. '12.5s'", line)
        seconds = _parse_float(rest[0][:-1], "seconds", line)
    return MarkedShot(call, entry, seconds)


def _parse_action(body: str, line: int) -> Action:
    if body.split(maxsplit=1)[:1] == ["marked"]:
        return _parse_marked(body.split(maxsplit=1)[1] if len(body.split(maxsplit=1)) > 1 else "", line)
    if "|" in body:
        left, _, right = body.partition("|")
        words = left.split()
        if not words:
            raise NotationError("a shot line starts with the cue ball: 'W1 K FL | 2.5 90.0 0.0 0.0 0.0'", line)
        ball = _parse_ball(words[0], line)
        call_words = words[1:]
        if not call_words:
            raise NotationError("a shot names its call, or '-' for none, between the cue ball and '|'", line)
        call = None
        if call_words != ["-"]:
            try:
                call = parse_call(" ".join(call_words))
            except CallError as exc:
                raise NotationError(f"bad call {' '.join(call_words)!r}: {exc}", line) from exc
        rest = right.split()
        seconds = 0.0
        if rest and rest[-1].endswith("s"):
            seconds = _parse_float(rest.pop()[:-1], "seconds", line)
        place = rest.pop() if rest and rest[-1].startswith("@") else None
        intended, executed = _parse_strokes(ball, rest, place, line)
        return Shot(call, intended, seconds, executed)
    words = body.split()
    if not words:
        raise NotationError("an action line needs an action after its number", line)
    keyword, args = words[0].lower(), words[1:]
    if keyword == "lag":
        strokes: list[Stroke] = []
        done: list[Stroke | None] = []
        lift = bool(args) and args[-1].lower() == "lift"
        if lift:
            args = args[:-1]
        starts = [i for i, w in enumerate(args) if w.upper() in ("W1", "W2")]
        if len(starts) != 2 or starts[0] != 0:
            raise NotationError(
                "a lag line has two strokes, each 'BALL speed direction elevation side follow @x,y', "
                "then 'lift' if the object balls are lifted",
                line,
            )
        for begin, end in ((starts[0], starts[1]), (starts[1], len(args))):
            group = args[begin + 1 : end]
            place = group.pop() if group and group[-1].startswith("@") else None
            intended, executed = _parse_strokes(_parse_ball(args[begin], line), group, place, line)
            strokes.append(intended)
            done.append(executed)
        both = None
        if done[0] is not None or done[1] is not None:
            both = (done[0] or strokes[0], done[1] or strokes[1])
        return Lag((strokes[0], strokes[1]), lift, both)
    if keyword == "choose":
        if len(args) != 1:
            raise NotationError("a choose line names one cue ball: 'choose W1'", line)
        return Choose(_parse_ball(args[0], line))
    if keyword == "place-w2":
        if len(args) != 1:
            raise NotationError("a place-w2 line gives one place: 'place-w2 @0.71,2.6'", line)
        return PlaceW2(_parse_place(args[0], "W2", line))
    if keyword == "break":
        if len(args) != 2 or not args[1].endswith("s"):
            raise NotationError("a break line names the cue ball and the seconds: 'break W2 300.0s'", line)
        return TakeBreak(_parse_ball(args[0], line), _parse_float(args[1][:-1], "break seconds", line))
    if keyword == "lag-won":
        if args not in (["1"], ["2"]):
            raise NotationError("a lag-won line names the winning player, 1 or 2: 'lag-won 1'", line)
        return MarkedLag(int(args[0]) - 1)
    if keyword == "forfeit":
        if len(args) != 2:
            raise NotationError("a forfeit line names the losing cue ball and the clause: 'forfeit W2 1.4'", line)
        return Forfeit(_parse_ball(args[0], line), args[1])
    raise NotationError(
        f"unknown action {words[0]!r}: expected lag, lag-won, choose, place-w2, break, forfeit, marked or a shot "
        "'W1 CALL | numbers'",
        line,
    )


def parse_record(text: str) -> Record:
    """Read a record without playing it; every error names its line."""
    tags: dict[str, str] = {}
    tag_lines: dict[str, int] = {}
    actions: list[Action] = []
    rulings: list[Short | None] = []
    lines: list[int] = []
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if line.startswith("["):
            if actions:
                raise NotationError("header tags come before the actions", number)
            match = _TAG.match(line)
            if match is None:
                raise NotationError('a tag line is [Name "value"], with \\" for a quote in the value', number)
            name, value = match.group(1), _unescape(match.group(2))
            if name not in TAGS:
                raise NotationError(f"unknown tag {name!r}: the tags are {', '.join(TAGS)}", number)
            if name in tags:
                raise NotationError(f"tag {name} given twice (first on line {tag_lines[name]})", number)
            tags[name], tag_lines[name] = value, number
            continue
        head, _, tail = line.partition(" ")
        numbered = _NUMBER.match(head)
        if numbered is None:
            raise NotationError(
                f"an action line starts with its number and a dot ('{len(actions) + 1}.'), not {head!r}", number
            )
        if int(numbered.group(1)) != len(actions) + 1:
            raise NotationError(f"action number {numbered.group(1)} out of order: expected {len(actions) + 1}", number)
        body, semicolon, comment = tail.partition(";")
        comment = comment.strip()
        action = _parse_action(body, number)
        short: Short | None = None
        if semicolon:
            if isinstance(action, Shot | MarkedShot):
                short = _parse_short_ruling(comment, number)
            elif isinstance(action, Lag):
                short = _parse_short_lag(comment, number)
            else:
                raise NotationError("only lag and shot lines carry a ruling comment after ';'", number)
        actions.append(action)
        rulings.append(short)
        lines.append(number)
    config = _parse_tags(tags, tag_lines)
    return Record(config, tuple(actions), tags, tuple(rulings), tuple(lines), tag_lines)


def read_match(text: str) -> tuple[MatchConfig, list[Action], dict[str, str], list[Short | None]]:
    """Read a record: the match config, the actions, the header tags as written, and each action's short
    ruling as recorded (``None`` where the line has none: choose, place-w2, break, or no comment)."""
    record = parse_record(text)
    return record.config, list(record.actions), dict(record.tags), list(record.rulings)


def _locate_refusal(record: Record) -> tuple[int, KaisaError]:
    """Which action the match refuses, played one by one (only after ``replay`` failed)."""
    match = Match(record.config)
    for index, action in enumerate(record.actions):
        try:
            match.push(action)
        except KaisaError as exc:
            return index, exc
    raise AssertionError("replay failed, but every action plays one by one")  # pragma: no cover


def replay_record(text: str, on_action: Callable[[], None] | None = None) -> Match:
    """Read a record, play every action again (:func:`kaisa.game.replay`, re-simulating every stroke) and
    check that each recorded short ruling, the Result, Termination and Score tags equal the replay's.

    Raises :class:`NotationError` (a malformed record), :class:`ReplayError` (an action the match refuses)
    or :class:`ReplayMismatchError` (a ruling or the result differs), each naming the line.
    """
    record = parse_record(text)
    try:
        match = Match(record.config)
        for action in record.actions:
            match.push(action)
            if on_action is not None:
                on_action()
    except KaisaError:
        index, exc = _locate_refusal(record)
        raise ReplayError(f"action {index + 1} cannot be played: {exc}", record.lines[index]) from exc
    for index, (entry, recorded) in enumerate(zip(match.stack, record.rulings, strict=True)):
        actual = short_of(entry.outcome)
        if recorded is not None and recorded != actual:
            raise ReplayMismatchError(
                f"action {index + 1}: the record says '{recorded}' but the replay rules '{actual}'",
                record.lines[index],
            )
    state = match.state
    tags = record.tags
    if "Result" in tags:
        result = state.result
        replayed = (
            UNFINISHED
            if result is None
            else f"{result.winner.value} {_scores(result.recorded[BallId.W1], result.recorded[BallId.W2])}"
        )
        if tags["Result"] != replayed:
            raise ReplayMismatchError(
                f"the record's Result is {tags['Result']!r} but the replay gives {replayed!r}",
                record.tag_lines["Result"],
            )
    if "Termination" in tags:
        reason = None if state.result is None else state.result.reason
        if tags["Termination"] != reason:
            raise ReplayMismatchError(
                f"the record's Termination is {tags['Termination']!r} but the replay gives {reason!r}",
                record.tag_lines["Termination"],
            )
    if "Score" in tags:
        actual_scores = (state.game.scores[BallId.W1], state.game.scores[BallId.W2])
        if _scores(*actual_scores) != _scores(*_score_pair(tags["Score"])):
            raise ReplayMismatchError(
                f"the record's Score is {tags['Score']!r} but the replay gives {_scores(*actual_scores)!r}",
                record.tag_lines["Score"],
            )
    return match


__all__ = [
    "TAGS",
    "NotationError",
    "Record",
    "ReplayError",
    "ReplayMismatchError",
    "Short",
    "ShortLag",
    "ShortRuling",
    "format_action",
    "parse_record",
    "read_match",
    "replay_record",
    "short_of",
    "write_match",
]
