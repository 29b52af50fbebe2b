"""URLs of the interclub pages (``/nazionale/interclub/``; see :mod:`.interclub_views`)."""

from __future__ import annotations

from django.urls import URLPattern, path

from . import interclub_views as views

urlpatterns: list[URLPattern] = [
    path("", views.interclub_events, name="interclub_events"),
    path("gestione/", views.interclub_manage, name="interclub_manage"),
    path("<int:event_id>/", views.interclub_event, name="interclub_event"),
    path("<int:event_id>.json", views.interclub_event_json, name="interclub_event_json"),
    path("<int:event_id>/gestione/", views.interclub_event_manage,
         name="interclub_event_manage"),
]
