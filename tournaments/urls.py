"""The director's pages and the API."""

from django.urls import URLPattern, URLResolver, include, path

from tournaments.views import director as views
from tournaments.views import exports, printing, public

urlpatterns: list[URLPattern | URLResolver] = [
    path("events/new/", views.event_new, name="event-new"),
    path("events/import/", exports.event_import, name="event-import-file"),
    path("events/<int:pk>/export/<slug:fmt>/", exports.event_export, name="event-export"),
    path("results/<int:pk>/export.<slug:fmt>", exports.public_export, name="public-export"),
    path("events/<int:pk>/", views.event_detail, name="event-detail"),
    path("events/<int:pk>/pairs/", views.event_pairs, name="event-pairs"),
    path("events/<int:pk>/pairs/move/", views.event_move_pair, name="event-move-pair"),
    path("events/<int:pk>/boards/import/", views.event_import_boards, name="event-import"),
    path("events/<int:pk>/boards.pbn", views.event_boards_pbn, name="event-boards-pbn"),
    path("events/<int:pk>/status/<str:action>/", views.event_status, name="event-status"),
    path("events/<int:pk>/close/", views.event_close_page, name="event-close"),
    path("events/<int:pk>/analyse/", views.event_analyse, name="event-analyse"),
    path(
        "events/<int:pk>/analysis.json",
        views.event_analysis_progress,
        name="event-analysis-progress",
    ),
    path("events/<int:pk>/room/", views.event_room, name="event-room"),
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
    path("events/<int:pk>/live/", views.event_live_public, name="event-live-public"),
    path("events/<int:pk>/tablets/", views.event_tablet_links, name="event-tablet-links"),
    path(
        "events/<int:pk>/tablets/<int:table>/replace/",
        views.event_tablet_replace,
        name="event-tablet-replace",
    ),
    path("events/<int:pk>/rounds/start/", views.event_round_start, name="event-round-start"),
    path("events/<int:pk>/rounds/clock/", views.event_round_clock, name="event-round-clock"),
    path("events/<int:pk>/calls/<int:call_id>/handled/", views.call_handled, name="call-handled"),
    path("events/<int:pk>/enter/", views.event_enter, name="event-enter"),
    path("events/<int:pk>/boards/<int:number>/", views.event_traveller, name="event-traveller"),
    path(
        "events/<int:pk>/boards/<int:number>/preview/",
        views.board_preview,
        name="board-preview",
    ),
    path("events/<int:pk>/boards/<int:number>/fouled/", views.board_fouled, name="board-fouled"),
    path(
        "events/<int:pk>/boards/<int:number>/artificial/<int:round>/<int:table>/",
        views.result_artificial,
        name="result-artificial",
    ),
    path(
        "events/<int:pk>/results/<int:result_id>/correct/",
        views.result_correct,
        name="result-correct",
    ),
    path("events/<int:pk>/standings/", public.event_standings, name="event-standings"),
    path("clubs/<slug:slug>/", public.club_page, name="public-club"),
    path("clubs/<slug:slug>/players/", public.players_page, name="public-players"),
    path("clubs/<slug:slug>/players/<str:name>/", public.player_page, name="public-player"),
    path("results/<int:pk>/", public.results_page, name="public-results"),
    path("results/<int:pk>/boards/<int:number>/", public.board_page, name="public-board"),
    path("results/<int:pk>/pairs/<str:key>/", public.pair_page, name="public-pair"),
    path("results/<int:pk>/display/", public.room_display, name="public-display"),
    path("results/<int:pk>/version.json", public.results_version, name="public-version"),
    path("results/<int:pk>/stream", public.results_stream, name="public-stream"),
    path("events/<int:pk>/audit/", views.event_audit, name="event-audit"),
    path("api/", include("tournaments.api.urls")),
]
