"""Referee tools at the table: closing dice, attack check, card sets, turn clock, the board."""
