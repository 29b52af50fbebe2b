"""Tables, seats, results, penalties, appeals and disciplinary records."""
