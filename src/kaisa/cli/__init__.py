"""Command-line interface: ``kaisa`` and its subcommands. No rules live here."""

from kaisa.cli.app import app, main

__all__ = ["app", "main"]
