"""Shared test data: every variant with each of its board shapes."""

ALL_VARIANT_OPTIONS = [
    ("classic", {}),
    ("classic", {"trumps": "turned"}),
    ("classic", {"no_trump_every": 5}),
    ("bidwhist", {}),
    ("candid", {}),
    ("openwhist", {}),
    ("openwhist", {"players": 2}),
    ("openwhist", {"players": 3}),
    ("openwhist", {"fixed_trumps": True, "no_trump_every": 5}),
]
