"""Views of the referee console, one module per part: tournaments, evening (check-in and
seating), table (results), penalties (appeals, discipline), stages (R18), exports."""
