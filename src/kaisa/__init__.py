"""Kaisa, the Finnish five-ball billiards game."""

__version__ = "0.1.0"
