"""The layer contracts of pyproject.toml ([tool.importlinter]) hold: the shape of the house in DESIGN.md."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# lint-imports' own entry point, run in a child process: in-process it would reconfigure logging
# (logging.config.dictConfig) and prepend to sys.path for the rest of the test session.
# (``python -m importlinter.cli`` would not do: the module has no __main__ block and exits 0 unchecked.)
LINT_IMPORTS = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"


def test_the_import_contracts_are_kept() -> None:
    result = subprocess.run(
        [sys.executable, "-c", LINT_IMPORTS, "--no-cache", "--no-logo", str(ROOT / "pyproject.toml")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    report = result.stdout + result.stderr
    assert result.returncode == 0, report
    assert "0 broken" in report, report


def test_every_command_line_module_is_under_400_lines() -> None:
    """Issue 30: a command's module is read by whoever changes the command; past 400 lines it holds more than one
    job (split it by what the commands do, as kaavio and kaavio_papers are)."""
    cli = Path(__file__).resolve().parents[1] / "src" / "kaisa" / "cli"
    long = {
        p.name: n for p in sorted(cli.glob("*.py")) if (n := len(p.read_text(encoding="utf-8").splitlines())) >= 400
    }
    assert long == {}


def test_the_session_and_the_store_modules_are_under_500_lines() -> None:
    """Issue 30: the match session and the match store are split by what they hold (the session's registry, match,
    view, study and aids; the store's writes, entry keys, reads and projections), so that a newcomer finds a thing
    by its module's name; a module past 500 lines holds more than one of them again."""
    src = Path(__file__).resolve().parents[1] / "src" / "kaisa"
    modules = sorted((src / "session").glob("*.py")) + sorted((src / "records" / "storage").glob("*.py"))
    long = {
        str(p.relative_to(src)): n for p in modules if (n := len(p.read_text(encoding="utf-8").splitlines())) >= 500
    }
    assert long == {}


def test_every_page_script_is_under_1000_lines_in_its_screens_folder() -> None:
    """Issue 30: the page scripts live by screen (``static/table``, ``club``, ``kaavio``) beside what they share
    (``static/shared``), and none is past 1,000 lines: a newcomer finds a part of a screen by its file's name."""
    static = Path(__file__).resolve().parents[1] / "src" / "kaisa" / "web" / "static"
    scripts = sorted(static.rglob("*.js"))
    assert {p.parent.name for p in scripts if p.name != "sw.js"} == {"table", "club", "kaavio", "shared"}
    long = {
        str(p.relative_to(static)): n for p in scripts if (n := len(p.read_text(encoding="utf-8").splitlines())) >= 1000
    }
    assert long == {}
