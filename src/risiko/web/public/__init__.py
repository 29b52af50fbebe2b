"""Public pages (no login): standings, evenings, players, stages, and the read-only JSON API."""
