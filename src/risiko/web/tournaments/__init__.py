"""Tournaments, their entries (memberships), carry-over points (R17) and draws of lots."""
