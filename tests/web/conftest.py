"""Fixtures of the web tests: accounts (a referee, the committee, any user), a client logged
in as the referee, and fast password hashing.

Password hashing at its production cost (PBKDF2, a few hundred ms a login) would make each
test that logs in slow: a module asks for ``fast_hashing`` (MD5: tests only), usually as
``pytestmark = pytest.mark.usefixtures("fast_hashing")``. A module that needs its referee or
committee as something else (a logged-in session against a live server) defines its own
fixture of that name, built with ``make_user``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

#: the password of every test account
PASSWORD = "tavolo-rosso-42"


@pytest.fixture
def fast_hashing(settings: Any) -> None:
    """Passwords hashed with MD5 in this test (never in production)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def make_user() -> Callable[..., Any]:
    """``make_user(name, *groups, **extra)``: a new account with :data:`PASSWORD`, in the
    groups named (``referee``, ``committee``; created when missing)."""
    from django.contrib.auth.models import Group, User

    def make(name: str, *groups: str, **extra: Any) -> Any:
        user = User.objects.create_user(name, password=PASSWORD, **extra)
        for g in groups:
            user.groups.add(Group.objects.get_or_create(name=g)[0])
        return user

    return make


@pytest.fixture
def referee(make_user: Callable[..., Any]) -> Any:
    """The account ``arbitro``, a referee."""
    return make_user("arbitro", "referee")


@pytest.fixture
def committee(make_user: Callable[..., Any]) -> Any:
    """The account ``comitato``, of the committee."""
    return make_user("comitato", "committee")


@pytest.fixture
def ref_client(referee: Any) -> Any:
    """A test client logged in as :func:`referee`."""
    from django.test import Client

    client = Client()
    client.force_login(referee)
    return client


@pytest.fixture
def login(make_user: Callable[..., Any]) -> Callable[..., Any]:
    """``login(name, *groups)``: a test client logged in as a new account (see
    :func:`make_user`)."""
    from django.test import Client

    def client_of(name: str, *groups: str) -> Any:
        client = Client()
        client.force_login(make_user(name, *groups))
        return client

    return client_of
