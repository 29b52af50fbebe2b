"""URL configuration: the admin for now; public and referee pages come with the web app."""

from __future__ import annotations

from django.contrib import admin
from django.urls import path

urlpatterns = [
    path("admin/", admin.site.urls),
]
