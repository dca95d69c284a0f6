"""The shot candidates a computer player considers: the API shared by shot generation and search.

A :class:`ShotCandidate` is a call in the call notation with a first, geometric aim; search refines the aim
with the physics and evaluates it under noise.
"""

from __future__ import annotations

from dataclasses import dataclass

from kaisa.call import Call
from kaisa.model import Stroke

KINDS = ("direct", "bank", "kick", "kyyti", "kara", "kiss")


@dataclass(frozen=True)
class ShotCandidate:
    """``stroke`` aims by geometry (its ``place`` is set for a ball in hand); lower ``difficulty`` is easier."""

    call: Call
    stroke: Stroke
    difficulty: float
    kind: str
