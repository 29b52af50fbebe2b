"""No secret in a log: a logging filter that blanks the token-shaped parts of the paths and
query strings a log line carries (defence in depth: the online links exchange their token
for a session cookie at once, and no socket carries one in its URL, docs/online.md).

Blanked, in a record's message and in each of its text arguments (uvicorn's access formatter
reads its arguments one by one, so they keep their places):

- the value of any query parameter whose name holds ``token`` (``?token=...``,
  ``&invite_token=...``);
- the segment after the online links' prefixes (``/online/s/<token>/``,
  ``/online/invito/<token>/``);
- any path segment or query value shaped like a secret token: 20 or more characters of the
  URL-safe alphabet with both capitals and small letters (``secrets.token_urlsafe(24)``
  gives 32; table codes, 12, and slugs, all small letters, stay readable).

>>> redact('127.0.0.1:5 - "GET /ws/online/AbC/?lang=it&token=s3cr3t HTTP/1.1" 101')
'127.0.0.1:5 - "GET /ws/online/AbC/?lang=it&token=[redacted] HTTP/1.1" 101'
>>> redact("Not Found: /online/invito/x/")
'Not Found: /online/invito/[redacted]/'
>>> redact("/torneo/coppa-primavera-2027/serata/ /x/Zq3vR9kTw2LmNb7YpQa4Xc/")
'/torneo/coppa-primavera-2027/serata/ /x/[redacted]/'
"""

from __future__ import annotations

import logging
import re

REDACTED = "[redacted]"

_QUERY_TOKEN = re.compile(r"([?&;][^=&\s\"'#]*token[^=&\s\"'#]*=)[^&;\s\"'#]*", re.IGNORECASE)
_LINK = re.compile(r"(/online/(?:s|invito)/)[^/\s?\"'#]+")
_SHAPED = re.compile(
    r"(?<=[/=])(?=[A-Za-z0-9_-]*[A-Z])(?=[A-Za-z0-9_-]*[a-z])[A-Za-z0-9_-]{20,}"
    r"(?=[/?&;#\s\"']|$)")


def redact(text: str) -> str:
    """``text`` with the secrets of its paths and query strings replaced by ``[redacted]``
    (the rules above)."""
    text = _QUERY_TOKEN.sub(rf"\g<1>{REDACTED}", text)
    text = _LINK.sub(rf"\g<1>{REDACTED}", text)
    return _SHAPED.sub(REDACTED, text)


class RedactSecrets(logging.Filter):
    """A handler's filter (Django's ``LOGGING``, uvicorn's log config): every record passes,
    redacted (:func:`redact`). Its text arguments first, each in its place (uvicorn's
    access formatter reads them one by one); then, if the message they make still holds a
    secret (one in the format itself), the record carries that message redacted, without
    arguments (a ``%s`` of the format is never taken for a path's part)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Redact ``record`` in place; always True."""
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: redact(v) if isinstance(v, str) else v
                           for k, v in record.args.items()}
        try:
            said = record.getMessage()
        except (TypeError, ValueError):  # a format that does not fit its arguments: as is
            return True
        clean = redact(said)
        if clean != said:
            record.msg, record.args = clean, ()
        return True
