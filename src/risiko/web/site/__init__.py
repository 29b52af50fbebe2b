"""The site foundation: base layout, first run, login, groups and permissions, regulation.

Pages of the other apps extend ``base.html`` (see docs/web.md for its blocks) and protect
their views with :mod:`risiko.web.site.permissions`. This package's ``__init__`` imports no
Django, so :mod:`risiko.web.site.lan` can be used by the command line before Django starts.
"""
