"""A member's privacy through the API, for the club's directors (and administrators): another
record merged into a member, a member forgotten, a member's data. The same functions as the
pages (`kernel.member_privacy`); a refusal is a 400 with its text; another club's register is
a 404."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.kernel import member_privacy as privacy
from tournaments.kernel.api.fields import TrueOrFalse
from tournaments.kernel.api.members import ClubMembersApi, MemberOut
from tournaments.kernel.members import MembersRefused
from tournaments.kernel.models import Member
from tournaments.kernel.numbers import WholeNumberField


class MergeIn(serializers.Serializer[Any]):
    other = WholeNumberField(
        min_value=1, max_value=2**31 - 1,
        help_text="The id of the record merged into this one (and then deleted).",
    )  # fmt: skip


class MergedOut(serializers.Serializer[Any]):
    member = MemberOut(help_text="The kept record, with the number and email it took.")
    evenings = serializers.DictField(
        child=serializers.IntegerField(),
        help_text='How many evenings of each format moved ("pairs event", "drive", ...).',
    )


class DataMemberOut(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    number = serializers.CharField()
    email = serializers.CharField()
    active = TrueOrFalse()
    public_name = serializers.CharField()
    shown_name = serializers.CharField(help_text="How public pages show them.")
    created_at = serializers.CharField()
    updated_at = serializers.CharField()
    erased_at = serializers.CharField(allow_null=True)


class DataTrailOut(serializers.Serializer[Any]):
    at = serializers.CharField()
    action = serializers.CharField()
    target = serializers.CharField()
    by = serializers.CharField()
    before = serializers.CharField(help_text='The state before, as JSON text ("": none).')
    after = serializers.CharField(help_text='The state after, as JSON text ("": none).')
    reason = serializers.CharField()


class DataPlayedOut(serializers.Serializer[Any]):
    format = serializers.CharField()
    evening = serializers.CharField()
    evening_id = serializers.IntegerField()
    date = serializers.CharField()
    status = serializers.CharField()
    name_as_played = serializers.CharField()
    place = serializers.CharField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # "with" (the partner or team-mates as played) is a Python keyword: declared here.
        self.fields["with"] = serializers.ListField(child=serializers.CharField())


class MemberDataOut(serializers.Serializer[Any]):
    format = serializers.CharField(help_text='"clubwhist-member-data"')
    version = serializers.IntegerField()
    club = serializers.CharField()
    written_at = serializers.CharField()
    member = DataMemberOut()
    register_trail = DataTrailOut(many=True)
    played = DataPlayedOut(many=True)


class ErasedOut(serializers.Serializer[Any]):
    member = MemberOut(help_text='The register\'s row as it stays: "Former member N".')
    rows = serializers.DictField(
        child=serializers.IntegerField(), help_text="Rows whose text changed, per model."
    )
    evenings = serializers.IntegerField(help_text="Evenings whose rows changed.")
    files = serializers.IntegerField(help_text="Stored documents (PDFs) deleted.")


class MemberPrivacyApi(ClubMembersApi):
    def member(self, member_id: int) -> Member:
        found = Member.objects.filter(club=self.club, pk=member_id).first()
        if found is None:
            raise Http404("No such member in this club's register.")
        return found


class MemberMergeApi(MemberPrivacyApi):
    """Merge the record `other` into this member: every format's links, the register's trail,
    its number and email where this one has none; `other` is then deleted."""

    @extend_schema(request=MergeIn, responses=MergedOut)
    def post(self, request: Request, slug: str, member_id: int) -> Response:
        keep = self.member(member_id)
        data = MergeIn(data=request.data)
        data.is_valid(raise_exception=True)
        drop = Member.objects.filter(club=self.club, pk=data.validated_data["other"]).first()
        if drop is None:
            raise MembersRefused(
                "The other record is not in this club's register: give a member's id."
            )
        counts = privacy.merge_preview(keep=keep, drop=drop).counts
        kept = privacy.member_merge(keep=keep, drop=drop, user=request.user)
        return Response({"member": MemberOut(kept).data, "evenings": counts})


class MemberEraseApi(MemberPrivacyApi):
    """Forget this member: no name, number or email kept; their history reads "former
    member" everywhere in the club. Cannot be undone."""

    @extend_schema(request=None, responses=ErasedOut)
    def post(self, request: Request, slug: str, member_id: int) -> Response:
        done = privacy.member_erase(member=self.member(member_id), user=request.user)
        body = {"member": MemberOut(done.member).data, "rows": done.rows,
                "evenings": done.evenings, "files": done.files}  # fmt: skip
        return Response(body)


class MemberDataApi(MemberPrivacyApi):
    """Everything the club holds about this member (docs/directors/members.md): the
    register's row, its trail, every place they played."""

    @extend_schema(responses=MemberDataOut)
    def get(self, request: Request, slug: str, member_id: int) -> Response:
        return Response(privacy.member_data(self.member(member_id)))
