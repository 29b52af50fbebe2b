"""URL configuration: the site foundation at the root, the language switch, the admin.

The admin's own login page is replaced by the site's rate-limited login (``admin/login/``
is matched before the admin's URLs). Apps add their URLs here; see docs/web.md.
"""

from __future__ import annotations

from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from risiko.web.site import views as site_views

urlpatterns = [
    path("favicon.ico", RedirectView.as_view(url=static("site/favicon.svg"), permanent=True)),
    path("admin/login/", site_views.admin_login),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("arbitro/", include("risiko.web.console.urls")),
    path("strumenti/", include("risiko.web.tools.urls")),
    path("online/", include("risiko.web.online.urls")),
    path("nazionale/", include("risiko.web.national.urls")),
    path("", include("risiko.web.public.urls")),
    path("", include("risiko.web.site.urls")),
]
