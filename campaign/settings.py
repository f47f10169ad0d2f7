"""Django settings for Admiralty.

Every setting a deployment may change is read from the environment through the small
typed helpers below, which raise ``ImproperlyConfigured`` on a bad value. The embedded
defaults need no service at all: SQLite in the project folder, Celery tasks run eagerly
in-process (development only: production settings need a broker or an explicit choice of
eager mode), media in ``./media``.

Environment variables:
    DJANGO_DEBUG          "1" (default) for development, "0" for production settings.
    DJANGO_SECRET_KEY     required when DJANGO_DEBUG=0.
    DJANGO_ALLOWED_HOSTS  comma-separated; default "127.0.0.1,localhost".
    DATABASE_URL          any dj-database-url URL (sqlite:////abs/db.sqlite3, postgres://…).
    MEDIA_ROOT            where rendered reports go; default ./media.
    SITE_ROOT             the published site, refreshed after each public change; ./site.
    SITE_BASE_URL         where that site is hosted (feed and sitemap URLs); unset: no
                          sitemap, relative feed links.
    CELERY_BROKER_URL     redis://… or amqp://…; required when DJANGO_DEBUG=0 unless
                          CELERY_TASK_ALWAYS_EAGER=1.
    CELERY_TASK_ALWAYS_EAGER  "1": run tasks in-process (in the web request); default
                          "1" when DJANGO_DEBUG=1 and no broker is set, else "0".
    CELERY_RESULT_BACKEND optional result backend (redis://…).
    CELERY_VISIBILITY_TIMEOUT  Redis: seconds before an unacknowledged task (its worker
                          died) is delivered again; default 360 (> the 300 s task limit).
    CELERY_UNACKED_RESTORE_INTERVAL  Redis: seconds between sweeps for those; default 10.
    STATIC_ROOT           where collectstatic puts static files (served by whitenoise).
    DJANGO_STATIC_COMPRESS "0" skips pre-compressing static files (default "1").
    AXES_FAILURE_LIMIT, AXES_COOLOFF_HOURS  log-in rate limit; default 5 failures, 0.25 h.
    APP_BASE_URL          the app's address, for the links notifications carry;
                          default http://127.0.0.1:8000.
    NOTIFY_ALLOW_PRIVATE_WEBHOOKS  "1" lets webhooks post to loopback or private
                          addresses (tests only); refused when DJANGO_DEBUG=0.
    EMAIL_HOST            SMTP server for invitations and password resets; unset → e-mails
                          are printed on the console. EMAIL_PORT (587), EMAIL_HOST_USER,
                          EMAIL_HOST_PASSWORD, EMAIL_USE_TLS (1), DEFAULT_FROM_EMAIL;
                          EMAIL_BACKEND overrides the backend chosen from EMAIL_HOST.
    INVITATION_EXPIRY_DAYS  days an invitation link stays valid; default 7.
    REDIS_CACHE_URL       redis://… for Django's cache, shared by the processes; unset →
                          a per-process memory cache (fleet pages and API).
    FLEET_CACHE_SECONDS   how long a cached fleet page or API answer lives; default 600;
                          0 turns those caches off.
    BATTLE_CACHE_SECONDS  how long a battle page's cached report lives; default 600; 0 off.
    TURN_CACHE_SECONDS    how long a cached campaign turn page or campaign page body
                          lives; default 600; 0 off.
"""

import importlib.util
import os
from pathlib import Path

import dj_database_url
from csp.constants import NONCE, NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_str(name: str, default: str = "") -> str:
    """Return the environment variable ``name`` or ``default``."""
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    """Return ``name`` read as a boolean ("1/0", "true/false", "yes/no", "on/off").

    Raises ImproperlyConfigured for any other value.
    """
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use 1 or 0)")


def env_list(name: str, default: str) -> list[str]:
    """Return a comma-separated environment variable as a list of stripped strings."""
    return [item.strip() for item in env_str(name, default).split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", True)

SECRET_KEY = env_str("DJANGO_SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG=0")
    SECRET_KEY = "django-insecure-development-key-admiralty-not-for-production"  # noqa: S105

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",  # {% htmx_script %}: serves htmx itself, no Node step
    "simple_history",  # audit trail: battles, sides, participants; ships, fleets, light units
    "csp",
    "axes",  # log-in rate limiting, against password guessing
    "campaign",  # the project: its commands and template tags (label "admiralty")
    "campaign.league",  # label "campaign"
    "factions",
    "battles",
    "campaign.turns",  # label "turns"
    "campaign.notify",  # label "notify": e-mail and webhook notifications
    "campaign.starmap",  # label "starmap"
    "campaign.fog",  # label "fog"
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files in production, from STATIC_ROOT after collectstatic (whitenoise docs).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "campaign.core.middleware.InputGuardMiddleware",  # size, NUL, surrogates
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: turns a locked-out log-in into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# Log-in rate limiting (django-axes, https://django-axes.readthedocs.io/): after
# AXES_FAILURE_LIMIT failed log-ins for one username from one address, that pair is
# refused for AXES_COOLOFF_TIME (hours) with a page that says so (HTTP 429). A success
# resets the count. Behind a proxy, Django sees the proxy's address: the proxy must set
# REMOTE_ADDR from the client (e.g. gunicorn --forwarded-allow-ips + nginx real_ip).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(env_str("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = float(env_str("AXES_COOLOFF_HOURS", "0.25"))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "campaign/lockout.html"
# Password-reset requests per hour (campaign.web.password_reset): each sends an e-mail.
PASSWORD_RESET_PER_ADDRESS = int(env_str("PASSWORD_RESET_PER_ADDRESS", "3"))
PASSWORD_RESET_PER_IP = int(env_str("PASSWORD_RESET_PER_IP", "10"))

ROOT_URLCONF = "campaign.urls"

#: django-ninja's own templates and static files (Swagger UI: /api/docs works offline),
#: found without importing it. Not an installed app: that imported the package (pydantic
#: and the whole API layer) with every command, 0.19-0.22 s of CPU at start-up (import
#: alone, 3 runs); the API now loads with the URLconf. Its ``export_openapi_schema``
#: command goes with it (the schema is served at /api/openapi.json).
NINJA_DIR = Path(importlib.util.find_spec("ninja").submodule_search_locations[0])

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates", NINJA_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

WSGI_APPLICATION = "campaign.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=60,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The connection is reused across requests only for servers; SQLite has no pool.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # A write transaction takes the lock when it begins (Django ≥ 5.1 "transaction_mode"),
    # and waits up to 20 s for it: two clicks on "publish" queue instead of one failing
    # with "database is locked" (a read transaction upgrading to write cannot wait).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20}
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Interface in French by default, English available; every time stored in UTC.
LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", _("French")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static", NINJA_DIR / "static"]
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))

# Hashed names in production (cached for a year), pre-compressed (gzip, brotli) unless
# DJANGO_STATIC_COMPRESS=0 (compressing takes collectstatic from seconds to minutes; the
# production-settings runs in tests and bench skip it); plain files in development.
if DEBUG:
    _STATIC_BACKEND = "django.contrib.staticfiles.storage.StaticFilesStorage"
elif env_bool("DJANGO_STATIC_COMPRESS", True):
    _STATIC_BACKEND = "whitenoise.storage.CompressedManifestStaticFilesStorage"
else:
    _STATIC_BACKEND = "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": _STATIC_BACKEND},
}

# Rendered reports; served by battles.web.media with the battle page's access rules.
MEDIA_URL = "media/"
MEDIA_ROOT = Path(env_str("MEDIA_ROOT", str(BASE_DIR / "media")))
# The published site: refreshed there after a report is published (campaign/tasks.py)
# when `build_site` baked it there first.
SITE_ROOT = Path(env_str("SITE_ROOT", str(BASE_DIR / "site")))
# Where the site is hosted: the absolute URLs of its Atom feed and sitemap.
# No default: only the host knows where the site is served (campaign/publish/feeds.py).
SITE_BASE_URL = env_str("SITE_BASE_URL", "")

# Django's cache: the fleet page body and API answer per data version and viewer scope
# (factions/fleet_cache.py). Per process by default; Redis when configured, shared.
if env_str("REDIS_CACHE_URL"):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": env_str("REDIS_CACHE_URL"),
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": 2000},
        }
    }
FLEET_CACHE_SECONDS = int(env_str("FLEET_CACHE_SECONDS", "600"))
BATTLE_CACHE_SECONDS = int(env_str("BATTLE_CACHE_SECONDS", "600"))
TURN_CACHE_SECONDS = int(env_str("TURN_CACHE_SECONDS", "600"))

# Request bodies (campaign/core/limits.py, README "Limits"): larger ones get a readable 413.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"

# E-mail (invitations, password resets): SMTP when EMAIL_HOST is set, else the console.
EMAIL_HOST = env_str("EMAIL_HOST")
EMAIL_BACKEND = env_str("EMAIL_BACKEND") or (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = int(env_str("EMAIL_PORT", "587"))
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "admiralty@localhost")
# An invitation link (campaign.league.invitations) is refused this many days after it was made.
INVITATION_EXPIRY_DAYS = int(env_str("INVITATION_EXPIRY_DAYS", "7"))

# Celery: a broker and a worker in production. Eager mode runs every task
# inside the web request (PDFs rendered there, the site rebuilt in a thread of the web
# worker), so production settings never fall back to it silently: without a broker it
# must be chosen with CELERY_TASK_ALWAYS_EAGER=1. Development (DJANGO_DEBUG=1) runs
# eagerly when no broker is set, so `make demo` needs no service.
# Eager mode still builds a broker connection object; "memory://" keeps it in-process.
CELERY_TASK_ALWAYS_EAGER = env_bool(
    "CELERY_TASK_ALWAYS_EAGER", DEBUG and not env_str("CELERY_BROKER_URL")
)
if not CELERY_TASK_ALWAYS_EAGER and not env_str("CELERY_BROKER_URL"):
    raise ImproperlyConfigured(
        "CELERY_BROKER_URL is not set and CELERY_TASK_ALWAYS_EAGER is not 1: set "
        "CELERY_BROKER_URL (redis://… or amqp://…) and run a Celery worker, or set "
        "CELERY_TASK_ALWAYS_EAGER=1 to run tasks inside the web process"
    )
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL") or "memory://localhost/"
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND") or None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_TIME_LIMIT = 300
CELERY_TASK_SOFT_TIME_LIMIT = 240
CELERY_TASK_ACKS_LATE = True
# A task whose worker dies mid-run is not lost: a killed pool child
# requeues its message instead of acknowledging it (WorkerLostError), and on Redis an
# unacknowledged message goes back to the queue after ``visibility_timeout`` seconds —
# longer than the longest task may run (CELERY_TASK_TIME_LIMIT), or a slow task would run
# twice. RabbitMQ requeues at once when the worker's connection drops. Tasks are
# idempotent (battles.reports.tasks), so a second run is harmless.
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # late acks: reserve one message at a time
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(env_str("CELERY_VISIBILITY_TIMEOUT", "360")),
    # kombu sweeps for expired unacknowledged messages every interval × throttle s.
    "unacked_restore_interval": int(env_str("CELERY_UNACKED_RESTORE_INTERVAL", "10")),
    "unacked_restore_throttle": 1,
}
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
# Turns past their deadline are closed every 5 minutes, and turn-by-turn battle turns past
# theirs are played every minute, by a worker running beat (`celery -A campaign beat`);
# without a broker, cron `manage.py close_due_turns` / `manage.py play_due_turns` (README).
CELERY_BEAT_SCHEDULE = {
    "close-due-turns": {"task": "turns.close_due_turns", "schedule": 300.0},
    "play-due-battle-turns": {"task": "battles.play_due_turns", "schedule": 60.0},
    # The "deadline 24 h away" reminder, once per turn and member (campaign.notify.reminders).
    "notify-deadline-reminders": {"task": "notify.remind_deadlines", "schedule": 900.0},
    # Deliveries left queued (the broker refused them, a worker was lost) are queued again.
    "notify-requeue-stale": {"task": "notify.requeue_stale", "schedule": 900.0},
}

# Notifications (campaign.notify): the links they carry start with the app's address;
# webhooks never post to loopback, private or link-local addresses unless
# NOTIFY_ALLOW_PRIVATE_WEBHOOKS, which is for the tests' local receiver only: refused with
# DJANGO_DEBUG=0 and by `check --deploy` (notify.E001).
APP_BASE_URL = env_str("APP_BASE_URL", "http://127.0.0.1:8000")
NOTIFY_ALLOW_PRIVATE_WEBHOOKS = env_bool("NOTIFY_ALLOW_PRIVATE_WEBHOOKS", False)
if NOTIFY_ALLOW_PRIVATE_WEBHOOKS and not DEBUG:
    raise ImproperlyConfigured(
        "NOTIFY_ALLOW_PRIVATE_WEBHOOKS must not be set when DJANGO_DEBUG=0: webhooks would "
        "reach the server's own network"
    )

if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 31536000
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"
    if len(SECRET_KEY) < 50:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be at least 50 characters long")

# Content-Security-Policy (django-csp 4, against injected script): no inline script anywhere, no
# inline <style> element without the page's nonce (campaign.core.csp.nonce_styles, for the SSD
# SVGs; htmx's indicator style is turned off in base.html). Inline style *attributes* stay
# allowed (style-src-attr): the SSD shrinks long titles and the gauges set their width
# with one; an attribute cannot hold a selector, so it cannot read the page.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, NONCE],
        "style-src-attr": [UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("DJANGO_LOG_LEVEL", "WARNING")},
}
