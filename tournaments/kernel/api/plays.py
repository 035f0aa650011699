"""What every format's API asks of a new evening (an event, a drive, a tournament): the club it
goes to, named in the request or understood, and its body checked before anything is made."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.request import Request

from tournaments.kernel.api.fields import NameField
from tournaments.kernel.clubs import club_for_new_event
from tournaments.kernel.models import Club


def club_field() -> NameField:
    """The request's `club`: a director of one club may leave it out."""
    return NameField(
        required=False,
        max_length=120,
        help_text="The club's name or slug; may be left out by a director of one club.",
    )


def new_play(
    request: Request, checked_by: type[serializers.Serializer[Any]]
) -> tuple[Club, dict[str, Any]]:
    """The club a new evening goes to (`club_for_new_event`: the one the body names, or the
    caller's one club) and the rest of the body, checked whole by `checked_by` first: a
    refusal of either makes nothing."""
    checked = checked_by(data=request.data)
    checked.is_valid(raise_exception=True)
    values = dict(checked.validated_data)
    return club_for_new_event(user=request.user, name=values.pop("club", None)), values
