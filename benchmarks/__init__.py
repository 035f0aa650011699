"""Benchmarks: `make bench`, or one of them from the root with `python -m benchmarks.<name>`.

Each script prints its figures against its targets and never asserts; the club night on
loopback they share with the load and fault tests is `benchmarks.harness`.
"""
