"""API routes (see tournaments/api/views.py); the schema is at /api/schema/."""

from django.urls import URLPattern, URLResolver, path

from tournaments.api import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("events/", views.EventListApi.as_view(), name="api-events"),
    path("advice/", views.AdviceApi.as_view(), name="api-advice"),
    path("events/<int:pk>/", views.EventDetailApi.as_view(), name="api-event"),
    path(
        "events/<int:pk>/actions/<str:action>",
        views.EventActionApi.as_view(),
        name="api-event-action",
    ),
    path("events/<int:pk>/pairs", views.PairsApi.as_view(), name="api-pairs"),
    path("events/<int:pk>/boards/import", views.BoardsImportApi.as_view(), name="api-import"),
    path(
        "events/<int:pk>/boards/<int:number>/fouled",
        views.BoardFouledApi.as_view(),
        name="api-board-fouled",
    ),
    path("events/<int:pk>/results", views.ResultsApi.as_view(), name="api-results"),
    path(
        "events/<int:pk>/results/<int:result_id>/<str:action>",
        views.ResultActionApi.as_view(),
        name="api-result-action",
    ),
    path("events/<int:pk>/artificial", views.ArtificialApi.as_view(), name="api-artificial"),
    path("events/<int:pk>/standings", views.StandingsApi.as_view(), name="api-standings"),
    path("events/<int:pk>/room", views.RoomApi.as_view(), name="api-room"),
]
