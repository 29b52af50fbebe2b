"""Evenings (serate): stage, schedule (R2/R3) and arrivals (R3)."""
