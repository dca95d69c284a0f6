"""Every clause the referee applies has conformance tests named after it; docs/CLAUSES.md lists them.

Regenerate the table after adding tests: ``.venv/bin/python -m tests.rules.test_clause_coverage``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "docs" / "CLAUSES.md"
SUITE = ["test_rules_*.py", "test_call_notation.py", "test_match.py", "test_scorekeeping.py"]

REQUIRED = {
    "1.1": "the lag",
    "1.2": "opening: the break's restrictions (W2's placement belongs to the match)",
    "1.3": "calls: route matching, röpötys, käkä, a moving ball, the turn",
    "2": "points of a legal pot, nakki, one konsti",
    "2.1": "direct middle kaisa twice, extra balls, no nakki by kyyti or off a ball, the 'only 6' kaisa",
    "3": "end of the game and its special cases",
    "4": "respotting: whites in hand, reds and the kaisa to their spots, the kaisa's return",
    "4.1": "the kaisa is spotted before a red",
    "5": "ball in hand",
    "6": "the competition clock, final innings, breaks and the penalty shoot-out",
    "7a": "the cue ball down: penalties",
    "7b": "a ball touched by a player",
    "7c": "a fault from hand",
    "7d": "talonmies",
    "7e": "a jump over a masking ball",
    "7f": "mankeli",
    "7g": "a called ball frozen to a cushion",
    "7h": "a pot off a ball frozen to a cushion",
    "7i": "the wrong cue ball",
    "7j": "the referee restores the balls",
    "8a": "a cue ball frozen to a ball, struck towards it",
    "8c": "object balls frozen together",
    "8d": "a ball falling while others still move",
    "8e": "a ball falling later by itself",
    "8f": "a ball off the table",
    "8g": "a nakki, kara or kyyti ball off the table",
    "8h": "a jaw used as a cushion",
}

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


def render() -> str:
    found = collect()
    lines = [
        "# Rule clauses and the tests that cover them",
        "",
        "Generated from the test names by `tests/test_clause_coverage.py` (run it as a module to regenerate).",
        "Each conformance test is named after the clause it checks, e.g. `test_7a_...` or `test_2_1_...`.",
        "",
        "| clause | what | tests |",
        "|---|---|---:|",
    ]
    for clause in sorted(set(found) | set(REQUIRED), key=_order):
        lines.append(f"| {clause} | {REQUIRED.get(clause, '')} | {len(found.get(clause, []))} |")
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


def test_docs_clause_table_is_current():
    assert TABLE.exists(), "docs/CLAUSES.md is missing: run .venv/bin/python -m tests.rules.test_clause_coverage"
    assert TABLE.read_text(encoding="utf-8") == render(), (
        "docs/CLAUSES.md is stale: run .venv/bin/python -m tests.rules.test_clause_coverage"
    )


if __name__ == "__main__":
    TABLE.parent.mkdir(exist_ok=True)
    TABLE.write_text(render(), encoding="utf-8")
    print(f"wrote {TABLE.relative_to(ROOT)}")
