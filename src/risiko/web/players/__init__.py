"""Players (people) and their acceptance of the regulation."""
