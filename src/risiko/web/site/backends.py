"""Authentication backend that gives the committee every permission ("the Django admin for
everything, for the committee"), so a committee member added in the admin needs no
permission ticked one by one."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import BaseBackend
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from .permissions import COMMITTEE, group_names

#: the national officer's permissions: a club's committee never holds them through this
#: backend (it approves its own club's reports otherwise; issue 21, clubs on one server)
NATIONAL_PERMISSIONS = frozenset({"national.approve_report", "national.manage_club_keys"})


class CommitteeBackend(BaseBackend):
    """Answers only permission questions: yes for active committee members, except the
    national officer's (:data:`NATIONAL_PERMISSIONS`)."""

    def authenticate(self, request: Any, **credentials: Any) -> None:
        return None

    def has_perm(
        self, user_obj: AbstractBaseUser | AnonymousUser, perm: str, obj: Any = None
    ) -> bool:
        return perm not in NATIONAL_PERMISSIONS and COMMITTEE in group_names(user_obj)

    def has_module_perms(
        self, user_obj: AbstractBaseUser | AnonymousUser, app_label: str
    ) -> bool:
        return COMMITTEE in group_names(user_obj)
