"""URLs of the online tables (mounted at ``/online/``)."""

from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("", views.lobby, name="online_lobby"),
    path("nuovo/", views.create, name="online_create"),
    path("t/<str:code>/", views.table_page, name="online_table"),
    path("t/<str:code>/siedi/", views.join, name="online_join"),
    path("t/<str:code>/inizia/", views.start, name="online_start"),
    path("t/<str:code>/replay/", views.replay, name="online_replay"),
    path("t/<str:code>/record.txt", views.record, name="online_record"),
    path("s/<str:token>/", views.seat_link, name="online_seat_link"),
    path("inviti/", views.invites, name="online_invites"),
    path("invito/", views.accept_form, name="online_accept_form"),
    path("invito/<str:token>/", views.accept, name="online_accept"),
    path("serata/<slug:slug>/<str:date>/", views.evening, name="online_evening"),
    path("serata/<slug:slug>/<str:date>/arrivo/", views.evening_arrive,
         name="online_evening_arrive"),
    path("risultato/<int:pk>/", views.keep_result, name="online_keep_result"),
]
