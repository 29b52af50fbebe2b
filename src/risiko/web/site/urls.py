"""URLs of the site foundation (included at the root by :mod:`risiko.web.urls`).

Names: ``home``, ``first_run``, ``login``, ``logout``, ``regulation``, ``regulation_lang``
(``lang``: it | en); ``set_language`` comes from ``django.conf.urls.i18n``.
"""

from __future__ import annotations

from django.contrib.auth.views import LogoutView
from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("first-run/", views.first_run, name="first_run"),
    path("login/", views.SiteLoginView.as_view(), name="login"),
    path("logout/", LogoutView.as_view(), name="logout"),
    path("regulation/", views.regulation, name="regulation"),
    path("regulation/<str:lang>/", views.regulation, name="regulation_lang"),
]
