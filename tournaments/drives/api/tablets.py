"""The API a drive table's tablet uses: the token in the URL is the only credential.

Answers a tablet can act on: 200 the table's state (after a write, the state with it), 201 a
new result entered, 400 an entry the game's rules refuse (their message), 403 a replaced
link, 404 an unknown link, 409 the table's stored result differs from what was sent (with
the state, so the screen shows what is stored) or the drive is over (with the state: every
write is refused then), 429 too many requests (Retry-After).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.cache import add_never_cache_headers
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework_dataclasses.serializers import DataclassSerializer

from tournaments.drives.api.director import DirectorDriveApi
from tournaments.drives.models import DriveResult
from tournaments.drives.selectors.room import drive_links
from tournaments.drives.selectors.tablets import (
    DriveLinkReplaced,
    DriveLinkUnknown,
    DriveTableResult,
    DriveTabletState,
    drive_link,
    table_state,
)
from tournaments.drives.services import tablets as drive_tablets
from tournaments.kernel.api.entry_schema import EntryFieldViewOut, EntryJsonField, StoredEntryField
from tournaments.kernel.api.fields import TextField
from tournaments.kernel.numbers import WholeNumberField
from tournaments.kernel.refusals import Refused
from tournaments.kernel.tablet_api import TableLinkThrottle, TabletApiView


class DriveTableResultOut(DataclassSerializer[DriveTableResult]):
    entry = StoredEntryField(allow_null=True, help_text="The result as entered.")

    class Meta:
        dataclass = DriveTableResult


class DriveTabletStateOut(DataclassSerializer[DriveTabletState]):
    result = DriveTableResultOut()
    # A declared field, popped by DRF's metaclass: the class's `fields` stays the serializer's.
    fields = EntryFieldViewOut(many=True)  # type: ignore[assignment]

    class Meta:
        dataclass = DriveTabletState


class DriveTableThrottle(TableLinkThrottle):
    """Requests per drive table link, at the tablets' rate (`kernel.tablet_api`)."""

    key_scope = "drive-table"
    hits_prefix = "drive-hits:"


class DriveTabletView(TabletApiView):
    """A drive table link's view (`kernel.tablet_api`): a replaced link answers 403, a
    different result stored or the drive over 409, with the table's state."""

    throttle_classes = [DriveTableThrottle]

    drive_id: int
    table: int

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        """The link first: an unknown or replaced link learns nothing more."""
        super().initial(request, *args, **kwargs)
        try:
            self.drive_id, self.table = drive_link(kwargs["token"])
        except DriveLinkReplaced as exc:
            raise PermissionDenied(str(exc)) from None
        except DriveLinkUnknown as exc:
            raise NotFound(str(exc)) from None

    def state(self, code: int = status.HTTP_200_OK, row: DriveResult | None = None) -> Response:
        return Response(table_state(self.drive_id, self.table, row=row), status=code)

    def refusal_body(self, exc: Refused) -> dict[str, Any]:
        """A conflict or a closed drive shows the table's state with it."""
        if exc.status == status.HTTP_409_CONFLICT:
            return {"state": table_state(self.drive_id, self.table)}
        return {}


class HandEntryIn(serializers.Serializer[Any]):
    hand = WholeNumberField(min_value=1, max_value=999)
    entry = EntryJsonField()


class HandIn(serializers.Serializer[Any]):
    hand = WholeNumberField(min_value=1, max_value=999)


_REFUSED = inline_serializer("DriveTableRefused", {"detail": TextField()})
_CONFLICT = inline_serializer(
    "DriveTableConflict", {"detail": TextField(), "state": DriveTabletStateOut()}
)


class DriveTableStateApi(DriveTabletView):
    """The table's hand: trumps, who sits where, its result's state, the tables still to
    finish, and where this table's players of the hand before went."""

    @extend_schema(responses={200: DriveTabletStateOut, 403: _REFUSED, 404: _REFUSED})
    def get(self, request: Request, token: str) -> Response:
        return self.state()


class DriveTableEnterApi(DriveTabletView):
    """North-South's result for the hand (it waits for East-West's confirmation)."""

    @extend_schema(
        request=HandEntryIn,
        responses={
            201: DriveTabletStateOut,
            200: DriveTabletStateOut,
            409: _CONFLICT,
        },
    )
    def post(self, request: Request, token: str) -> Response:
        data = _valid(HandEntryIn, request)
        row, new = drive_tablets.tablet_enter(
            drive_id=self.drive_id, table=self.table, hand=data["hand"], entry=data["entry"]
        )
        return self.state(status.HTTP_201_CREATED if new else status.HTTP_200_OK, row)


class DriveTableConfirmApi(DriveTabletView):
    """East-West agree with the result shown (sent back as `entry`); the last table's
    confirmation moves the drive on when it moves on by itself."""

    @extend_schema(
        request=HandEntryIn,
        responses={200: DriveTabletStateOut, 409: _CONFLICT},
    )
    def post(self, request: Request, token: str) -> Response:
        data = _valid(HandEntryIn, request)
        row, _ = drive_tablets.tablet_confirm(
            drive_id=self.drive_id, table=self.table, hand=data["hand"], entry=data["entry"]
        )
        return self.state(row=row)


class DriveTableWrongApi(DriveTabletView):
    """East-West say the result entered is wrong: it is taken off to be entered again."""

    @extend_schema(request=HandIn, responses={200: DriveTabletStateOut, 409: _CONFLICT})
    def post(self, request: Request, token: str) -> Response:
        data = _valid(HandIn, request)
        drive_tablets.tablet_reject(drive_id=self.drive_id, table=self.table, hand=data["hand"])
        return self.state()


def _valid(serializer: type[serializers.Serializer[Any]], request: Request) -> dict[str, Any]:
    checked = serializer(data=request.data)
    checked.is_valid(raise_exception=True)
    return dict(checked.validated_data)


class DriveLinkOut(serializers.Serializer[Any]):
    table = serializers.IntegerField()
    url = TextField(
        help_text="The table's tablet page (a credential: it lets "
        "whoever holds it enter and confirm that table's results)."
    )


class DriveLinksApi(DirectorDriveApi):
    """Each table's tablet link, for the drive's director (to print QR codes, say); made when
    the drive starts, none before. The links name this server as the request reached it, or
    CLUBWHIST_BASE_URL."""

    @extend_schema(responses=DriveLinkOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        base = settings.BASE_URL or request.build_absolute_uri("/").rstrip("/")
        links = drive_links(self.drive, base)
        response = Response([{"table": link.table, "url": link.url} for link in links])
        add_never_cache_headers(response)  # the links are credentials: never kept
        return response
