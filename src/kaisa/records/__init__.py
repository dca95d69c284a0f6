"""The records wing: what a match leaves behind and how it reads back.

``storage`` keeps matches in a real database (SQLite or PostgreSQL), one transaction per action;
``notation`` writes and reads the PGN-like text record of a match; ``stats`` turns a played match into the
figures Finnish tournament tools keep. None of them holds a rule: they store and read what the game layer
produced.
"""
