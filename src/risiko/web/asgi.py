"""ASGI entry point (``risiko serve`` runs it with uvicorn).

HTTP goes to Django; WebSockets (``ws/online/<code>/``, the online tables) to Django
Channels, behind the session and authentication of the site and an origin check (the host
among ``ALLOWED_HOSTS``, then scheme, host and port the site's own:
:mod:`risiko.web.online.limits`); the lifespan starts the online tables' deadline scheduler.
"""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "risiko.web.settings")
django_application = get_asgi_application()  # sets Django up before the routes import models

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from risiko.web.online.limits import SameOriginValidator  # noqa: E402
from risiko.web.online.routing import websocket_urlpatterns  # noqa: E402
from risiko.web.online.scheduler import LifespanApp  # noqa: E402

application = ProtocolTypeRouter({
    "http": django_application,
    "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    "lifespan": LifespanApp(),
})
