"""The director's pages, the public results pages and the API, each path to its view."""

from django.urls import URLPattern, URLResolver, include, path

from tournaments.views import exports, live, printing, public
from tournaments.views.director import (
    analysis,
    audit,
    boards,
    entry,
    events,
    pairs,
    room,
    tablet_links,
)

urlpatterns: list[URLPattern | URLResolver] = [
    path("events/new/", events.event_new, name="event-new"),
    path("events/import/", exports.event_import, name="event-import-file"),
    path("events/<int:pk>/export/<slug:fmt>/", exports.event_export, name="event-export"),
    path("results/<int:pk>/export.<slug:fmt>", exports.public_export, name="public-export"),
    path("events/<int:pk>/", events.event_detail, name="event-detail"),
    path("events/<int:pk>/pairs/", pairs.event_pairs, name="event-pairs"),
    path("events/<int:pk>/pairs/move/", pairs.event_move_pair, name="event-move-pair"),
    path("events/<int:pk>/boards/import/", boards.event_import_boards, name="event-import"),
    path("events/<int:pk>/boards.pbn", boards.event_boards_pbn, name="event-boards-pbn"),
    path("events/<int:pk>/status/<str:action>/", events.event_status, name="event-status"),
    path("events/<int:pk>/close/", events.event_close_page, name="event-close"),
    path("events/<int:pk>/analyse/", analysis.event_analyse, name="event-analyse"),
    path(
        "events/<int:pk>/analysis.json",
        analysis.event_analysis_progress,
        name="event-analysis-progress",
    ),
    path("events/<int:pk>/room/", room.event_room, name="event-room"),
    path("events/<int:pk>/print/", printing.event_print, name="event-print"),
    path("events/<int:pk>/print/paper/", printing.event_print_paper, name="event-print-paper"),
    path("events/<int:pk>/print/pack/", printing.event_print_pack, name="event-print-pack"),
    path(
        "events/<int:pk>/print/pack/<int:job_id>.json",
        printing.event_print_pack_state,
        name="event-print-pack-state",
    ),
    path(
        "events/<int:pk>/print/pack/<int:job_id>.pdf",
        printing.event_print_pack_pdf,
        name="event-print-pack-pdf",
    ),
    path(
        "events/<int:pk>/print/<slug:kind>.pdf",
        printing.event_print_document,
        name="event-print-document",
    ),
    path("events/<int:pk>/live/", events.event_live_public, name="event-live-public"),
    path("events/<int:pk>/tablets/", tablet_links.event_tablet_links, name="event-tablet-links"),
    path(
        "events/<int:pk>/tablets/<int:table>/replace/",
        tablet_links.event_tablet_replace,
        name="event-tablet-replace",
    ),
    path("events/<int:pk>/rounds/start/", room.event_round_start, name="event-round-start"),
    path("events/<int:pk>/rounds/clock/", room.event_round_clock, name="event-round-clock"),
    path("events/<int:pk>/calls/<int:call_id>/handled/", room.call_handled, name="call-handled"),
    path("events/<int:pk>/enter/", entry.event_enter, name="event-enter"),
    path("events/<int:pk>/boards/<int:number>/", entry.event_traveller, name="event-traveller"),
    path(
        "events/<int:pk>/boards/<int:number>/preview/",
        boards.board_preview,
        name="board-preview",
    ),
    path("events/<int:pk>/boards/<int:number>/fouled/", boards.board_fouled, name="board-fouled"),
    path(
        "events/<int:pk>/boards/<int:number>/artificial/<int:round>/<int:table>/",
        entry.result_artificial,
        name="result-artificial",
    ),
    path(
        "events/<int:pk>/results/<int:result_id>/correct/",
        entry.result_correct,
        name="result-correct",
    ),
    path("events/<int:pk>/standings/", public.event_standings, name="event-standings"),
    path("clubs/<slug:slug>/", public.club_page, name="public-club"),
    path("clubs/<slug:slug>/players/", public.players_page, name="public-players"),
    path("clubs/<slug:slug>/player/", public.player_page, name="public-player"),  # ?name=...
    path("clubs/<slug:slug>/players/<str:name>/", public.player_page_by_path),  # old links
    path("results/<int:pk>/", public.results_page, name="public-results"),
    path("results/<int:pk>/boards/<int:number>/", public.board_page, name="public-board"),
    path("results/<int:pk>/pairs/<str:key>/", public.pair_page, name="public-pair"),
    path("results/<int:pk>/display/", public.room_display, name="public-display"),
    path("results/<int:pk>/version.json", live.results_version, name="public-version"),
    path("results/<int:pk>/stream", live.results_stream, name="public-stream"),
    path("events/<int:pk>/audit/", audit.event_audit, name="event-audit"),
    path("api/", include("tournaments.api.urls")),
]
