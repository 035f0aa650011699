"""The director's pages, the public results pages and the API, each path to its view."""

from django.urls import URLPattern, URLResolver, include, path

from tournaments.drives.views import cards as drive_cards
from tournaments.drives.views import director as drives
from tournaments.drives.views import public as drive_public
from tournaments.drives.views import room as drive_room
from tournaments.events.views import live, printing, public
from tournaments.events.views.director import (
    analysis,
    audit,
    boards,
    entry,
    events,
    pairs,
    room,
    tablet_links,
)
from tournaments.files import views as exports
from tournaments.files.views import drive_export_json, tournament_export_json
from tournaments.kernel import member_pages as members
from tournaments.kernel import member_privacy_pages as member_privacy
from tournaments.kernel import people_pages as people
from tournaments.seasons import member_views
from tournaments.seasons import views as seasons
from tournaments.teams.views import director as teams
from tournaments.teams.views import paper as team_print
from tournaments.teams.views import public as team_public

urlpatterns: list[URLPattern | URLResolver] = [
    # First: the tablets' API routes are most of a club night's requests (api/urls.py).
    path("api/", include("tournaments.api_urls")),
    path("events/new/", events.event_new, name="event-new"),
    # A club's people (kernel/people_pages.py); before "clubs/<slug>/", which "new" would match.
    path("clubs/new/", people.club_new, name="club-new"),
    path("clubs/<slug:slug>/people/", people.people_page, name="people"),
    path(
        "clubs/<slug:slug>/people/<int:user_id>/remove/",
        people.person_remove,
        name="person-remove",
    ),
    path(
        "clubs/<slug:slug>/invitations/<int:invitation_id>/revoke/",
        people.invitation_revoke,
        name="invitation-revoke",
    ),
    path("invitations/<str:token>/", people.invitation_accept, name="invitation-accept"),
    path("clubs/<slug:slug>/members/", members.members_list, name="members"),
    path("clubs/<slug:slug>/members/new/", members.member_new, name="member-new"),
    path("clubs/<slug:slug>/members/import/", members.members_import, name="members-import"),
    path("clubs/<slug:slug>/members/export.csv", members.members_export, name="members-export"),
    path(
        "clubs/<slug:slug>/members/export.xlsx",
        members.members_export,
        {"fmt": "xlsx"},
        name="members-export-xlsx",
    ),
    path(
        "clubs/<slug:slug>/members/<int:member_id>/edit/", members.member_edit, name="member-edit"
    ),
    # A member's page (public when the member chose to be shown; always for directors).
    path(
        "clubs/<slug:slug>/members/<int:member_id>/",
        member_views.member_page_view,
        name="member-page",
    ),
    path(
        "clubs/<slug:slug>/members/<int:member_id>/results.pdf",
        member_views.member_page_pdf,
        name="member-page-pdf",
    ),
    path(
        "clubs/<slug:slug>/members/<int:member_id>/results.csv",
        member_views.member_page_csv,
        name="member-page-csv",
    ),
    path(
        "clubs/<slug:slug>/members/<int:member_id>/results.xlsx",
        member_views.member_page_csv,
        {"fmt": "xlsx"},
        name="member-page-xlsx",
    ),
    path(
        "clubs/<slug:slug>/members/<int:member_id>/merge/",
        member_privacy.member_merge,
        name="member-merge",
    ),
    path(
        "clubs/<slug:slug>/members/<int:member_id>/erase/",
        member_privacy.member_erase,
        name="member-erase",
    ),
    path(
        "clubs/<slug:slug>/members/<int:member_id>/data.json",
        member_privacy.member_data,
        name="member-data",
    ),
    path("clubs/<slug:slug>/seasons/", seasons.seasons_list, name="seasons"),
    path("clubs/<slug:slug>/seasons/new/", seasons.season_new, name="season-new"),
    path("clubs/<slug:slug>/seasons/<int:season_id>/", seasons.season_detail, name="season-detail"),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/edit/", seasons.season_edit, name="season-edit"
    ),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/competitions/new/",
        seasons.competition_new,
        name="competition-new",
    ),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/competitions/<int:competition_id>/",
        seasons.competition_edit,
        name="competition-edit",
    ),
    path("clubs/<slug:slug>/season/", seasons.public_seasons, name="public-seasons"),
    path("clubs/<slug:slug>/season/<int:season_id>/", seasons.public_season, name="public-season"),
    path(
        "clubs/<slug:slug>/season/<int:season_id>/season.pdf",
        seasons.season_pdf_file,
        name="season-pdf",
    ),
    path(
        "clubs/<slug:slug>/season/<int:season_id>/season.csv",
        seasons.season_csv_file,
        name="season-csv",
    ),
    path(
        "clubs/<slug:slug>/season/<int:season_id>/season.xlsx",
        seasons.season_csv_file,
        {"fmt": "xlsx"},
        name="season-xlsx",
    ),
    path(
        "clubs/<slug:slug>/season/<int:season_id>/<int:competition_id>/",
        seasons.public_competition,
        name="public-competition",
    ),
    path(
        "clubs/<slug:slug>/season/<int:season_id>/<int:competition_id>/competition.csv",
        seasons.competition_csv_file,
        name="competition-csv",
    ),
    path(
        "clubs/<slug:slug>/season/<int:season_id>/<int:competition_id>/competition.xlsx",
        seasons.competition_csv_file,
        {"fmt": "xlsx"},
        name="competition-xlsx",
    ),
    path("events/import/", exports.event_import, name="event-import-file"),
    path("events/<int:pk>/export/<slug:fmt>/", exports.event_export, name="event-export"),
    path("results/<int:pk>/export.<slug:fmt>", exports.public_export, name="public-export"),
    path("events/<int:pk>/", events.event_detail, name="event-detail"),
    path("events/<int:pk>/pairs/", pairs.event_pairs, name="event-pairs"),
    path("events/<int:pk>/pairs/move/", pairs.event_move_pair, name="event-move-pair"),
    path("events/<int:pk>/pairs/leave/", pairs.event_pair_leave, name="event-pair-leave"),
    path("events/<int:pk>/pairs/arrive/", pairs.event_pair_arrive, name="event-pair-arrive"),
    path(
        "events/<int:pk>/pairs/<int:pair_id>/presence/undo/",
        pairs.event_pair_presence_undo,
        name="event-pair-presence-undo",
    ),
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
    path("drives/new/", drives.drive_new, name="drive-new"),
    path("drives/<int:pk>/", drive_public.drive_public, name="drive-public"),
    path("drives/<int:pk>/display/", drive_public.drive_display, name="drive-display"),
    path("drives/<int:pk>/players/<int:number>/", drive_public.drive_player, name="drive-player"),
    path("drives/<int:pk>/manage/", drives.drive_detail, name="drive-detail"),
    path("drives/<int:pk>/manage/players/", drives.drive_players, name="drive-players"),
    path("drives/<int:pk>/manage/start/", drives.drive_start, name="drive-start"),
    path("drives/<int:pk>/manage/enter/", drives.drive_enter, name="drive-enter"),
    path("drives/<int:pk>/manage/next/", drives.drive_next, name="drive-next"),
    path("drives/<int:pk>/manage/correct/", drives.drive_correct, name="drive-correct"),
    path(
        "drives/<int:pk>/manage/players/<str:action>/",
        drives.drive_comes_and_goes,
        name="drive-comes-goes",
    ),
    path("drives/<int:pk>/manage/status/<str:action>/", drives.drive_status, name="drive-status"),
    path("drives/<int:pk>/manage/totals/", drives.drive_totals, name="drive-totals"),
    path("drives/<int:pk>/manage/export/<slug:what>.csv", drives.drive_export, name="drive-export"),
    path(
        "drives/<int:pk>/manage/export/<slug:what>.xlsx",
        drives.drive_export,
        {"fmt": "xlsx"},
        name="drive-export-xlsx",
    ),
    path("drives/<int:pk>/manage/export/json/", drive_export_json, name="drive-export-json"),
    path("drives/<int:pk>/manage/print/<slug:what>.pdf", drives.drive_print, name="drive-print"),
    path("drives/<int:pk>/manage/room/", drive_room.drive_room, name="drive-room"),
    path("drives/<int:pk>/manage/cards/", drive_cards.drive_cards_page, name="drive-cards"),
    path("drives/<int:pk>/manage/room/part/", drive_room.drive_room_part, name="drive-room-part"),
    path("drives/<int:pk>/manage/moves-on/", drive_room.drive_moves_on, name="drive-moves-on"),
    path(
        "drives/<int:pk>/manage/tablets/<int:table>/replace/",
        drive_room.drive_link_replace,
        name="drive-link-replace",
    ),
    # Bid Whist team tournaments and leagues.
    path("tournaments/new/", teams.tournament_new, name="tournament-new"),
    path("tournaments/<int:pk>/", team_public.tournament_public, name="tournament-public"),
    path(
        "tournaments/<int:pk>/teams/<int:number>/",
        team_public.tournament_team,
        name="tournament-team",
    ),
    path("tournaments/<int:pk>/manage/", teams.tournament_detail, name="tournament-detail"),
    path("tournaments/<int:pk>/manage/teams/", teams.tournament_teams, name="tournament-teams"),
    path("tournaments/<int:pk>/manage/room/", teams.tournament_room, name="tournament-room"),
    path(
        "tournaments/<int:pk>/manage/settings/",
        teams.tournament_settings,
        name="tournament-settings",
    ),
    path("tournaments/<int:pk>/manage/start/", teams.tournament_start, name="tournament-start"),
    path("tournaments/<int:pk>/manage/enter/", teams.tournament_enter, name="tournament-enter"),
    path(
        "tournaments/<int:pk>/manage/forfeit/", teams.tournament_forfeit, name="tournament-forfeit"
    ),
    path(
        "tournaments/<int:pk>/manage/withdraw/",
        teams.tournament_withdraw,
        name="tournament-withdraw",
    ),
    path("tournaments/<int:pk>/manage/next/", teams.tournament_next, name="tournament-next"),
    path(
        "tournaments/<int:pk>/manage/playoff/", teams.tournament_playoff, name="tournament-playoff"
    ),
    path("tournaments/<int:pk>/manage/tie/", teams.tournament_tie, name="tournament-tie"),
    path(
        "tournaments/<int:pk>/manage/status/<str:action>/",
        teams.tournament_status,
        name="tournament-status",
    ),
    path(
        "tournaments/<int:pk>/<slug:what>.csv",
        team_public.tournament_csv,
        name="tournament-csv",
    ),
    path(
        "tournaments/<int:pk>/<slug:what>.xlsx",
        team_public.tournament_csv,
        {"fmt": "xlsx"},
        name="tournament-xlsx",
    ),
    path(
        "tournaments/<int:pk>/manage/export/json/",
        tournament_export_json,
        name="tournament-export-json",
    ),
    path(
        "tournaments/<int:pk>/manage/print/<slug:what>.pdf",
        team_print.tournament_print,
        name="tournament-print",
    ),
    path(
        "tournaments/<int:pk>/manage/tablets/<int:table>/replace/",
        teams.tournament_link_replace,
        name="tournament-link-replace",
    ),
    path("leagues/<int:pk>/", team_public.league_public, name="league-detail"),
]
