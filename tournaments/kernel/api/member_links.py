"""The sweep that links a club's stored names to its members, through the API, for the club's
directors: the same report as `manage.py members link` (`kernel.member_links.names_link`);
with "dry_run" nothing changes. Another club's register is a 404."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.kernel.api.fields import TrueOrFalse
from tournaments.kernel.api.members import ClubMembersApi
from tournaments.kernel.member_links import names_link


class MembersLinkIn(serializers.Serializer[Any]):
    dry_run = TrueOrFalse(
        required=False, default=False, help_text="true: say what would be linked, change nothing."
    )


class LinkedMemberOut(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()


class LinkedNameOut(serializers.Serializer[Any]):
    name = serializers.CharField(help_text="The member's name in the register.")
    member = LinkedMemberOut()
    places = serializers.IntegerField(help_text="How many players' places were linked.")
    evenings = serializers.ListField(child=serializers.CharField())


class UnmatchedNameOut(serializers.Serializer[Any]):
    name = serializers.CharField(help_text="The name as typed (each once, whatever its case).")
    places = serializers.IntegerField()
    evenings = serializers.ListField(child=serializers.CharField())


class LinkReportOut(serializers.Serializer[Any]):
    dry_run = TrueOrFalse()
    linked = LinkedNameOut(many=True)
    unmatched = UnmatchedNameOut(many=True)
    summary = serializers.CharField()


class MembersLinkApi(ClubMembersApi):
    """Link every unlinked name of the club's events, drives and tournaments to the member
    whose name it is; the report says what was linked and what matched no member."""

    @extend_schema(request=MembersLinkIn, responses=LinkReportOut)
    def post(self, request: Request, slug: str) -> Response:
        data = MembersLinkIn(data=request.data)
        data.is_valid(raise_exception=True)
        report = names_link(
            club=self.club, dry_run=data.validated_data["dry_run"], user=request.user
        )
        return Response(report.as_dict())
