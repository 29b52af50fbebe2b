"""URLs of the register's care (``/nazionale/registro/``; see :mod:`.duplicates_views`)."""

from __future__ import annotations

from django.urls import URLPattern, path

from . import duplicates_views as views

urlpatterns: list[URLPattern] = [
    path("", views.register_care, name="register_care"),
]
