"""pooltool 0.6.0's ``pooltool/constants.py``: the motion states and tolerances the kernels use.

Carried from pooltool (Apache-2.0, see LICENSE and NOTICE in this folder).
"""

import numpy as np

use_numba_cache = True

EPS = np.finfo(float).eps * 100

MIN_DIST = 1e-6

stationary: int = 0
spinning: int = 1
sliding: int = 2
rolling: int = 3
pocketed: int = 4

nontranslating = {stationary, spinning, pocketed}
