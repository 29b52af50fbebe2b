"""Django settings of the club app.

Environment (production is the default):

- ``DATABASE_URL``: any database dj-database-url understands (``postgres://...``); without it
  an SQLite file ``risiko.sqlite3`` in the per-user data directory (``RISIKO_DATA_DIR``
  overrides that directory).
- ``RISIKO_SECRET_KEY``: the secret key; without it one is generated once and kept in the
  data directory (``secret.key``, mode 600), so a laptop at the venue needs no set-up.
  The data directory is created ``0700`` and the SQLite database ``0600`` (its ``-wal`` and
  ``-shm`` files follow it), each with that mode from the first byte
  (:mod:`risiko.web.private_files`).
- ``RISIKO_ALLOWED_HOSTS``: comma list (default: localhost names; ``risiko serve --host``
  adds the served address). ``RISIKO_DEBUG=1`` turns DEBUG on (``risiko serve --dev``).
- Behind HTTPS (a reverse proxy): ``RISIKO_TRUSTED_PROXIES`` (the proxies' addresses or
  networks), ``RISIKO_HTTPS=1`` (Secure cookies, HSTS for ``RISIKO_HSTS_SECONDS``),
  ``RISIKO_CSRF_TRUSTED_ORIGINS`` (``https://club.example``). ``RISIKO_ALLOW_REMOTE_SETUP=1``
  lets the first referee be created from another machine.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

import dj_database_url
import platformdirs

from risiko.web.private_files import private_dir, write_private_once

BASE_DIR = Path(__file__).resolve().parent


def data_dir() -> Path:
    """The per-user data directory, only its owner may enter it (created ``0700``)."""
    path = Path(os.environ.get("RISIKO_DATA_DIR") or platformdirs.user_data_dir("risiko-club"))
    return private_dir(path)


def _secret_key() -> str:
    env = os.environ.get("RISIKO_SECRET_KEY")
    if env:
        return env
    key = write_private_once(data_dir() / "secret.key", secrets.token_urlsafe(50))
    return key.strip()


DEBUG = os.environ.get("RISIKO_DEBUG", "") in ("1", "true", "yes")
SECRET_KEY = _secret_key()
ALLOWED_HOSTS = [
    h.strip()
    for h in os.environ.get("RISIKO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",")
    if h.strip()
]
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("RISIKO_CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "risiko.web.core",
    "risiko.web.players",
    "risiko.web.tournaments",
    "risiko.web.evenings",
    "risiko.web.results",
    "risiko.web.auditlog",
    "risiko.web.site",
    "risiko.web.public",
    "risiko.web.console",
    "risiko.web.tools",
    "risiko.web.online",
    "risiko.web.national",
    "risiko.web.live",
]

MIDDLEWARE = [
    "risiko.web.site.middleware.TrustedProxyMiddleware",  # first: the client's address
    "django.middleware.security.SecurityMiddleware",
    "risiko.web.site.middleware.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "risiko.web.clubs.ClubMiddleware",  # /c/<club>/...: request.club and the club scope
    "django.contrib.sessions.middleware.SessionMiddleware",
    "risiko.web.site.middleware.ClubLanguageMiddleware",  # Italian unless switched
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "risiko.web.site.middleware.FirstRunMiddleware",
    "risiko.web.site.middleware.NoStoreMiddleware",  # the referees' pages never kept
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "risiko.web.urls"

TEMPLATES: list[dict[str, Any]] = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "risiko.web.site.context_processors.site",
                "risiko.web.site.context_processors.csp_nonce",
                "risiko.web.live.context_processors.live_pages",
            ],
        },
    },
]

ASGI_APPLICATION = "risiko.web.asgi.application"

# Online tables (docs/online.md): the channel layer carries a table's changes to every
# connection. In memory for one process (`make run`); Redis (REDIS_URL) for several workers.
CHANNEL_LAYERS: dict[str, Any] = (
    {"default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                 "CONFIG": {"hosts": [os.environ["REDIS_URL"]],
                            "prefix": os.environ.get("RISIKO_CHANNELS_PREFIX", "asgi")}}}
    if os.environ.get("REDIS_URL")
    else {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
)
#: the live pages (issue 18): a saved change pushed to the open pages over ws/live/
#: (RISIKO_LIVE=0 turns it off: the pages poll every 10 s)
RISIKO_LIVE = os.environ.get("RISIKO_LIVE", "1") != "0"
RISIKO_ONLINE_SCHEDULER = True  # each worker fires due deadlines (exactly once: a row claim)
RISIKO_ONLINE_TICK = 0.25  # seconds between two looks at the deadlines
#: presence: each worker beats for the seats it holds a connection of every
#: RISIKO_ONLINE_HEARTBEAT seconds; a connected seat without a beat for
#: RISIKO_ONLINE_PRESENCE_STALE seconds (its worker died) counts as disconnected
RISIKO_ONLINE_HEARTBEAT = 10.0
#: seconds after a worker's start, with a seat connected, when it freezes what it built
#: while warming up out of the garbage collector's walks (scheduler.freeze_after_warm_up;
#: 0: never)
RISIKO_ONLINE_WARM_FREEZE = float(os.environ.get("RISIKO_ONLINE_WARM_FREEZE", "30"))
RISIKO_ONLINE_PRESENCE_STALE = 30.0


#: Django's SQLite backend creating the database file private (0600) before SQLite opens it.
SQLITE_ENGINE = "risiko.web.dbbackends.sqlite3"
#: SQLite: write-ahead log (readers never wait for the writer), and every transaction takes
#: the write lock when it begins (IMMEDIATE), so a second writer waits up to ``timeout``
#: seconds for it instead of failing with "database is locked" when it upgrades a read.
SQLITE_OPTIONS: dict[str, Any] = {
    "timeout": 20,
    "transaction_mode": "IMMEDIATE",
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}
#: the public pages after a change answer with the standings from before it while a thread
#: computes the new ones (risiko.web.public.data.snapshot; ``risiko serve`` turns it on)
RISIKO_PUBLIC_BACKGROUND = os.environ.get("RISIKO_PUBLIC_BACKGROUND", "") == "1"
#: SQLite: idle connections kept per process between requests (risiko.web.dbbackends.sqlite3;
#: ``risiko serve`` sets 8; 0: a new connection per request, closed at its end)
RISIKO_SQLITE_KEEP = int(os.environ.get("RISIKO_SQLITE_KEEP") or 0)
RISIKO_SQLITE_KEEP_SECONDS = 300.0
#: PostgreSQL: a bounded pool of connections (psycopg's), given back after each request
#: whatever thread served it (``RISIKO_DB_POOL_MAX``, default 8; ``0``: no pool, a connection
#: per request closed at its end). Never persistent connections: under the ASGI server each
#: request may run in another thread, and a thread's connection would stay open.
POSTGRES_POOL_MAX = int(os.environ.get("RISIKO_DB_POOL_MAX") or 8)
POSTGRES_POOL: dict[str, Any] = {"min_size": 1, "max_size": POSTGRES_POOL_MAX, "timeout": 20}


def _database() -> dict[str, Any]:
    url = os.environ.get("DATABASE_URL")
    if url:
        db: dict[str, Any] = dict(dj_database_url.parse(url, conn_max_age=0))
        if db["ENGINE"] == "django.db.backends.postgresql" and POSTGRES_POOL_MAX > 0:
            db.setdefault("OPTIONS", {})["pool"] = dict(POSTGRES_POOL)
        elif db["ENGINE"] == "django.db.backends.sqlite3":
            db["ENGINE"] = SQLITE_ENGINE  # the database file created 0600
            db["OPTIONS"] = {**SQLITE_OPTIONS, **db.get("OPTIONS", {})}
        return db
    return {
        "ENGINE": SQLITE_ENGINE,
        "NAME": str(data_dir() / "risiko.sqlite3"),
        "OPTIONS": dict(SQLITE_OPTIONS),
    }


DATABASES = {"default": _database()}
#: the largest file the console accepts (a sheet, a season file), in bytes; larger uploads are
#: refused before they are read (risiko.web.core.uploads)
RISIKO_UPLOAD_MAX_BYTES = int(os.environ.get("RISIKO_UPLOAD_MAX_BYTES") or 4 * 1024 * 1024)
#: the largest body of any other request, in bytes: refused with 413 before it is read
#: (risiko.web.asgi.BodyLimit)
RISIKO_REQUEST_MAX_BYTES = int(os.environ.get("RISIKO_REQUEST_MAX_BYTES") or 1024 * 1024)
# Nothing is spooled to disk: a body the door let in (at most the upload limit and 64 KiB for
# the form) stays in memory, and so does an uploaded file.
FILE_UPLOAD_MAX_MEMORY_SIZE = max(RISIKO_UPLOAD_MAX_BYTES + 64 * 1024, RISIKO_REQUEST_MAX_BYTES)
FILE_UPLOAD_HANDLERS = ["django.core.files.uploadhandler.MemoryFileUploadHandler"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "it"
LANGUAGES = [("it", "Italiano"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Rome"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = data_dir() / "static"
STATIC_ROOT.mkdir(exist_ok=True)  # WhiteNoise warns when it is missing
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "risiko.web.site.backends.CommitteeBackend",  # the committee may do everything
]
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
RISIKO_CLUB_NAME = os.environ.get("RISIKO_CLUB_NAME", "Risiko! Club Milano")
#: the default club's identifier on the national ranking (the report's ``club.id``; default:
#: the slug of RISIKO_CLUB_NAME): the club today's URLs serve (risiko.web.clubs)
RISIKO_CLUB_ID = os.environ.get("RISIKO_CLUB_ID", "")
#: the public pages show a penalty's reason and the referee who gave it only if the club says so
#: (RISIKO_PUBLIC_PENALTY_DETAILS=1); the points, the kind and an appeal's outcome always
RISIKO_PUBLIC_PENALTY_DETAILS = os.environ.get("RISIKO_PUBLIC_PENALTY_DETAILS", "") == "1"


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


def _int(name: str, default: int) -> int:
    return int(os.environ.get(name) or default)


# The login limit, counted in the database (every worker shares it): attempts ...
# ... per username and address (or per username on a known device),
RISIKO_LOGIN_MAX_FAILURES = _int("RISIKO_LOGIN_MAX_FAILURES", 5)
RISIKO_LOGIN_MAX_FAILURES_PER_ADDRESS = _int(  # ... per client address, any username,
    "RISIKO_LOGIN_MAX_FAILURES_PER_ADDRESS", 30)
RISIKO_LOGIN_MAX_FAILURES_PER_USERNAME = _int(  # ... per username, any address,
    "RISIKO_LOGIN_MAX_FAILURES_PER_USERNAME", 20)
RISIKO_LOGIN_WINDOW = _int("RISIKO_LOGIN_WINDOW", 15 * 60)  # ... in this many seconds
# Club keys for publishing to the national ranking (risiko.web.national.publishing): each
# club's secret is derived from this master secret and the key's public id, never stored
# (RISIKO_CLUB_KEY_SECRET; default: derived from SECRET_KEY, so changing either makes every
# issued club key invalid). Reports received over HTTP are limited per client address and
# per club key in RISIKO_LOGIN_WINDOW seconds.
RISIKO_CLUB_KEY_SECRET = os.environ.get("RISIKO_CLUB_KEY_SECRET", "")
# The national ranking's identifier of this server's club (the console's publish form and
# `risiko national publish` default to it).
RISIKO_NATIONAL_CLUB_ID = os.environ.get("RISIKO_NATIONAL_CLUB_ID", "")
RISIKO_PUBLISH_MAX_PER_ADDRESS = _int("RISIKO_PUBLISH_MAX_PER_ADDRESS", 60)
RISIKO_PUBLISH_MAX_PER_KEY = _int("RISIKO_PUBLISH_MAX_PER_KEY", 30)

# Online tables, continued (they read the environment through _int):
#: the limits of one table socket (risiko.web.online.limits): messages per second and the
#: burst allowed over it, then refused and closed (1008); table sockets at once per user
#: (or browser session, or seat token) and per client address: generous, the phones of a
#: venue share the address of its Wi-Fi. With REDIS_URL counted across the workers in the
#: channel layer's Redis; a killed worker's sockets stop counting RISIKO_ONLINE_SOCKET_EXPIRY
#: seconds after its last heartbeat (3 heartbeats)
RISIKO_ONLINE_MESSAGES_PER_SECOND = _int("RISIKO_ONLINE_MESSAGES_PER_SECOND", 20)
RISIKO_ONLINE_MESSAGE_BURST = _int("RISIKO_ONLINE_MESSAGE_BURST", 60)
RISIKO_ONLINE_SOCKETS_PER_USER = _int("RISIKO_ONLINE_SOCKETS_PER_USER", 30)
RISIKO_ONLINE_SOCKETS_PER_ADDRESS = _int("RISIKO_ONLINE_SOCKETS_PER_ADDRESS", 500)
RISIKO_ONLINE_SOCKET_EXPIRY = _int("RISIKO_ONLINE_SOCKET_EXPIRY", 30)


# Behind a reverse proxy: the proxies whose X-Forwarded-For / X-Forwarded-Proto are believed
# (addresses or networks, comma separated; `risiko serve --trusted-proxy`). From anyone else
# those headers are dropped (risiko.web.site.middleware.TrustedProxyMiddleware), so Django's
# SECURE_PROXY_SSL_HEADER below only ever sees a trusted proxy's word.
RISIKO_TRUSTED_PROXIES = os.environ.get("RISIKO_TRUSTED_PROXIES", "")
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Served to browsers over HTTPS (`risiko serve --https`, RISIKO_HTTPS=1): cookies only over
# HTTPS and HSTS (RISIKO_HSTS_SECONDS, default one year) on every HTTPS answer.
RISIKO_HTTPS = _flag("RISIKO_HTTPS")
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = LANGUAGE_COOKIE_SECURE = RISIKO_HTTPS
SECURE_HSTS_SECONDS = _int("RISIKO_HSTS_SECONDS", 31_536_000) if RISIKO_HTTPS else 0
# The first referee is created from the machine that runs the server only, unless this is
# set (`risiko serve --allow-remote-setup`, RISIKO_ALLOW_REMOTE_SETUP=1).
RISIKO_ALLOW_REMOTE_SETUP = _flag("RISIKO_ALLOW_REMOTE_SETUP")
# Content-Security-Policy of every answer ({nonce}: a new value per request, given to
# templates as csp_nonce for the few inline <style> elements, e.g. the SVG board's).
RISIKO_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'nonce-{nonce}'; "
    "img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; "
    "base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False
X_FRAME_OPTIONS = "DENY"

# Server errors (500) go to the terminal that runs `risiko serve`, with the traceback; the
# paths they name have their secret tokens blanked (risiko.web.core.redact, docs/online.md).
LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"secrets": {"()": "risiko.web.core.redact.RedactSecrets"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["secrets"]}},
    "loggers": {
        "django.request": {"handlers": ["console"], "level": "ERROR", "propagate": False},
        "django.server": {"handlers": ["console"], "level": "INFO", "propagate": False},
    },
}
