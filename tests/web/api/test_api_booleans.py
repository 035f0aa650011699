"""Every boolean a request may carry is a JSON true or false, as the schema says.

DRF's own BooleanField also takes 1, 0, "yes", "on" and "off": a request the schema calls
invalid would be acted on (the API's fuzzing found such a request accepted). Every request
serializer of every format uses `TrueOrFalse` instead; the response documents (classes named
...Out) only write booleans, so they may keep DRF's."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from typing import Any

from rest_framework import serializers

import tournaments
from tournaments.kernel.api.fields import TrueOrFalse


def _serializer_classes() -> list[type[serializers.Serializer[Any]]]:
    found: list[type[serializers.Serializer[Any]]] = []
    for module in pkgutil.walk_packages(tournaments.__path__, "tournaments."):
        if ".migrations" in module.name:
            continue
        loaded = importlib.import_module(module.name)
        for _, cls in inspect.getmembers(loaded, inspect.isclass):
            if issubclass(cls, serializers.Serializer) and cls.__module__ == loaded.__name__:
                found.append(cls)
    return found


def test_every_requests_boolean_takes_only_true_or_false() -> None:
    classes = _serializer_classes()
    assert len(classes) > 50  # the walk found the API's serializers
    loose = []
    checked = 0
    for cls in classes:
        if cls.__name__.endswith("Out"):
            continue
        for name, field in cls().fields.items():
            if isinstance(field, serializers.BooleanField) and not field.read_only:
                checked += 1
                if not isinstance(field, TrueOrFalse):
                    loose.append(f"{cls.__module__}.{cls.__name__}.{name}")
    assert checked >= 15  # 18 when this was written
    assert loose == []


def test_true_or_false_refuses_what_drf_would_have_taken() -> None:
    field = TrueOrFalse()
    assert field.run_validation(True) is True
    assert field.run_validation(False) is False
    for loose in (0, 1, 0.0, "true", "yes", "on", "off", "1", None):
        try:
            field.run_validation(loose)
        except serializers.ValidationError:
            continue
        raise AssertionError(f"{loose!r} was taken for a boolean")
