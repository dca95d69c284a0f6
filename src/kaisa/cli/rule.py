"""``kaisa rule``: the referee's ruling on one stroke."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from kaisa.cli.common import Lang, check_lang, ensure_physics_ready, fail, read_json
from kaisa.cli.render import print_ruling
from kaisa.errors import KaisaError
from kaisa.model import Position, Stroke


def rule_command(
    position: Annotated[Path, typer.Option("--position", help="Starting position JSON.")],
    call: Annotated[str, typer.Option("--call", help="The call, e.g. 'K FL' or 'kyyti R1 K FR' (see README).")],
    stroke: Annotated[Path | None, typer.Option("--stroke", help="Stroke JSON: simulate it, then rule it.")] = None,
    events: Annotated[
        Path | None, typer.Option("--events", help="Event log JSON (a list, or simulate's output): rule it as given.")
    ] = None,
    state: Annotated[Path | None, typer.Option("--state", help="Game state JSON (scores, shooter, flags).")] = None,
    options: Annotated[
        Path | None, typer.Option("--options", help="Rule options JSON (see kaisa.referee.RuleOptions).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the ruling as JSON (the stable contract).")] = False,
    lang: Lang = "en",
) -> None:
    """Rule one stroke by the 2014 rulebook: simulate --stroke, or take --events as they happened."""
    from kaisa.call import parse_call
    from kaisa.session import GameState, RuleOptions
    from kaisa.session.study import check_study_state, rule_stroke

    check_lang(lang)
    if (stroke is None) == (events is None):
        fail("give exactly one of --stroke (simulate the stroke) or --events (rule a recorded event log)")
    try:
        start = Position.from_json(read_json(position, "position"))
        the_call = None if call.strip().lower() in ("", "none", "-") else parse_call(call)
        game = GameState.from_json(read_json(state, "state")) if state else GameState()
        rules = RuleOptions.from_json(read_json(options, "options")) if options else RuleOptions()
        check_study_state(start, game, rules)  # a state no match is in (a score past the target) is refused
        if stroke is not None:
            stk = Stroke.from_json(read_json(stroke, "stroke"))
            ensure_physics_ready(quiet=as_json)
            ruling = rule_stroke(start, the_call, game, rules, stroke=stk)
        else:
            assert events is not None
            ruling = rule_stroke(start, the_call, game, rules, log_json=read_json(events, "events"))
    except KaisaError as exc:
        fail(exc)
    if as_json:
        sys.stdout.write(json.dumps(ruling.to_json(), indent=2, ensure_ascii=False) + "\n")
        return
    print_ruling(ruling, lang)
