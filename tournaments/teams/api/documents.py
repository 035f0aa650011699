"""The OpenAPI serializers of the team tournament API's documents, generated from their
dataclasses (`tournaments.teams.selectors.documents`), and the schema of a game's options and
of a team tournament's settings.

As in `tournaments.events.api.documents`, the views send `to_dict()` of the documents; these
serializers only describe it. What a dataclass cannot say itself is declared here: the stored
settings (described by the engine's settings, field by field) and a game's options, whose keys
and values each game names (`OptionSpec`).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework_dataclasses.serializers import DataclassSerializer

from engine.teams import GameResult
from engine.teams.game import GameSettings
from engine.teams.settings import TournamentSettings
from tournaments.kernel.api.entry_schema import game_entry_schema, options_schema
from tournaments.teams.selectors.documents import (
    GamePreview,
    PlayoffRound,
    RoundLine,
    RoundTable,
    TeamPublicStandings,
    TeamTableState,
    TournamentDocument,
    TournamentHead,
)


@extend_schema_field(options_schema("bidwhist", leave_out=("scoring",)))
class BidWhistOptionsField(serializers.DictField):
    """The Bid Whist options of a team game (its scoring is a setting of its own)."""


class GameSettingsOut(DataclassSerializer[GameSettings]):
    options = BidWhistOptionsField()

    class Meta:
        dataclass = GameSettings
        fields = ("kind", "value", "scoring", "options", "boston_counts_double", "sets_lose")


class TournamentSettingsOut(DataclassSerializer[TournamentSettings]):
    """A team tournament's settings as stored (the engine's `TournamentSettings.to_dict()`);
    in a request, each one left out takes its default."""

    game = GameSettingsOut(required=False)

    class Meta:
        dataclass = TournamentSettings


@extend_schema_field(TournamentSettingsOut)
class TournamentSettingsField(serializers.DictField):
    """The settings in a request: read as sent (the engine checks them whole, with its own
    words); described by the engine's settings."""


class TournamentHeadOut(DataclassSerializer[TournamentHead]):
    settings = TournamentSettingsOut()

    class Meta:
        dataclass = TournamentHead


class GameResultOut(DataclassSerializer[GameResult]):
    class Meta:
        dataclass = GameResult


class RoundTableOut(DataclassSerializer[RoundTable]):
    result = GameResultOut(allow_null=True)

    class Meta:
        dataclass = RoundTable


class RoundLineOut(DataclassSerializer[RoundLine]):
    tables = RoundTableOut(many=True)

    class Meta:
        dataclass = RoundLine


class PlayoffRoundOut(DataclassSerializer[PlayoffRound]):
    class Meta:
        dataclass = PlayoffRound


class TournamentDocumentOut(DataclassSerializer[TournamentDocument]):
    tournament = TournamentHeadOut()
    round = RoundLineOut(allow_null=True)
    playoff = PlayoffRoundOut(many=True)

    class Meta:
        dataclass = TournamentDocument


class TeamPublicStandingsOut(DataclassSerializer[TeamPublicStandings]):
    class Meta:
        dataclass = TeamPublicStandings


class TeamTableStateOut(DataclassSerializer[TeamTableState]):
    class Meta:
        dataclass = TeamTableState
        extra_kwargs = {
            "sitting_out": {"help_text": "Present (true) only when the table has no game."}
        }


class GamePreviewOut(DataclassSerializer[GamePreview]):
    class Meta:
        dataclass = GamePreview


# ---- what a game's entry takes --------------------------------------------------------------


@extend_schema_field(
    {
        **game_entry_schema("bidwhist"),
        "description": "One hand, home North-South: a Bid Whist result, or all passed.",
    }
)
class BidWhistHandField(serializers.DictField):
    """A hand as sent: the engine reads it (`TeamTournament.tally`), with its own words."""


class TeamScore(serializers.Serializer[Any]):
    """A game's final score, home first (hands and Bostons as the game needs them)."""

    home_points = serializers.IntegerField()
    away_points = serializers.IntegerField()
    home_hands = serializers.IntegerField(required=False)
    away_hands = serializers.IntegerField(required=False)
    home_bostons = serializers.IntegerField(required=False)
    away_bostons = serializers.IntegerField(required=False)
    home_sets = serializers.IntegerField(
        required=False, help_text="Times the home team was set, where sets end a game."
    )
    away_sets = serializers.IntegerField(required=False)


@extend_schema_field(TeamScore)
class TeamScoreField(serializers.DictField):
    """A final score as sent: the engine reads it, with its own words."""
