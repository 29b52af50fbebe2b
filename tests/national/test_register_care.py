"""The register's care (issue 21 item 2): RisiKoDataManager's possible duplicates (distances
worked by hand), merges with their audit (results moved, the old id kept for later reports),
pairs declared different (never listed again, once), suspensions with dates and a reason;
the page (Italian first, the national officer's only: the register is every club's)."""

from __future__ import annotations

import random
import re
from datetime import date

import pytest
from django.test import Client
from national_kit import report

from risiko.national.duplicates import (
    Candidate,
    distance,
    duplicate_text,
    possible_duplicates,
)
from risiko.national.report import read_report

# ---------------------------------------------------------------------------- the rule


def test_distances_worked_by_hand() -> None:
    # "mariorossi02/05/1980" vs "mariarossi02/05/1980": o -> a, 1
    a = duplicate_text(Candidate(1, "Mario", "Rossi", date(1980, 5, 2)))
    b = duplicate_text(Candidate(2, "Maria", "Rossi", date(1980, 5, 2)))
    assert distance(a, b) == 1
    # the same name, born 02/05/1980 and 20/05/1980: "02" -> "20", 2 substitutions
    c = duplicate_text(Candidate(3, "Mario", "Rossi", date(1980, 5, 20)))
    assert distance(a, c) == 2
    # a missing birth date is "null" (Java): "02/05/1980" -> "null" is 10 edits: beyond 4
    d = duplicate_text(Candidate(4, "Mario", "Rossi", None))
    assert d == "mariorossinull" and distance(a, d) == 5
    # capitals do not count (toLowerCase)
    assert duplicate_text(Candidate(5, "MARIO", "ROSSI", None)) == d


def test_the_fast_search_finds_what_comparing_every_pair_finds() -> None:
    rng = random.Random(21)
    names = ["Mario", "Maria", "Marco", "Luca", "Lucia", "Anna", "Ana", "Paolo"]
    surnames = ["Rossi", "Rosi", "Russo", "Bianchi", "Bianco", "Conti", "Conte"]
    people = [Candidate(i, rng.choice(names), rng.choice(surnames),
                        None if rng.random() < 0.3 else date(1980 + rng.randrange(3), 5,
                                                             1 + rng.randrange(3)))
              for i in range(1, 121)]
    texts = [(p.national_id, duplicate_text(p)) for p in people]
    every = sorted((a, b) for i, (a, x) in enumerate(texts) for b, y in texts[i + 1:]
                   if distance(x, y, 100) <= 4)
    assert sorted((p.first, p.second) for p in possible_duplicates(people)) == every
    assert len(every) > 100  # the sample has many


# ---------------------------------------------------------------------------- the store

FOUR_ROUNDS = ("2024-03-02", "2024-03-09", "2024-03-16", "2024-03-23")
#: Maria Rossi (201) and Mario Rossi (202), one character apart, each in a tournament
TWINS = [("p1", 201, "Maria", "Rossi"), ("p2", 102, "Bruno", "Conti"),
         ("p3", 103, "Carla", "Dini"), ("p4", 104, "Dario", "Esposito"),
         ("p5", 105, "Elena", "Fabbri"), ("p6", 106, "Fabio", "Galli"),
         ("p7", 107, "Gino", "Ivi"), ("p8", 108, "Ida", "Lupi")]
OTHER = [("p1", 202, "Mario", "Rossi"), *TWINS[1:]]


@pytest.fixture
def twins() -> None:
    from risiko.web.national.services import import_report

    import_report(read_report(report("Open A", dates=FOUR_ROUNDS, players=TWINS)), by="t")
    import_report(read_report(report("Open B", dates=("2024-05-04", "2024-05-11"),
                                     players=OTHER)), by="t")


@pytest.mark.db
@pytest.mark.django_db(transaction=True)
def test_merge_moves_the_results_keeps_the_old_id_and_is_audited(twins: None) -> None:
    from risiko.web.auditlog.models import AuditEntry
    from risiko.web.national import duplicates_services as svc
    from risiko.web.national.models import MergedPlayer, NationalPlayer, NationalResult
    from risiko.web.national.services import import_report, ranking

    pairs = [(d.first.national_id, d.second.national_id, d.distance)
             for d in svc.duplicates()]
    assert pairs == [(201, 202, 1)]
    svc.merge_players(202, 201, reason="stessa persona, tessera doppia", who="ufficiale")
    assert not NationalPlayer.objects.filter(national_id=201).exists()
    assert NationalResult.objects.filter(player__national_id=202).count() == 2
    assert MergedPlayer.objects.get().into.national_id == 202
    entry = AuditEntry.objects.get(action="register.merge")
    assert entry.data["gone"]["name"] == "Maria" and len(entry.data["results"]) == 1
    assert entry.data["reason"] == "stessa persona, tessera doppia"
    # Mario Rossi now has both tournaments in the 2024 list
    mario = next(p for p in ranking(2024).players if p.national_id == 202)
    assert mario.played == 2
    # the first report sent again (a new revision) counts for 202, never brings 201 back
    import_report(read_report(report("Open A", dates=FOUR_ROUNDS, players=TWINS,
                                      standings=[k for k, *_ in TWINS][::-1])), by="t")
    assert not NationalPlayer.objects.filter(national_id=201).exists()
    assert svc.duplicates() == []


@pytest.mark.db
@pytest.mark.django_db(transaction=True)
def test_a_report_naming_a_merged_id_and_its_target_is_refused(twins: None) -> None:
    from risiko.national.report import ReportError
    from risiko.web.national import duplicates_services as svc
    from risiko.web.national.models import NationalResult, NationalTournament, TournamentRevision
    from risiko.web.national.services import import_report

    svc.merge_players(202, 201, reason="stessa persona", who="ufficiale")
    before = (NationalTournament.objects.count(), TournamentRevision.objects.count(),
              NationalResult.objects.count())
    # Maria Rossi's old id 201 (merged into 202, Mario Rossi) at p1, 202 itself at p8
    both = [*TWINS[:7], ("p8", 202, "Mario", "Rossi")]
    with pytest.raises(ReportError) as caught:
        import_report(read_report(report("Open C", dates=("2024-09-07", "2024-09-14"),
                                         players=both)), by="t")
    fault = caught.value.fault
    assert fault.code == "national.register_merged_twice"
    assert fault.message("en") == (
        "players[0]: national ids 201 and 202 are one player, Mario Rossi (201 was merged"
        " into 202): the report names him twice")
    assert fault.message("it") == (
        "players[0]: gli ID nazionali 201 e 202 sono un solo giocatore, Mario Rossi (201 è"
        " stato unito a 202): il resoconto lo nomina due volte")
    assert len(caught.value.faults) == 1
    # nothing imported: no tournament, revision or result written
    assert (NationalTournament.objects.count(), TournamentRevision.objects.count(),
            NationalResult.objects.count()) == before
    assert not NationalTournament.objects.filter(name="Open C").exists()


@pytest.mark.db
@pytest.mark.django_db(transaction=True)
def test_refusals_and_pairs_declared_different(twins: None) -> None:
    from risiko.web.core.faults import ServiceError
    from risiko.web.national import duplicates_services as svc
    from risiko.web.national.models import DeclaredDifferent, NationalPlayer

    def codes(call) -> list[str]:  # type: ignore[no-untyped-def]
        with pytest.raises(ServiceError) as err:
            call()
        return [f.code for f in err.value.faults]

    # 102 and 202 both played Open B: two people
    assert codes(lambda: svc.merge_players(202, 102, reason="x", who="u")) == [
        "register.both_played"]
    assert codes(lambda: svc.merge_players(202, 201, reason=" ", who="u")) == [
        "register.reason"]
    assert codes(lambda: svc.merge_players(202, 999, reason="x", who="u")) == [
        "register.no_player"]
    svc.declare_different(202, 201, reason="fratelli", who="u")
    row = DeclaredDifferent.objects.get()
    assert (row.first.national_id, row.second.national_id) == (201, 202)  # lower first
    assert svc.duplicates() == []
    assert codes(lambda: svc.declare_different(201, 202, reason="x", who="u")) == [
        "register.conflict_different"]
    assert NationalPlayer.objects.count() == 9


@pytest.mark.db
@pytest.mark.django_db(transaction=True)
def test_a_suspension_has_dates_and_a_reason_and_leaves_the_list(twins: None) -> None:
    from risiko.web.core.faults import ServiceError
    from risiko.web.national import duplicates_services as svc
    from risiko.web.national.services import ranking

    with pytest.raises(ServiceError) as err:
        svc.suspend(102, date(2024, 6, 1), date(2024, 5, 1), reason="x", who="u")
    assert [f.code for f in err.value.faults] == ["register.suspension_dates"]
    row = svc.suspend(102, date(2024, 1, 1), date(2024, 12, 31),
                      reason="comportamento antisportivo", who="u")
    assert (row.start, row.end, row.reason) == (date(2024, 1, 1), date(2024, 12, 31),
                                               "comportamento antisportivo")
    assert 102 not in {p.national_id for p in ranking(2024).players if p.points}


@pytest.mark.db
@pytest.mark.django_db
def test_the_page_is_the_national_officers_and_speaks_italian(twins: None) -> None:
    from django.contrib.auth.models import Group, User

    from risiko.web.national.models import MergedPlayer

    assert Client().get("/nazionale/registro/").status_code == 302
    someone = Client()
    someone.force_login(User.objects.create_user("giocatore", password="x-y-z-123456"))
    assert someone.get("/nazionale/registro/").status_code == 403
    club_committee = User.objects.create_user("comitato", password="x-y-z-123456")
    club_committee.groups.add(Group.objects.get_or_create(name="committee")[0])
    one_club = Client()
    one_club.force_login(club_committee)
    assert one_club.get("/nazionale/registro/").status_code == 403  # a club's, not national
    officer = User.objects.create_user("ufficiale", password="x-y-z-123456")
    officer.groups.add(Group.objects.get_or_create(name="national_officer")[0])
    client = Client()
    client.force_login(officer)
    html = client.get("/nazionale/registro/").content.decode()
    assert "Possibili doppioni" in html and "Maria Rossi" in html and "Mario Rossi" in html
    token = re.search(r'name="once" value="([^"]+)"', html).group(1)  # type: ignore[union-attr]
    data = {"action": "merge", "merge-kept": 202, "merge-gone": 201,
            "merge-reason": "tessera doppia", "once": token}
    client.post("/nazionale/registro/", data)
    client.post("/nazionale/registro/", data)  # sent twice: merged once
    assert MergedPlayer.objects.count() == 1
    html = client.get("/nazionale/registro/").content.decode()
    assert "Nessun possibile doppione." in html


def _at_once(calls):  # type: ignore[no-untyped-def]
    """Run ``calls`` in threads released together; each answers its result or its error."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    barrier = threading.Barrier(len(calls))

    def one(call):  # type: ignore[no-untyped-def]
        try:
            barrier.wait(timeout=60)
            return call()
        except Exception as err:  # the refusal is the answer
            return err
        finally:
            connection.close()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(one, calls))


@pytest.mark.db
@pytest.mark.django_db(transaction=True)
def test_two_officers_at_once_merge_once_and_declare_once(twins: None) -> None:
    from risiko.web.core.faults import ServiceError
    from risiko.web.national import duplicates_services as svc
    from risiko.web.national.models import DeclaredDifferent, MergedPlayer, NationalResult

    outcomes = _at_once([lambda: svc.declare_different(201, 202, reason="fratelli",
                                                       who="u")] * 4)
    assert sum(isinstance(o, ServiceError) for o in outcomes) == 3
    assert DeclaredDifferent.objects.count() == 1
    DeclaredDifferent.objects.all().delete()
    outcomes = _at_once([lambda: svc.merge_players(202, 201, reason="doppia", who="u")] * 4)
    refused = [o for o in outcomes if isinstance(o, ServiceError)]
    assert len(refused) == 3
    assert {f.code for o in refused for f in o.faults} == {"register.no_player"}
    assert MergedPlayer.objects.count() == 1
    assert NationalResult.objects.filter(player__national_id=202).count() == 2
