"""The public pages say what the presets that copy GestioneTorneo compute (issue 21 item 6):
a RisiKo! counted 100 in campionato-gufo@2, a cap that limits only the winner."""

from __future__ import annotations

from django.utils import translation

from risiko.tournament.format import get_format
from risiko.tournament.ranking import RankingPoints
from risiko.web.public.texts import formula_line


def test_the_formula_lines_say_the_new_parameters() -> None:
    capped = RankingPoints.from_dict({"formula": "win_bonus", "five_seat_factor": 1.25,
                                      "cap": 100})
    with translation.override("it"):
        assert formula_line(get_format("campionato-gufo@2").ranking_points).endswith(
            "Un RisiKo! vale 100 punti tavolo.")
        assert "al massimo 100 punti tavolo al vincitore" in formula_line(capped)
        assert "RisiKo!" not in formula_line(get_format("campionato-gufo").ranking_points)
    with translation.override("en"):
        assert "the winner's at most 100 table points" in formula_line(capped)
        every = RankingPoints.from_dict({**capped.to_dict(), "cap_players": "all"})
        assert ", at most 100 table points" in formula_line(every)
