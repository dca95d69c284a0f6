"""Benchmarks: each measures one layer side by side with a baseline in the same process and reports ratios.

Wall-clock numbers on shared machines are noisy; a ratio of two rates measured alternately in one process is
not. Tests never assert on these numbers. One module per benchmark: ``physics`` (simulate v raw pooltool),
``referee`` (ruling v simulation), ``web`` (the server's answer to a stroke), ``env`` (the environments'
overhead) and ``ai`` (the computer players against the baseline). ``kaisa bench NAME`` runs them.
"""
