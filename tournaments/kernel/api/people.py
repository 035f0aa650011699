"""A club's people through the API, for its directors (and administrators): the directors, the
open invitations and the trail; an invitation sent (the answer carries its link, shown nowhere
else); a person removed; an invitation withdrawn. The same functions as the People page
(`kernel.people`); another club's people are a 404, a refusal a 400, 404 or 409 with its text."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.kernel import people
from tournaments.kernel.access import club_for
from tournaments.kernel.api.fields import TextField, TrueOrFalse
from tournaments.kernel.models import Invitation, PeopleAudit, Role
from tournaments.kernel.pages import base_url


class PersonOut(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.CharField()
    role = serializers.ChoiceField(choices=Role.choices)


class InvitationOut(serializers.ModelSerializer[Invitation]):
    state = serializers.SerializerMethodField(
        help_text="pending, or expired (invite again); used and withdrawn ones are not listed."
    )
    invited_by = serializers.SerializerMethodField()

    class Meta:
        model = Invitation
        fields = ["id", "email", "role", "invited_by", "created_at", "expires_at", "state"]

    def get_state(self, invitation: Invitation) -> str:
        return people.state_of(invitation)

    def get_invited_by(self, invitation: Invitation) -> str:
        return invitation.invited_by.get_username() if invitation.invited_by else ""


class TrailStateOut(serializers.Serializer[Any]):
    """What a trail line records before or after its change; each key only where it applies
    (an invitation's email, role and end; an account's name; a new club's name)."""

    email = serializers.CharField(required=False)
    role = serializers.CharField(required=False, help_text="director or scorer")
    expires_at = serializers.CharField(required=False, help_text="When the invitation ends.")
    username = serializers.CharField(required=False)
    already = serializers.CharField(
        required=False, allow_null=True, help_text="The role the account held before, if any."
    )
    name = serializers.CharField(required=False, help_text="A new club's name.")


class TrailLineOut(serializers.ModelSerializer[PeopleAudit]):
    who = serializers.CharField(read_only=True)
    before = TrailStateOut(allow_null=True)
    after = TrailStateOut(allow_null=True)

    class Meta:
        model = PeopleAudit
        fields = ["id", "at", "who", "action", "target", "before", "after"]


class PeopleOut(serializers.Serializer[Any]):
    people = PersonOut(many=True)
    invitations = InvitationOut(many=True)
    trail = TrailLineOut(many=True)


class InviteIn(serializers.Serializer[Any]):
    email = TextField(max_length=people.MAX_EMAIL, help_text="Where the invitation goes.")
    role = serializers.ChoiceField(choices=Role.choices, required=False, default=Role.DIRECTOR)


class SentOut(serializers.Serializer[Any]):
    invitation = InvitationOut()
    link = serializers.CharField(
        help_text="The link that accepts the invitation: shown only in this answer and the "
        "email (only its hash is kept)."
    )
    emailed = TrueOrFalse(help_text="False: the email failed; pass the link on.")


class ClubPeopleApi(APIView):
    """An API view about one club's people: the caller's right to it is checked before the
    body is read."""

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        self.club = club_for(request.user, kwargs["slug"])


class PeopleApi(ClubPeopleApi):
    @extend_schema(responses=PeopleOut)
    def get(self, request: Request, slug: str) -> Response:
        body = {
            "people": PersonOut(people.people_of(self.club), many=True).data,
            "invitations": InvitationOut(people.invitations_open(self.club), many=True).data,
            "trail": TrailLineOut(people.trail_of(self.club), many=True).data,
        }
        return Response(body)

    @extend_schema(request=InviteIn, responses={201: SentOut})
    def post(self, request: Request, slug: str) -> Response:
        data = InviteIn(data=request.data)
        data.is_valid(raise_exception=True)
        sent = people.invite(
            club=self.club,
            email=data.validated_data["email"],
            role=data.validated_data["role"],
            user=request.user,
            base_url=base_url(request),
        )
        body = {
            "invitation": InvitationOut(sent.invitation).data,
            "link": sent.link,
            "emailed": sent.emailed,
        }
        return Response(body, status=status.HTTP_201_CREATED)


class PersonApi(ClubPeopleApi):
    #: The club's last director, who stays (`people.LastDirector`).
    error_statuses = (409,)

    @extend_schema(request=None, responses={200: PersonOut})
    def delete(self, request: Request, slug: str, user_id: int) -> Response:
        """Take the person off the club's people (the last director stays: a 409)."""
        gone = people.remove(club=self.club, person_id=user_id, user=request.user)
        return Response(PersonOut(gone).data)


class InvitationApi(ClubPeopleApi):
    #: An invitation already used or withdrawn (`people.InvitationClosed`).
    error_statuses = (409,)

    @extend_schema(request=None, responses={200: InvitationOut})
    def delete(self, request: Request, slug: str, invitation_id: int) -> Response:
        """Withdraw an invitation not yet used: its link lets nobody in any more."""
        invitation = Invitation.objects.filter(club=self.club, pk=invitation_id).first()
        if invitation is None:
            raise Http404("No such invitation among this club's.")
        return Response(InvitationOut(people.revoke(invitation=invitation, user=request.user)).data)
