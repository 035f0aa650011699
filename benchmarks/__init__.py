"""Benchmarks, run as scripts (`make bench`, or `python benchmarks/<name>.py`).

A package only so that the tests can import the club night the tablets' load benchmark
shares with them (`benchmarks._club_night`); the scripts import their siblings by name.
"""
