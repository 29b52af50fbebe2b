"""The national ranking's store: clubs, national players, tournaments with their revisions."""
