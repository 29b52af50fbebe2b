"""WebSocket routes of the online tables."""

from __future__ import annotations

from django.urls import path

from .consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/online/<str:code>/", TableConsumer.as_asgi()),  # the default club's tables
    path("c/<slug:club>/ws/online/<str:code>/", TableConsumer.as_asgi()),  # a club's
]
