"""Benchmarks of the rules engine (``make bench`` → ``python -m bench``): printed figures,
not timed tests. Pure engine code: nothing here imports the web framework."""
