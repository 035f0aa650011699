"""The API the table pages use: the token in the URL is the only credential.

Each view checks the token, calls one service and returns; answers a tablet can act on:
201 a new result, 200 the same submission again, 400 an entry the rules refuse (the engine's
message), 403 a board this table does not play now (or a replaced link), 404 an unknown link,
409 a different result already stored (with the stored one, only if it is this table's own;
a key of another table's result, or any write once the event is over, says so without details),
429 too many requests (with Retry-After).

A request asks Redis once, before its work: its count against the link's limit, the link, the
round the table plays and its state come back together (`tablet_cache.table_visit`), so a poll
on a warm cache reads no database at all. A submission's or a confirmation's visit also moves
on the cached copies the write changes, and its answer carries a receipt (the
`Clubwhist-Receipt` header) that the tablet sends back with its next request: so a write asks
Redis nothing after its commit (`tablet_scripts`).
"""

from __future__ import annotations

from contextvars import Token
from typing import Any

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.events.api.documents import TabletAnswerOut
from tournaments.events.models import DirectorCall, Result, TableAccess
from tournaments.events.selectors import tablet_cache
from tournaments.events.selectors.tablet_cache import Visit
from tournaments.events.selectors.tablet_scripts import PREBUMPED, Prebumped, receipt_or_none
from tournaments.events.services import tablets
from tournaments.events.services.results import NOTE_MAX
from tournaments.kernel.api.entry_schema import EntryJsonField, StoredEntryField
from tournaments.kernel.api.fields import TextField, TrueOrFalse
from tournaments.kernel.numbers import WholeNumberField
from tournaments.kernel.tablet_api import TableLinkThrottle, TabletApiView

#: A write's receipt, in its answer and in the tablet's next request (`tablet_scripts`).
RECEIPT_HEADER = "Clubwhist-Receipt"


class TableTokenThrottle(TableLinkThrottle):
    """Requests per table link (`kernel.tablet_api`). With Redis, the window is counted by the
    link's visit (one atomic script that also reads the link's cached copies:
    `tablet_cache.table_visit`), which the view then uses; with the in-process cache (`make
    run`, no Redis), DRF's sliding window."""

    def allow_request(self, request: Request, view: Any) -> bool:
        if self.rate is None or not tablet_cache.scripted():
            return super().allow_request(request, view)
        limit, seconds = self.parse_rate(self.rate)
        if limit is None or seconds is None:
            return True
        visit = view.visit_cache(request, window=(limit, seconds))
        if visit.hits is None or visit.hits <= limit:
            return True  # counted, or Redis away: not counted, as DRF's would not be
        self.retry_after = visit.wait
        return False


def _access(token: str, visit: Visit) -> TableAccess:
    try:
        return tablets.table_access(token, visit)
    except tablets.TableLinkReplaced as exc:
        raise PermissionDenied(str(exc)) from None
    except tablets.TableLinkUnknown as exc:
        raise NotFound(str(exc)) from None


class TabletView(TabletApiView):
    """An events' table link's view (`kernel.tablet_api`): a replaced link or a board this
    table does not play now answers 403, a different result stored or the event over 409."""

    throttle_classes = [TableTokenThrottle]

    table: TableAccess
    visit: Visit | None = None  # set by the throttle when it counted this request
    #: What a POST here changes, for its visit to move on before the work
    #: (`tablet_cache.table_visit`); "" : nothing, or not known in advance.
    writes = ""
    _prebumped: Token[Prebumped | None] | None = None

    def visit_cache(self, request: Request, *, window: tuple[int, float] | None = None) -> Visit:
        """The visit of this request (`tablet_cache.table_visit`): counted against `window`,
        ending the receipt the tablet brought back, and moving on what a write changes."""
        visit = tablet_cache.table_visit(
            self.kwargs.get("token", ""),
            window=window,
            writes=self.writes if request.method == "POST" else "",
            receipt=receipt_or_none(request.headers.get(RECEIPT_HEADER)),
        )
        self.visit = visit
        if visit.prebumped is not None:
            self._prebumped = PREBUMPED.set(visit.prebumped)
        return visit

    def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        self._prebumped = None
        try:
            return super().dispatch(request, *args, **kwargs)
        finally:
            if self._prebumped is not None:
                PREBUMPED.reset(self._prebumped)

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        """The link is checked before anything else: an unknown or replaced link learns
        nothing about what a valid request would look like."""
        self.visit = None
        super().initial(request, *args, **kwargs)
        visit = self.visit if self.visit is not None else self.visit_cache(request)
        self.table = _access(kwargs["token"], visit)

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        """A write that moved versions on gives its receipt back with its answer, sent after
        its commit: the tablet's next request ends it (`tablet_scripts`)."""
        answer = super().finalize_response(request, response, *args, **kwargs)
        if self.visit is not None and self.visit.receipt is not None:
            answer[RECEIPT_HEADER] = self.visit.receipt
        return answer


class TableResultOut(serializers.ModelSerializer[Result]):
    entry = StoredEntryField(
        allow_null=True, help_text="The result as entered; null for an artificial score."
    )
    unusual = serializers.SerializerMethodField(
        help_text="The result looks like a slip: the players are asked to check it (the "
        "reason, with the other tables' figures, is the director's)."
    )

    def get_unusual(self, result: Result) -> bool:
        return bool(result.flag)

    class Meta:
        model = Result
        fields = [
            "id",
            "board_number",
            "round",
            "table",
            "entry",
            "ns_score",
            "status",
            "unusual",
            "idempotency_key",
        ]


class TableStateApi(TabletView):
    """Everything the table's page shows: round, pairs, boards with their states and results,
    the previous round's recap and where everyone goes next, and the game's entry fields."""

    @extend_schema(responses=TabletAnswerOut)
    def get(self, request: Request, token: str) -> Response:
        return Response(tablet_cache.table_state_now(self.table, self.visit))


class TablePreviewApi(TabletView):
    """Check and score an entry without saving it; the "are you sure?" check comes with the
    submission, once the result is the table's own."""

    class PreviewIn(serializers.Serializer[Any]):
        board = WholeNumberField(min_value=1)
        entry = EntryJsonField()

    @extend_schema(
        request=PreviewIn,
        responses=inline_serializer(
            "TablePreview",
            {
                "ns_score": serializers.IntegerField(),
                "ew_score": serializers.IntegerField(),
                "describe": TextField(),
            },
        ),
    )
    def post(self, request: Request, token: str) -> Response:
        data = self.PreviewIn(data=request.data)
        data.is_valid(raise_exception=True)
        preview = tablets.tablet_preview(
            access=self.table,
            board_number=data.validated_data["board"],
            entry=data.validated_data["entry"],
            visit=self.visit,
        )
        return Response(preview)


class TableResultsApi(TabletView):
    """Submit one board's result, with the idempotency key the device made for it."""

    writes = "entered"

    class SubmitIn(serializers.Serializer[Any]):
        board = WholeNumberField(min_value=1)
        entry = EntryJsonField()
        idempotency_key = TextField(min_length=8, max_length=80)

    @extend_schema(request=SubmitIn, responses={201: TableResultOut, 200: TableResultOut})
    def post(self, request: Request, token: str) -> Response:
        data = self.SubmitIn(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        result, created = tablets.tablet_submit(
            access=self.table,
            board_number=v["board"],
            entry=v["entry"],
            key=v["idempotency_key"],
            visit=self.visit,
        )
        return Response(
            TableResultOut(result).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class TableConfirmApi(TabletView):
    """The other pair accepts the result."""

    writes = "confirmed"

    @extend_schema(request=None, responses=TableResultOut)
    def post(self, request: Request, token: str, result_id: int) -> Response:
        result = tablets.tablet_confirm(access=self.table, result_id=result_id, visit=self.visit)
        return Response(TableResultOut(result).data)


class TableDisputeApi(TabletView):
    """The other pair does not accept the result: the director is called."""

    class TableDisputeIn(serializers.Serializer[Any]):
        note = TextField(required=False, allow_blank=True, max_length=NOTE_MAX, default="")

    @extend_schema(request=TableDisputeIn, responses=TableResultOut)
    def post(self, request: Request, token: str, result_id: int) -> Response:
        data = self.TableDisputeIn(data=request.data)
        data.is_valid(raise_exception=True)
        result = tablets.tablet_dispute(
            access=self.table,
            result_id=result_id,
            note=data.validated_data["note"],
            visit=self.visit,
        )
        return Response(TableResultOut(result).data)


class TableCallApi(TabletView):
    """Call the director to the table (at any time)."""

    class CallIn(serializers.Serializer[Any]):
        note = TextField(required=False, allow_blank=True, max_length=NOTE_MAX, default="")
        reason = serializers.ChoiceField(
            choices=DirectorCall.Reason.choices, default=DirectorCall.Reason.OTHER
        )

    @extend_schema(
        request=CallIn,
        responses={201: inline_serializer("Called", {"call": serializers.IntegerField()})},
    )
    def post(self, request: Request, token: str) -> Response:
        data = self.CallIn(data=request.data)
        data.is_valid(raise_exception=True)
        access = self.table
        call = tablets.director_call(
            section=access.section,
            table=access.table,
            round=tablets.current_round(access, self.visit).current,
            note=data.validated_data["note"],
            reason=data.validated_data["reason"],
        )
        return Response({"call": call.pk}, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=None,
        responses={200: inline_serializer("CallCancelled", {"cancelled": TrueOrFalse()})},
    )
    def delete(self, request: Request, token: str) -> Response:
        """Take back the table's open call (not a dispute's: that waits for the director)."""
        access = self.table
        call = tablets.director_call_cancel(section=access.section, table=access.table)
        return Response({"cancelled": call is not None})
