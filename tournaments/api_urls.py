"""The API's routes, one module per job (events, results, room, tablets, public, exports,
printing); the schema is at /api/schema/."""

from django.urls import URLPattern, URLResolver, path

from tournaments.drives.api import director as drives
from tournaments.drives.api import tablets as drive_tablets
from tournaments.events.api import events, printing, public, results, room, tablets
from tournaments.files import api as exports
from tournaments.files.api import DriveExportApi, PublicExportApi, TournamentExportApi
from tournaments.kernel.api import member_links, member_privacy, members, people
from tournaments.seasons import api as seasons
from tournaments.seasons import member_api
from tournaments.teams.api import director as team_api
from tournaments.teams.api import tablets as team_tablets

urlpatterns: list[URLPattern | URLResolver] = [
    path("clubs/<slug:slug>/people/", people.PeopleApi.as_view(), name="api-people"),
    path(
        "clubs/<slug:slug>/people/<int:user_id>/",
        people.PersonApi.as_view(),
        name="api-person",
    ),
    path(
        "clubs/<slug:slug>/invitations/<int:invitation_id>/",
        people.InvitationApi.as_view(),
        name="api-invitation",
    ),
    path("clubs/<slug:slug>/members/", members.MembersApi.as_view(), name="api-members"),
    path(
        "clubs/<slug:slug>/members/link/",
        member_links.MembersLinkApi.as_view(),
        name="api-members-link",
    ),
    path(
        "clubs/<slug:slug>/members/<int:member_id>/",
        members.MemberApi.as_view(),
        name="api-member",
    ),
    path(
        "clubs/<slug:slug>/members/<int:member_id>/history/",
        member_api.MemberHistoryApi.as_view(),
        name="api-member-history",
    ),
    path(
        "clubs/<slug:slug>/members/import/preview",
        members.MembersImportPreviewApi.as_view(),
        name="api-members-import-preview",
    ),
    path(
        "clubs/<slug:slug>/members/import/confirm",
        members.MembersImportConfirmApi.as_view(),
        name="api-members-import-confirm",
    ),
    path(
        "clubs/<slug:slug>/members/export",
        members.MembersExportApi.as_view(),
        name="api-members-export",
    ),
    path(
        "clubs/<slug:slug>/members/<int:member_id>/merge/",
        member_privacy.MemberMergeApi.as_view(),
        name="api-member-merge",
    ),
    path(
        "clubs/<slug:slug>/members/<int:member_id>/erase/",
        member_privacy.MemberEraseApi.as_view(),
        name="api-member-erase",
    ),
    path(
        "clubs/<slug:slug>/members/<int:member_id>/data/",
        member_privacy.MemberDataApi.as_view(),
        name="api-member-data",
    ),
    path("drives/", drives.DriveListApi.as_view(), name="api-drives"),
    path("drives/<int:pk>/", drives.DriveDetailApi.as_view(), name="api-drive"),
    path("drives/<int:pk>/players/", drives.DrivePlayersApi.as_view(), name="api-drive-players"),
    path("drives/<int:pk>/start/", drives.DriveStartApi.as_view(), name="api-drive-start"),
    path("drives/<int:pk>/results/", drives.DriveResultsApi.as_view(), name="api-drive-results"),
    path("drives/<int:pk>/correct/", drives.DriveCorrectApi.as_view(), name="api-drive-correct"),
    path("drives/<int:pk>/next/", drives.DriveNextApi.as_view(), name="api-drive-next"),
    path("drives/<int:pk>/arrive/", drives.DriveArriveApi.as_view(), name="api-drive-arrive"),
    path("drives/<int:pk>/leave/", drives.DriveLeaveApi.as_view(), name="api-drive-leave"),
    path("drives/<int:pk>/cards/", drives.DriveCardsApi.as_view(), name="api-drive-cards"),
    path("drives/<int:pk>/finish/", drives.DriveFinishApi.as_view(), name="api-drive-finish"),
    path("drives/<int:pk>/publish/", drives.DrivePublishApi.as_view(), name="api-drive-publish"),
    path(
        "drives/<int:pk>/print/<slug:what>.pdf",
        drives.DrivePaperApi.as_view(),
        name="api-drive-print",
    ),
    path("drives/<int:pk>/totals/", drives.DriveTotalsApi.as_view(), name="api-drive-totals"),
    path("drives/<int:pk>/export/json", DriveExportApi.as_view(), name="api-drive-export"),
    path("public/clubs/<slug:slug>/events/", public.ClubEventsApi.as_view(), name="api-club"),
    # The club's seasons (tournaments/seasons/api.py): for everyone, then for its directors.
    path(
        "public/clubs/<slug:slug>/seasons/",
        seasons.PublicSeasonsApi.as_view(),
        name="api-public-seasons",
    ),
    path(
        "public/clubs/<slug:slug>/seasons/<int:season_id>/",
        seasons.PublicSeasonApi.as_view(),
        name="api-public-season",
    ),
    path("clubs/<slug:slug>/seasons/", seasons.SeasonsApi.as_view(), name="api-seasons"),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/",
        seasons.SeasonApi.as_view(),
        name="api-season",
    ),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/competitions/",
        seasons.CompetitionsApi.as_view(),
        name="api-competitions",
    ),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/competitions/<int:competition_id>/",
        seasons.CompetitionApi.as_view(),
        name="api-competition",
    ),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/recompute",
        seasons.SeasonRecomputeApi.as_view(),
        name="api-season-recompute",
    ),
    path("public/events/<int:pk>/", public.PublicStandingsApi.as_view(), name="api-public"),
    path(
        "public/events/<int:pk>/boards/<int:number>/",
        public.PublicBoardApi.as_view(),
        name="api-public-board",
    ),
    path(
        "public/events/<int:pk>/pairs/<str:key>/",
        public.PublicPairApi.as_view(),
        name="api-public-pair",
    ),
    path(
        "public/events/<int:pk>/export/<slug:fmt>",
        PublicExportApi.as_view(),
        name="api-public-export",
    ),
    path("events/import", exports.ImportApi.as_view(), name="api-import-event"),
    path(
        "events/<int:pk>/export/<slug:fmt>",
        exports.EventExportApi.as_view(),
        name="api-event-export",
    ),
    path("t/<str:token>/", tablets.TableStateApi.as_view(), name="api-table"),
    path("d/<str:token>/", drive_tablets.DriveTableStateApi.as_view(), name="api-drive-table"),
    path(
        "drives/<int:pk>/tablets/",
        drive_tablets.DriveLinksApi.as_view(),
        name="api-drive-tablets",
    ),
    path(
        "d/<str:token>/enter/",
        drive_tablets.DriveTableEnterApi.as_view(),
        name="api-drive-table-enter",
    ),
    path(
        "d/<str:token>/confirm/",
        drive_tablets.DriveTableConfirmApi.as_view(),
        name="api-drive-table-confirm",
    ),
    path(
        "d/<str:token>/wrong/",
        drive_tablets.DriveTableWrongApi.as_view(),
        name="api-drive-table-wrong",
    ),
    path("t/<str:token>/preview/", tablets.TablePreviewApi.as_view(), name="api-table-preview"),
    path("t/<str:token>/results/", tablets.TableResultsApi.as_view(), name="api-table-results"),
    path(
        "t/<str:token>/results/<int:result_id>/confirm/",
        tablets.TableConfirmApi.as_view(),
        name="api-table-confirm",
    ),
    path(
        "t/<str:token>/results/<int:result_id>/dispute/",
        tablets.TableDisputeApi.as_view(),
        name="api-table-dispute",
    ),
    path("t/<str:token>/call-director/", tablets.TableCallApi.as_view(), name="api-table-call"),
    path("events/", events.EventListApi.as_view(), name="api-events"),
    path("advice/", room.AdviceApi.as_view(), name="api-advice"),
    path("events/<int:pk>/", events.EventDetailApi.as_view(), name="api-event"),
    path("events/<int:pk>/actions/start", events.EventStartApi.as_view(), name="api-event-start"),
    path(
        "events/<int:pk>/actions/finish", events.EventFinishApi.as_view(), name="api-event-finish"
    ),
    path(
        "events/<int:pk>/actions/publish",
        events.EventPublishApi.as_view(),
        name="api-event-publish",
    ),
    path(
        "events/<int:pk>/actions/reopen", events.EventReopenApi.as_view(), name="api-event-reopen"
    ),
    path("events/<int:pk>/pairs", events.PairsApi.as_view(), name="api-pairs"),
    path("events/<int:pk>/pairs/arrive", events.PairArriveApi.as_view(), name="api-pair-arrive"),
    path(
        "events/<int:pk>/pairs/<int:pair_id>/leave",
        events.PairLeaveApi.as_view(),
        name="api-pair-leave",
    ),
    path(
        "events/<int:pk>/pairs/<int:pair_id>/presence/undo",
        events.PairPresenceUndoApi.as_view(),
        name="api-pair-presence-undo",
    ),
    path("events/<int:pk>/rounds/start", events.RoundStartApi.as_view(), name="api-round-start"),
    path("events/<int:pk>/boards/import", events.BoardsImportApi.as_view(), name="api-import"),
    path(
        "events/<int:pk>/boards/<int:number>/fouled",
        events.BoardFouledApi.as_view(),
        name="api-board-fouled",
    ),
    path("events/<int:pk>/results", results.ResultsApi.as_view(), name="api-results"),
    path(
        "events/<int:pk>/results/<int:result_id>/confirm",
        results.ResultConfirmApi.as_view(),
        name="api-result-confirm",
    ),
    path(
        "events/<int:pk>/results/<int:result_id>/dispute",
        results.ResultDisputeApi.as_view(),
        name="api-result-dispute",
    ),
    path(
        "events/<int:pk>/results/<int:result_id>/correct",
        results.ResultCorrectApi.as_view(),
        name="api-result-correct",
    ),
    path("events/<int:pk>/artificial", results.ArtificialApi.as_view(), name="api-artificial"),
    path("events/<int:pk>/standings", room.StandingsApi.as_view(), name="api-standings"),
    path("events/<int:pk>/room", room.RoomApi.as_view(), name="api-room"),
    path("events/<int:pk>/documents", printing.DocumentsApi.as_view(), name="api-print-documents"),
    path(
        "events/<int:pk>/documents/<slug:kind>.pdf",
        printing.DocumentPdfApi.as_view(),
        name="api-print-document",
    ),
    path("events/<int:pk>/print-pack", printing.PrintPackApi.as_view(), name="api-print-pack"),
    path(
        "events/<int:pk>/print-pack/<int:job_id>",
        printing.PrintPackStateApi.as_view(),
        name="api-print-pack-state",
    ),
    path(
        "events/<int:pk>/print-pack/<int:job_id>.pdf",
        printing.PrintPackPdfApi.as_view(),
        name="api-print-pack-pdf",
    ),
    path(
        "clubs/<slug:slug>/settings", printing.ClubSettingsApi.as_view(), name="api-club-settings"
    ),
    # Bid Whist team tournaments (tournaments/teams/api/director.py, team_tablets.py).
    path("tournaments/", team_api.TournamentListApi.as_view(), name="api-tournaments"),
    path("tournaments/<int:pk>/", team_api.TournamentApi.as_view(), name="api-tournament"),
    path("tournaments/<int:pk>/teams/", team_api.TeamsApi.as_view(), name="api-tournament-teams"),
    path(
        "tournaments/<int:pk>/teams/<int:number>/arrive/",
        team_api.ArriveApi.as_view(),
        name="api-tournament-arrive",
    ),
    path("tournaments/<int:pk>/start/", team_api.StartApi.as_view(), name="api-tournament-start"),
    path("tournaments/<int:pk>/next/", team_api.NextRoundApi.as_view(), name="api-tournament-next"),
    path("tournaments/<int:pk>/games/", team_api.GameApi.as_view(), name="api-tournament-games"),
    path(
        "tournaments/<int:pk>/forfeit/",
        team_api.ForfeitApi.as_view(),
        name="api-tournament-forfeit",
    ),
    path(
        "tournaments/<int:pk>/withdraw/",
        team_api.WithdrawApi.as_view(),
        name="api-tournament-withdraw",
    ),
    path(
        "tournaments/<int:pk>/playoff/",
        team_api.PlayoffApi.as_view(),
        name="api-tournament-playoff",
    ),
    path("tournaments/<int:pk>/tie/", team_api.TieGameApi.as_view(), name="api-tournament-tie"),
    path(
        "tournaments/<int:pk>/finish/", team_api.FinishApi.as_view(), name="api-tournament-finish"
    ),
    path(
        "tournaments/<int:pk>/export/json",
        TournamentExportApi.as_view(),
        name="api-tournament-export",
    ),
    path(
        "tournaments/<int:pk>/publish/",
        team_api.PublishApi.as_view(),
        name="api-tournament-publish",
    ),
    path("tournaments/<int:pk>/live/", team_api.LiveApi.as_view(), name="api-tournament-live"),
    path(
        "tournaments/<int:pk>/moves-on/",
        team_api.MovesOnApi.as_view(),
        name="api-tournament-moves-on",
    ),
    path(
        "tournaments/<int:pk>/standings/",
        team_api.PublicStandingsApi.as_view(),
        name="api-tournament-standings",
    ),
    path(
        "tournaments/<int:pk>/tablets/",
        team_tablets.TeamLinksApi.as_view(),
        name="api-tournament-tablets",
    ),
    path("tt/<str:token>/", team_tablets.TeamTableStateApi.as_view(), name="api-team-table"),
    path(
        "tt/<str:token>/enter/",
        team_tablets.TeamTableEnterApi.as_view(),
        name="api-team-table-enter",
    ),
    path(
        "tt/<str:token>/preview/",
        team_tablets.TeamTablePreviewApi.as_view(),
        name="api-team-table-preview",
    ),
    path(
        "tt/<str:token>/confirm/",
        team_tablets.TeamTableConfirmApi.as_view(),
        name="api-team-table-confirm",
    ),
    path(
        "tt/<str:token>/dispute/",
        team_tablets.TeamTableDisputeApi.as_view(),
        name="api-team-table-dispute",
    ),
]

# The tablets' routes first: they make most of the requests of a club night, and Django tries
# the routes in order (a hundred patterns tried cost a tablet request about a third of a
# millisecond). None of them can match another route's path.
TABLET_PREFIXES = ("t/", "d/", "tt/")
urlpatterns.sort(key=lambda route: not str(route.pattern).startswith(TABLET_PREFIXES))
