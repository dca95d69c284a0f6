"""Research on top of the environments and the tournament: data sets of self-play to learn from.

::

    from pathlib import Path
    from kaisa.research import write_dataset

    written = write_dataset(["club", "club"], games=4, out=Path("data/club"), backend="local")

See ``docs/DATASET.md`` and the data card written next to each data set.
"""

from kaisa.research.dataset import (
    CARD_FILE,
    COLUMNS,
    DATA_FILE,
    SCHEMA,
    Dataset,
    DatasetError,
    MatchRows,
    columns_table,
    data_card,
    match_rows,
    stroke_rows,
    table_of,
    write_dataset,
)

__all__ = [
    "CARD_FILE",
    "COLUMNS",
    "DATA_FILE",
    "SCHEMA",
    "Dataset",
    "DatasetError",
    "MatchRows",
    "columns_table",
    "data_card",
    "match_rows",
    "stroke_rows",
    "table_of",
    "write_dataset",
]
