"""App config."""

from django.apps import AppConfig


class PublicConfig(AppConfig):
    """The public pages."""

    name = "risiko.web.public"
    label = "public"
