"""The club's Django project: settings, and one app per tournament concern.

Nothing in the game library or the tournament domain imports this package. Call
:func:`risiko.web.bootstrap.setup` before touching models outside ``manage``/ASGI.
"""
