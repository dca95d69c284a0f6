"""Every clause of the referee's catalogue has conformance tests named after it; docs/CLAUSES.md lists them.

The clauses, what they cover, their points and thresholds come from ``kaisa.referee.catalogue``; the tests
from the test names.

Regenerate the table after adding tests: ``.venv/bin/python -m tests.rules.test_clause_coverage``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from kaisa.referee.catalogue import CATALOGUE

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "docs" / "CLAUSES.md"
SUITE = ["test_rules_*.py", "test_call_notation.py", "test_match.py", "test_scorekeeping.py"]

REQUIRED = {c.id: c.about for c in CATALOGUE.values()}
"""Every clause of the catalogue (kaisa.referee.catalogue) needs conformance tests named after it."""

_NAME = re.compile(r"^test_(\d+)(?:_(\d+)(?=_))?([a-j])?_")


def clause_of(test_name: str) -> str | None:
    match = _NAME.match(test_name)
    if not match:
        return None
    section, sub, letter = match.groups()
    return section + (f".{sub}" if sub else "") + (letter or "")


def collect() -> dict[str, list[str]]:
    """clause -> ``file::test`` names, from the conformance files."""
    found: dict[str, list[str]] = {}
    for pattern in SUITE:
        for path in sorted((ROOT / "tests").rglob(pattern)):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                    clause = clause_of(node.name)
                    if clause:
                        found.setdefault(clause, []).append(f"{path.name}::{node.name}")
    return found


def _order(clause: str) -> tuple[int, int, str]:
    m = re.match(r"(\d+)(?:\.(\d+))?([a-j])?", clause)
    assert m
    return (int(m.group(1)), int(m.group(2) or 0), m.group(3) or "")


DECISIONS = (
    "**3, the kyyti finish at 55** (REFERENCE 7): a white by kyyti with a red or the kaisa at 55 or more ends the "
    "game only when the stroke's points reach the target; a kaisa straight into a middle pocket from hand (5) "
    "scores nothing and can leave it short, and play goes on "
    "(`test_3_the_kyyti_finish_at_55_ends_the_game_only_when_the_points_reach_60`).",
    "**7a with 7j, a cue ball that drops on a foul whose balls go back** (REFERENCE 5): the balls go back, but "
    "the dropped cue ball is its owner's in hand, as every pocketed cue ball is "
    "(`test_7a_a_talonmies_foul_whose_cue_ball_drops_leaves_the_cue_ball_in_hand`).",
    "**1.2 or 5, a ball-in-hand fault on the break**: 1.2 applies the ball-in-hand rules of 5 to the break, and "
    "7c says the break is not ball in hand. The fault is cited as the break's (1.2, no new ball in hand) and "
    "the rule broken as 5's (a note of clause 5), so both clauses are cited "
    "(`test_1_2_a_break_fault_cites_both_the_break_and_the_ball_in_hand_rule`).",
    "**7h and 8c without a konsti call**: a marker's entry saying the konsti ball was frozen (to a cushion, 7h, or "
    "to the called ball, 8c) for a call that names no konsti is no real stroke's and is refused "
    "(`test_7h_a_frozen_konsti_flag_without_a_konsti_call_is_refused`).",
)
"""Decisions in REFERENCE.md's terms where the rulebook does not say, each with the test that holds it."""


def render() -> str:
    found = collect()
    lines = [
        "# Rule clauses and the tests that cover them",
        "",
        "Generated from the referee's catalogue (`src/kaisa/referee/catalogue.py`) and the test names by",
        "`tests/rules/test_clause_coverage.py`: regenerate with `.venv/bin/python -m tests.rules.test_clause_coverage`.",
        "Each conformance test is named after the clause it checks, e.g. `test_7a_...` or `test_2_1_...`.",
        "Points and thresholds are the catalogue's; a threshold names the rule option (`kaisa.referee.RuleOptions`)",
        "that sets it. *Kirjuri* marks a clause whose facts only the kirjuri at a real table can enter.",
        "",
        "| clause | what | points | thresholds | tests |",
        "|---|---|---|---|---:|",
    ]
    for clause in sorted(set(found) | set(REQUIRED), key=_order):
        entry = CATALOGUE.get(clause)
        what = REQUIRED.get(clause, "")
        points = thresholds = ""
        if entry is not None:
            points = ", ".join(f"{name} {value}" for name, value in entry.points.items())
            thresholds = ", ".join(f"`{name}`" for name in entry.thresholds)
            if entry.marker_only:
                what += " *(kirjuri)*"
        lines.append(f"| {clause} | {what} | {points} | {thresholds} | {len(found.get(clause, []))} |")
    lines += ["", "## Decisions where the rulebook is silent", ""]
    lines += [f"- {decision}" for decision in DECISIONS]
    lines += ["", "## Tests by clause", ""]
    for clause in sorted(found, key=_order):
        lines.append(f"### {clause}")
        lines += [f"- `{name}`" for name in found[clause]]
        lines.append("")
    return "\n".join(lines)


def test_clause_names_parse():
    assert clause_of("test_2_1_extra_red") == "2.1"
    assert clause_of("test_2_points_rule") == "2"
    assert clause_of("test_7a_scratch") == "7a"
    assert clause_of("test_4_1_kaisa_before_red") == "4.1"
    assert clause_of("test_helper") is None


def test_every_required_clause_has_a_test_named_after_it():
    found = collect()
    missing = sorted(set(REQUIRED) - set(found), key=_order)
    assert missing == [], f"no conformance test is named after clauses {missing}"


def test_every_clause_a_test_names_is_in_the_catalogue():
    """A test named after a clause the catalogue does not know (a typo, or a clause without an entry)."""
    unknown = sorted(set(collect()) - set(CATALOGUE), key=_order)
    assert unknown == [], f"tests name clauses the catalogue does not have: {unknown}"


def test_docs_clause_table_is_current():
    assert TABLE.exists(), "docs/CLAUSES.md is missing: run .venv/bin/python -m tests.rules.test_clause_coverage"
    assert TABLE.read_text(encoding="utf-8") == render(), (
        "docs/CLAUSES.md is stale: run .venv/bin/python -m tests.rules.test_clause_coverage"
    )


if __name__ == "__main__":
    TABLE.parent.mkdir(exist_ok=True)
    TABLE.write_text(render(), encoding="utf-8")
    print(f"wrote {TABLE.relative_to(ROOT)}")
