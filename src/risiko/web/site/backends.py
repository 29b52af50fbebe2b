"""Authentication backend that gives the committee every permission ("the Django admin for
everything, for the committee"), so a committee member added in the admin needs no
permission ticked one by one."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import BaseBackend
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from .permissions import COMMITTEE, group_names


class CommitteeBackend(BaseBackend):
    """Answers only permission questions: yes for active committee members."""

    def authenticate(self, request: Any, **credentials: Any) -> None:
        return None

    def has_perm(
        self, user_obj: AbstractBaseUser | AnonymousUser, perm: str, obj: Any = None
    ) -> bool:
        return COMMITTEE in group_names(user_obj)

    def has_module_perms(
        self, user_obj: AbstractBaseUser | AnonymousUser, app_label: str
    ) -> bool:
        return COMMITTEE in group_names(user_obj)
