"""What Django's test client records of a page, with Django's own form templates left out
(`_form_widgets_unrecorded`, tests/conftest.py): the page's templates and the view's context
are still there for the tests that read them, the form is drawn whole, and none of the
widgets' templates is recorded (each cost a copy of its context)."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_a_form_page_records_its_own_templates_and_not_its_widgets(
    director_client: Client,
) -> None:
    response = director_client.get("/events/new/")
    assert response.status_code == 200
    names = [t.name for t in response.templates]
    assert names[0] == "tournaments/director/event_new.html"
    assert "base.html" in names
    assert not [name for name in names if name.startswith("django/forms/")]
    # The view's context, as the tests that read it expect it.
    assert response.context["suggestions"] == []
    assert response.context["form"] is not None
    # Every widget drawn all the same: the game's select with its options, the name's input.
    html = response.content.decode()
    assert '<select name="game"' in html and '<option value="bidwhist"' in html
    assert 'name="name"' in html
