"""The ``kaisa`` console script (Typer + rich): the app, its root options and the commands' registration.

Each capability's commands live in their own module (simulate, rule, match, advise, records, serve, tournament,
bench) and the rich rendering in render; they are registered here, in the order ``kaisa --help`` lists them.
Heavy imports (the physics engine and numba) happen inside the commands, so ``kaisa --help`` stays fast.
"""

from __future__ import annotations

from typing import Annotated

import typer

from kaisa import __version__
from kaisa.cli import (
    advise,
    bench,
    common,
    dataset,
    kaavio,
    kaavio_papers,  # noqa: F401  (importing it adds its commands to the kaavio group)
    match,
    ops,
    records,
    rule,
    serve,
    simulate,
    tournament,
)
from kaisa.cli.common import console

app = typer.Typer(
    name="kaisa",
    help="Kaisa, the Finnish five-ball billiards game: simulate, referee and play.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,  # help texts are plain: '{"balls": {"W1": [x, y]}}' shows as written
)
bench_app = typer.Typer(
    help="Benchmarks that print speed ratios against a baseline measured side by side; without a name, all the "
    "speed figures in one run.",
    invoke_without_command=True,
)
app.add_typer(bench_app, name="bench")
app.add_typer(records.matches_app, name="matches")
bench_app.callback()(bench.bench_all)


@app.callback(invoke_without_command=True)
def _root(
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.")] = False,
) -> None:
    common.start_command()
    if version:
        console.print(f"kaisa {__version__}")
        raise typer.Exit()


app.command("simulate")(simulate.simulate_command)
app.command("rule")(rule.rule_command)
app.command("match")(match.match_command)
app.command("advise")(advise.advise_command)
app.command("replay")(records.replay_command)
app.command("stats")(records.stats_command)
app.command("play")(serve.play_command)
app.command("club")(serve.club_command)
app.command("demo")(simulate.demo_command)
app.command("table")(simulate.table_command)
app.command("tournament")(tournament.tournament_command)
app.add_typer(kaavio.app, name="kaavio")
app.command("dataset")(dataset.dataset_command)
app.command("backup")(ops.backup_command)
app.command("restore")(ops.restore_command)

bench_app.command("physics")(bench.bench_physics)
bench_app.command("compiled")(bench.bench_compiled)
bench_app.command("throughput")(bench.bench_throughput)
bench_app.command("referee")(bench.bench_referee)
bench_app.command("web")(bench.bench_web)
bench_app.command("streams")(bench.bench_streams)
bench_app.command("env")(bench.bench_env)
bench_app.command("ai")(bench.bench_ai)
bench_app.command("master")(bench.bench_master)
bench_app.command("kaavio")(kaavio.bench_kaavio)
bench_app.command("records")(records.bench_records_command)


def main() -> None:
    """The console script: a refusal of bad input anywhere below the commands still ends in one error line
    and exit status 2, never a traceback (the commands catch what they expect; this catches the rest)."""
    import sys

    from typer._click.exceptions import ClickException, NoArgsIsHelpError, UsageError  # Typer's own click

    from kaisa.errors import KaisaError

    try:
        code = app(standalone_mode=False)
        sys.exit(code if isinstance(code, int) else 0)
    except NoArgsIsHelpError as exc:
        console.print(exc.ctx.get_help() if exc.ctx is not None else "kaisa --help", markup=False)
        sys.exit(0)
    except UsageError as exc:  # a wrong option or argument: one line, and where the help is
        command = exc.ctx.command_path if exc.ctx is not None else "kaisa"
        message = " ".join(exc.format_message().split())
        sys.stderr.write(f"error: {message} (see {command} --help)\n")
        sys.exit(2)
    except ClickException as exc:
        sys.stderr.write(f"error: {' '.join(exc.format_message().split())}\n")
        sys.exit(exc.exit_code)
    except typer.Abort:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
    except KaisaError as exc:
        from kaisa.cli.common import fail

        try:
            fail(exc)
        except typer.Exit as done:
            sys.exit(done.exit_code)
    except RecursionError:
        sys.stderr.write("error: the input is nested too deeply\n")
        sys.exit(2)
