"""The numba kernels of pooltool 0.6.0 that Kaisa's event loop (:mod:`kaisa.physics.compiled`) runs, carried
here so that nothing a user installs needs pooltool (or panda3d).

pooltool is Copyright 2020-2025 Evan Kiefl and its contributors, licensed under the Apache License 2.0
(``LICENSE`` in this folder). ``NOTICE`` names each file's origin and what was changed: chiefly, every
``np.dot`` (which numba hands to a processor-dependent BLAS) is written out in a fixed order, so a stroke gives
the same bits on every machine.
"""
