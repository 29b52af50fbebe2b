"""Database backends of the club app (Django's, with what the club's data needs)."""
