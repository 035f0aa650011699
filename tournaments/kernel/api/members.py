"""The club's member register through the API, for the club's directors (and administrators):
the list (active or not, a search) and a new member, one member read and changed, the CSV
import's preview and confirmation, the export. The same functions as the pages
(`kernel.members`); a refusal is a 400 with its text; another club's register is a 404."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.kernel import members as register
from tournaments.kernel.access import club_for
from tournaments.kernel.api.fields import BoundedListField, NameField, TextField, TrueOrFalse
from tournaments.kernel.member_csv import MAX_CHARS, MAX_LINES
from tournaments.kernel.models import Member, PublicName
from tournaments.kernel.numbers import WholeNumberField


class MemberOut(serializers.ModelSerializer[Member]):
    shown_name = serializers.SerializerMethodField(
        help_text="How public pages will show the member, by their public-name choice."
    )

    class Meta:
        model = Member
        fields = [
            "id", "name", "number", "email", "active", "public_name", "shown_name",
            "created_at", "updated_at",
        ]  # fmt: skip

    def get_shown_name(self, member: Member) -> str:
        return member.shown_name()


class MemberIn(serializers.Serializer[Any]):
    name = NameField(max_length=120)
    number = TextField(max_length=20, required=False, allow_blank=True, trim_whitespace=False)
    email = TextField(max_length=254, required=False, allow_blank=True)
    active = TrueOrFalse(required=False)
    public_name = serializers.ChoiceField(choices=PublicName.choices, required=False)


class MemberChangeIn(MemberIn):
    name = NameField(max_length=120, required=False)


class MembersImportIn(serializers.Serializer[Any]):
    text = TextField(
        max_length=MAX_CHARS,
        trim_whitespace=False,
        help_text="The CSV: a header naming name (required), number, email, active, "
        "public_name; comma or semicolon.",
    )


class MembersConfirmIn(MembersImportIn):
    lines = BoundedListField(
        child=WholeNumberField(min_value=1, max_value=MAX_LINES + 1),
        required=False,
        max_length=MAX_LINES,
        help_text="The line numbers the preview showed as new; left out: every line new now.",
    )


class PreviewRowOut(serializers.Serializer[Any]):
    line = serializers.IntegerField()
    name = serializers.CharField()
    number = serializers.CharField()
    email = serializers.CharField()
    active = TrueOrFalse()
    public_name = serializers.CharField()
    status = serializers.ChoiceField(choices=["new", "existing", "refused"])
    reason = serializers.CharField()


class PreviewOut(serializers.Serializer[Any]):
    columns = serializers.ListField(child=serializers.CharField())
    ignored = serializers.ListField(child=serializers.CharField())
    new = serializers.IntegerField()
    existing = serializers.IntegerField()
    refused = serializers.IntegerField()
    rows = PreviewRowOut(many=True)


class ImportedOut(serializers.Serializer[Any]):
    stored = MemberOut(many=True)
    not_stored = PreviewRowOut(many=True)


class ClubMembersApi(APIView):
    """An API view about one club's register: the caller's right to it is checked before the
    body is read."""

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        self.club = club_for(request.user, kwargs["slug"])


_SHOW = {"active": True, "inactive": False, "all": None}


class MembersApi(ClubMembersApi):
    @extend_schema(
        parameters=[
            OpenApiParameter("q", str, description="Part of a name or number."),
            OpenApiParameter("show", str, enum=list(_SHOW), description="Default: all."),
        ],
        responses=MemberOut(many=True),
    )
    def get(self, request: Request, slug: str) -> Response:
        show = request.query_params.get("show", "all")
        if show not in _SHOW:
            raise register.MembersRefused("show is one of active, inactive or all.")
        search = request.query_params.get("q", "")
        found = register.members_of(self.club, search=search, active=_SHOW[show])
        return Response(MemberOut(found, many=True).data)

    @extend_schema(request=MemberIn, responses={201: MemberOut})
    def post(self, request: Request, slug: str) -> Response:
        data = MemberIn(data=request.data)
        data.is_valid(raise_exception=True)
        member = register.member_add(club=self.club, user=request.user, **data.validated_data)
        return Response(MemberOut(member).data, status=status.HTTP_201_CREATED)


class MemberApi(ClubMembersApi):
    def member(self, member_id: int) -> Member:
        found = Member.objects.filter(club=self.club, pk=member_id).first()
        if found is None:
            raise Http404("No such member in this club's register.")
        return found

    @extend_schema(responses=MemberOut)
    def get(self, request: Request, slug: str, member_id: int) -> Response:
        return Response(MemberOut(self.member(member_id)).data)

    @extend_schema(request=MemberChangeIn, responses=MemberOut)
    def patch(self, request: Request, slug: str, member_id: int) -> Response:
        member = self.member(member_id)
        data = MemberChangeIn(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        member = register.member_edit(member=member, user=request.user, **data.validated_data)
        return Response(MemberOut(member).data)


def _preview_out(preview: register.Preview) -> dict[str, Any]:
    return {
        "columns": preview.columns,
        "ignored": preview.ignored,
        "new": len(preview.new),
        "existing": len(preview.existing),
        "refused": len(preview.refused),
        "rows": [vars(row) for row in preview.rows],
    }


class MembersImportPreviewApi(ClubMembersApi):
    """What importing the CSV would do, line by line; nothing is stored."""

    @extend_schema(request=MembersImportIn, responses=PreviewOut)
    def post(self, request: Request, slug: str) -> Response:
        data = MembersImportIn(data=request.data)
        data.is_valid(raise_exception=True)
        preview = register.members_import_preview(club=self.club, text=data.validated_data["text"])
        return Response(_preview_out(preview))


class MembersImportConfirmApi(ClubMembersApi):
    """Store the lines the preview showed as new (read again: one added meanwhile is reported
    in not_stored, never stored twice)."""

    @extend_schema(request=MembersConfirmIn, responses=ImportedOut)
    def post(self, request: Request, slug: str) -> Response:
        data = MembersConfirmIn(data=request.data)
        data.is_valid(raise_exception=True)
        done = register.members_import_confirm(
            club=self.club, text=data.validated_data["text"],
            lines=data.validated_data.get("lines"), user=request.user,
        )  # fmt: skip
        body = {
            "stored": MemberOut(done.stored, many=True).data,
            "not_stored": [vars(row) for row in done.not_stored],
        }
        return Response(body)


class MembersExportApi(ClubMembersApi):
    """The register as CSV (a UTF-8 byte-order mark, the import's columns)."""

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request: Request, slug: str) -> HttpResponse:
        response = HttpResponse(
            register.members_export(self.club), content_type="text/csv; charset=utf-8"
        )
        response["Content-Disposition"] = f'attachment; filename="{self.club.slug}-members.csv"'
        return response
