"""The publish → approve/refuse flow (risiko.web.national.publishing): statuses with their
audit trail, the estimate, club keys, the signed HTTP endpoint, the console's and the
officer's pages, ``risiko national publish``.

The report of most tests is an open of 2019 (the 2019 rules: at least 1 table, every result
counts) with one game of 4 seats, T = 1: p1 (Anna Bassi, 101) first with 1.2 * 101 * 2 =
242.40; p2 (102) 202 * exp(-2/20) = 182.777 -> 182.78; p3 (103) 202 * exp(-3/20) = 173.863
-> 173.86; p4 anonymous, not listed.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from national_kit import report

from risiko.faults import RisikoError, use_language
from risiko.national.publish import club_key_text, envelope, sign
from risiko.national.report import read_report

pytestmark = [pytest.mark.db, pytest.mark.django_db, pytest.mark.usefixtures("past_first_run")]

PLAYERS: list[tuple[str, int | None, str, str]] = [
    ("p1", 101, "Anna", "Bassi"), ("p2", 102, "Bruno", "Conti"),
    ("p3", 103, "Carla", "Dini"), ("p4", None, "Anonimo", "Anonimo")]
URL = "/nazionale/api/pubblica/"
SEASON = Path(__file__).parents[2] / "examples" / "season-2027.json"


@pytest.fixture
def past_first_run() -> None:
    """A user exists (else every page leads to the first run's set-up)."""
    from django.contrib.auth.models import User

    User.objects.create_user("presidente", password="tavolo-rosso-42")


@pytest.fixture
def make_user() -> Any:
    """``make_user(name, *groups)``: a new account in the groups named."""
    from django.contrib.auth.models import Group, User

    def make(name: str, *groups: str) -> Any:
        user = User.objects.create_user(name, password="tavolo-rosso-42")
        for g in groups:
            user.groups.add(Group.objects.get_or_create(name=g)[0])
        return user

    return make


@pytest.fixture
def ref_client(make_user: Any) -> Client:
    """A client logged in as a referee."""
    client = Client()
    client.force_login(make_user("arbitro", "referee"))
    return client


def open_2019(name: str = "Open 2019", **kw: Any) -> Any:
    return read_report(report(name, dates=("2019-05-04",), tables_per_round=1,
                              players=PLAYERS, **kw))


def points(year: int = 2019, *, estimate: bool = False) -> dict[int, float]:
    from risiko.web.national.services import ranking

    return {p["national_id"]: p["points"]
            for p in ranking(year, estimate=estimate).to_json()["players"]}


def revision(number: int = 1) -> Any:
    from risiko.web.national.models import TournamentRevision

    return TournamentRevision.objects.get(number=number)


def test_a_published_report_waits_and_the_estimate_shows_it() -> None:
    from risiko.web.national.publishing import publish_report

    done = publish_report(open_2019(), by="arbitro")
    assert (done.number, done.status, done.unchanged) == (1, "published", False)
    assert points() == {}  # nothing in force
    assert points(estimate=True) == {101: 242.4, 102: 182.78, 103: 173.86}
    again = publish_report(open_2019(), by="arbitro")  # the same report: nothing written
    assert (again.number, again.status, again.unchanged) == (1, "published", True)
    page = Client().get("/nazionale/giocatore/101/")
    text = page.content.decode()
    # Italian: a decimal comma, and the colon right after the label (issue: "Stima : posizione")
    assert page.status_code == 200 and "242,40" in text
    assert "<strong>Stima:</strong>\n    posizione 1, 242,40 punti" in text
    assert "Open 2019" in text


def test_approval_puts_it_in_force_once_with_its_trail() -> None:
    from risiko.web.auditlog.models import AuditEntry
    from risiko.web.national.publishing import PublishError, approve, publish_report

    publish_report(open_2019(), by="arbitro")
    decided = approve(revision().pk, by="ufficiale")
    assert (decided.status, decided.decided_by, decided.by) == ("approved", "ufficiale",
                                                                "arbitro")
    assert decided.decided_at is not None and decided.tournament.current == 1
    assert points() == {101: 242.4, 102: 182.78, 103: 173.86}
    with pytest.raises(PublishError) as e:
        approve(revision().pk, by="altro")
    assert e.value.fault.code == "national.already_decided"
    assert list(AuditEntry.objects.filter(action__startswith="national.").order_by(
        "pk").values_list("action", "who")) == [("national.publish", "arbitro"),
                                                ("national.approve", "ufficiale")]
    assert "Stima" not in Client().get("/nazionale/giocatore/101/").content.decode()


def test_a_refusal_needs_a_reason_and_never_counts() -> None:
    from risiko.web.national.publishing import PublishError, approve, publish_report, refuse

    publish_report(open_2019(), by="arbitro")
    with pytest.raises(PublishError) as e:
        refuse(revision().pk, by="ufficiale", reason="   ")
    assert e.value.fault.code == "national.refuse_reason"
    assert e.value.fault.message("it") == "un rifiuto richiede il suo motivo"
    done = refuse(revision().pk, by="ufficiale", reason="manca il tavolo 2")
    assert (done.status, done.reason) == ("refused", "manca il tavolo 2")
    assert points() == {} and points(estimate=True) == {}
    with pytest.raises(PublishError) as e:
        approve(revision().pk, by="ufficiale")
    assert e.value.fault.code == "national.already_decided"


def test_an_approved_revision_is_replaced_only_by_a_newer_approved_one() -> None:
    from risiko.web.national.publishing import PublishError, approve, publish_report

    publish_report(open_2019(), by="arbitro")
    # revision 2: p2 and p1 swap places
    publish_report(open_2019(standings=["p2", "p1", "p3", "p4"]), by="arbitro")
    assert points(estimate=True) == {102: 242.4, 101: 182.78, 103: 173.86}
    approve(revision(2).pk, by="ufficiale")
    with pytest.raises(PublishError) as e:
        approve(revision(1).pk, by="ufficiale")
    assert e.value.fault.code == "national.approve_stale"
    assert points() == {102: 242.4, 101: 182.78, 103: 173.86}


def test_a_club_revision_not_above_the_last_is_refused() -> None:
    from risiko.web.national.publishing import PublishError, publish_report

    publish_report(open_2019(), by="c", club_revision=5)
    for older in (5, 4):
        with pytest.raises(PublishError) as e:
            publish_report(open_2019(standings=["p2", "p1", "p3", "p4"]), by="c",
                           club_revision=older)
        assert e.value.fault.code == "national.publish_stale"
    # the default club revision (--to without --revision) is the time in milliseconds: the
    # trial read "la revisione 1796146816915"; now said as the time it was sent
    at = 1796146816915  # 1796146816.915 s since 1970 = 01/12/2026 17:40:16 UTC
    publish_report(open_2019("Open 2026"), by="c", club_revision=at)
    with use_language("it"), pytest.raises(PublishError) as e:
        publish_report(open_2019("Open 2026"), by="c", club_revision=at)
    assert "questo rapporto è già stato inviato (revisione del club 01/12/2026 17:40:16 UTC " \
        "(1796146816915);" in str(e.value.fault.message("it"))
    assert publish_report(open_2019(standings=["p2", "p1", "p3", "p4"]), by="c",
                          club_revision=6).number == 2


# ------------------------------------------------------------------------- club keys, HTTP

@pytest.fixture
def club_key(settings: Any) -> str:
    from risiko.web.national.models import Club
    from risiko.web.national.publishing import issue_key

    settings.RISIKO_CLUB_KEY_SECRET = "master-secret-of-the-tests"
    Club.objects.create(key="milano", name="MILANO [Club Milano]")
    key, secret = issue_key("milano", by="ufficiale")
    return club_key_text(key.key_id, secret)


def post(body: bytes, key: str, *, signature: str | None = None) -> Any:
    key_id, _dot, secret = key.partition(".")
    return Client(enforce_csrf_checks=True).post(
        URL, body, content_type="application/json", HTTP_X_RISIKO_KEY=key_id,
        HTTP_X_RISIKO_SIGNATURE=signature or sign(body, secret))


def test_a_signed_report_is_received_and_a_replay_refused(club_key: str) -> None:
    body = envelope(open_2019(), 7)
    answer = post(body, club_key)
    assert answer.status_code == 201
    assert answer.json() == {"tournament": "20190504 - milano - Open 2019", "revision": 1,
                             "status": "published", "unchanged": False,
                             "id": revision().pk}
    assert (revision().club_revision, revision().status) == (7, "published")
    replay = post(body, club_key)
    assert replay.status_code == 409
    fault = replay.json()["faults"][0]
    assert fault["code"] == "national.publish_stale"
    assert fault["messages"]["en"] == (
        "20190504 - milano - Open 2019: this report was already sent (club revision 7; the "
        "national server has already received club revision 7, the same or a newer one): "
        "nothing written")
    assert fault["message"] == fault["messages"]["it"] != fault["messages"]["en"]
    older = post(envelope(open_2019(standings=["p2", "p1", "p3", "p4"]), 6), club_key)
    assert older.status_code == 409
    newer = post(envelope(open_2019(standings=["p2", "p1", "p3", "p4"]), 8), club_key)
    assert (newer.status_code, newer.json()["revision"]) == (201, 2)


def test_bad_signatures_keys_and_clubs_are_refused(club_key: str) -> None:
    from risiko.web.national.models import TournamentRevision

    body = envelope(open_2019(), 1)
    assert post(body, club_key, signature="sha256=" + "0" * 64).status_code == 401
    assert post(body + b" ", club_key, signature=sign(body, club_key[-64:])).status_code == 401
    assert post(body, "ck_unknown." + "0" * 64).status_code == 401
    other = envelope(open_2019(club=("roma", "ROMA")), 1)
    refused = post(other, club_key)
    assert (refused.status_code, refused.json()["faults"][0]["code"]) == (
        403, "national.publish_wrong_club")
    bad = post(b'{"format": "risiko-publish/1", "revision": 0, "report": {}}', club_key)
    assert (bad.status_code, bad.json()["faults"][0]["code"]) == (400,
                                                                  "national.publish_envelope")
    # issue (newcomer's trial): a body that is no JSON was "not UTF-8 JSON", English and
    # no fault of its own
    garbage = post(b"\xff\xfe not json", club_key)
    fault = garbage.json()["faults"][0]
    assert (garbage.status_code, fault["code"]) == (400, "national.publish_not_json")
    assert fault["messages"] == {
        "it": "il corpo non è JSON in UTF-8 (una busta risiko-publish/1 lo è)",
        "en": "the body is not UTF-8 JSON (a risiko-publish/1 envelope is)"}
    assert bad.json()["faults"][0]["messages"]["it"] == (
        "il corpo non è una busta risiko-publish/1: il campo revision")
    assert TournamentRevision.objects.count() == 0
    assert Client().get(URL).status_code == 405


def test_rotation_and_revocation(club_key: str) -> None:
    from risiko.web.national.models import ClubKey
    from risiko.web.national.publishing import PublishError, issue_key, revoke_key, rotate_key

    with pytest.raises(PublishError) as e:
        issue_key("milano", by="ufficiale")
    assert e.value.fault.code == "national.key_in_force"
    key, secret = rotate_key("milano", by="ufficiale")
    new = club_key_text(key.key_id, secret)
    assert post(envelope(open_2019(), 1), club_key).status_code == 401  # the old key
    assert post(envelope(open_2019(), 2), new).status_code == 201
    revoke_key("milano", by="ufficiale")
    assert post(envelope(open_2019(standings=["p2", "p1", "p3", "p4"]), 3), new
                ).status_code == 401
    assert ClubKey.objects.filter(revoked__isnull=True).count() == 0
    assert ClubKey.objects.count() == 2
    # the secret is not in the database
    stored = json.dumps(list(ClubKey.objects.values()), default=str)
    assert secret not in stored and club_key.partition(".")[2] not in stored


def test_too_many_reports_from_one_address(club_key: str, settings: Any) -> None:
    settings.RISIKO_PUBLISH_MAX_PER_ADDRESS = 2
    body = envelope(open_2019(), 1)
    assert [post(body, club_key).status_code for _ in range(3)] == [201, 409, 429]


def test_the_per_key_limit_counts_only_signed_reports(club_key: str, settings: Any) -> None:
    settings.RISIKO_PUBLISH_MAX_PER_KEY = 2
    body = envelope(open_2019(), 1)
    forged = [post(body, club_key, signature="sha256=" + "1" * 64).status_code
              for _ in range(3)]
    assert forged == [401, 401, 401]  # a stranger with the key id uses up nothing
    assert [post(envelope(open_2019(), n), club_key).status_code for n in (1, 2, 3)] == [
        201, 200, 429]  # 2: the same report again, unchanged


# -------------------------------------------------------------------------- pages, CLI

def test_the_officer_approves_and_refuses_on_his_page(make_user: Any) -> None:
    from django.contrib.auth.models import Permission

    from risiko.web.national.publishing import publish_report

    publish_report(open_2019(), by="arbitro")
    publish_report(open_2019(name="Open bis"), by="arbitro")
    officer = make_user("ufficiale")
    officer.user_permissions.add(Permission.objects.get(codename="approve_report"))
    nobody = Client()
    nobody.force_login(make_user("socio"))
    assert nobody.get("/nazionale/ufficiale/").status_code == 403
    client = Client()
    client.force_login(officer)
    page = client.get("/nazionale/ufficiale/")
    assert page.status_code == 200 and "Rapporti da approvare" in page.content.decode()
    first, second = revision_ids()
    answer = client.post(f"/nazionale/ufficiale/{first}/decidi/", {"decision": "approve"},
                         follow=True)
    assert "approvata" in answer.content.decode()
    client.post(f"/nazionale/ufficiale/{second}/decidi/",
                {"decision": "refuse", "reason": "torneo doppio"})
    assert points() == {101: 242.4, 102: 182.78, 103: 173.86}
    page = client.get("/nazionale/ufficiale/").content.decode()
    assert "Nessun rapporto in attesa" in page and "torneo doppio" in page


def revision_ids() -> list[int]:
    from risiko.web.national.models import TournamentRevision

    return list(TournamentRevision.objects.order_by("pk").values_list("pk", flat=True))


def test_a_finished_club_tournament_as_a_report() -> None:
    from risiko.web import services
    from risiko.web.national.models import Club, NationalPlayer
    from risiko.web.national.publishing import club_report

    text = SEASON.read_text(encoding="utf-8").replace('"Alba"', '"Alba Rossi"')
    data = json.loads(text)
    t = services.import_season(data, who="arbitro")
    Club.objects.create(key="milano", name="MILANO [Club Milano]")
    NationalPlayer.objects.create(national_id=555, name="Alba", surname="Rossi")
    name = "Alba Rossi"
    r = club_report(t, club_id="milano", club_name="MILANO [Club Milano]")
    assert r.dates == tuple(sorted(date.fromisoformat(e["date"]) for e in data["evenings"]))
    assert r.rounds == len(data["evenings"]) and r.finished
    played = sum(1 for e in data["evenings"] for t_ in e["tables"]
                 if t_.get("scores") or t_.get("sheet"))
    assert r.tables == played
    named = [p for p in r.players if p.national_id is not None]
    assert [(p.national_id, p.full_name) for p in named] == [(555, name)]
    from risiko.web.selectors import season_report_of

    final = season_report_of(t)["final_standings"]
    keys = {p.key: p for p in r.players}
    first_key = next(k for k, pos in r.standings if pos == 1)
    assert keys[first_key].full_name.replace(" -", "") == final[0]


def test_the_console_publishes_a_finished_tournament(ref_client: Any) -> None:
    from risiko.web import services
    from risiko.web.national.models import Club, TournamentRevision

    t = services.import_season(json.loads(SEASON.read_text(encoding="utf-8")), who="arbitro")
    Club.objects.create(key="milano", name="MILANO [Club Milano]")
    url = f"/arbitro/t/{t.slug}/nazionale/"
    page = ref_client.get(url)
    assert page.status_code == 200 and "Pubblica" in page.content.decode()
    ref_client.post(url, {"club": "milano", "category": "campionato"})
    ref_client.post(url, {"club": "milano", "category": "campionato"})  # unchanged
    assert list(TournamentRevision.objects.values_list("status", "number")) == [
        ("published", 1)]
    # the tournament belongs to its club (clubs on one server): another club is not offered
    other = ref_client.post(url, {"club": "nessuno", "category": "campionato"})
    assert other.status_code == 302
    assert TournamentRevision.objects.count() == 1
    refused = ref_client.post(url, {"category": "nessuna"})
    assert refused.status_code == 400 and TournamentRevision.objects.count() == 1


def test_the_cli_publishes_over_http_with_the_key_from_the_environment(
        club_key: str, live_server: Any, tmp_path: Path, monkeypatch: Any) -> None:
    import typer
    from typer.testing import CliRunner

    from risiko.cli import national_commands

    app = typer.Typer()
    national_commands.register(app)
    file = tmp_path / "open.json"
    file.write_text(json.dumps(open_2019().to_json()), encoding="utf-8")
    monkeypatch.delenv("RISIKO_CLUB_KEY", raising=False)
    missing = CliRunner().invoke(app, ["national", "publish", str(file), "--to",
                                       live_server.url])
    assert missing.exit_code == 2 and "RISIKO_CLUB_KEY" in missing.output
    plain = CliRunner().invoke(app, ["national", "publish", str(file), "--to",
                                     "http://example.org"], env={"RISIKO_CLUB_KEY": club_key})
    assert plain.exit_code == 2
    sent = CliRunner().invoke(app, ["national", "publish", str(file), "--to",
                                    live_server.url, "--revision", "3", "--json"],
                              env={"RISIKO_CLUB_KEY": club_key})
    assert sent.exit_code == 0, sent.output
    assert json.loads(sent.stdout)["revision"] == 1 and club_key not in sent.output
    with use_language("it"):
        again = CliRunner().invoke(app, ["national", "publish", str(file), "--to",
                                         live_server.url, "--revision", "3"],
                                   env={"RISIKO_CLUB_KEY": club_key})
    assert again.exit_code == 2 and "già stato inviato (revisione del club 3;" in again.output


def test_register_lookup_and_a_fault_in_italian() -> None:
    from risiko.web.national.models import NationalPlayer
    from risiko.web.national.services import register_lookup

    NationalPlayer.objects.create(national_id=9, name="Anna", surname="Bassi")
    assert register_lookup("anna  BASSI") == (9, "Anna", "Bassi", None)
    assert register_lookup("Anna Rossi") is None
    with pytest.raises(RisikoError):
        from risiko.national.publish import split_club_key

        split_club_key("ck_1.short")


def test_an_unfinished_tournament_is_not_published(ref_client: Client) -> None:
    from risiko.web import services
    from risiko.web.national.models import Club, TournamentRevision
    from risiko.web.national.publishing import club_report

    data = json.loads(SEASON.read_text(encoding="utf-8"))
    data["evenings"] = [e for e in data["evenings"] if e.get("stage") != "final"]
    t = services.import_season(data, who="arbitro")
    Club.objects.create(key="milano", name="MILANO [Club Milano]")
    with pytest.raises(RisikoError) as e:
        club_report(t, club_id="milano", club_name="MILANO [Club Milano]")
    assert e.value.fault.code == "national.publish_not_finished"
    answer = ref_client.post(f"/arbitro/t/{t.slug}/nazionale/",
                             {"club": "milano", "category": "campionato"})
    assert answer.status_code == 400 and "non concluso" in answer.content.decode()
    assert TournamentRevision.objects.count() == 0


def test_the_officers_commands(tmp_path: Path, settings: Any) -> None:
    import typer
    from typer.testing import CliRunner

    from risiko.cli import national_commands
    from risiko.national.publish import split_club_key
    from risiko.web.national.models import Club, ClubKey, TournamentRevision

    settings.RISIKO_CLUB_KEY_SECRET = "master-secret-of-the-tests"
    app = typer.Typer()
    national_commands.register(app)

    def run(*args: str) -> Any:
        return CliRunner().invoke(app, ["national", *args])

    Club.objects.create(key="milano", name="MILANO [Club Milano]")
    issued = run("key", "issue", "milano", "--by", "ufficiale")
    assert issued.exit_code == 0, issued.output
    key_id, _secret = split_club_key(issued.stdout.strip().splitlines()[-1])
    assert ClubKey.objects.get(revoked__isnull=True).key_id == key_id
    assert run("key", "issue", "milano").exit_code == 2  # one in force: rotate it
    assert run("key", "rotate", "milano").exit_code == 0
    assert run("key", "revoke", "milano").exit_code == 0
    assert ClubKey.objects.filter(revoked__isnull=True).count() == 0
    file = tmp_path / "open.json"
    file.write_text(json.dumps(open_2019().to_json()), encoding="utf-8")
    published = run("publish", str(file), "--json", "--by", "arbitro")
    assert published.exit_code == 0, published.output
    answer = json.loads(published.stdout)
    assert (answer["revision"], answer["status"]) == (1, "published")
    # the same report again: nothing written, its status said in the language (issue: the
    # newcomer's trial read "(revisione 1, published)")
    with use_language("it"):
        again = run("publish", str(file), "--by", "arbitro")
    assert again.exit_code == 0, again.output
    assert "(revisione 1, in attesa di approvazione; rapporto " in again.stdout
    assert again.stdout.strip() == f"{answer['tournament']}: già pubblicato (revisione 1, " \
        f"in attesa di approvazione; rapporto {answer['id']}): non è stato scritto nulla"
    # the text output names the id ``national approve`` needs (the trial: only --json had it)
    file.write_text(json.dumps(open_2019("Open 2020").to_json()), encoding="utf-8")
    with use_language("it"):
        text = run("publish", str(file), "--by", "arbitro")
    second = TournamentRevision.objects.get(tournament__name="Open 2020")
    assert text.stdout.strip() == (
        f"20190504 - milano - Open 2020: revisione 1 pubblicata, in attesa dell'approvazione "
        f"del responsabile nazionale (rapporto {second.pk}: risiko national approve "
        f"{second.pk})")
    file.write_text(json.dumps(open_2019().to_json()), encoding="utf-8")
    english = run("publish", str(file), "--by", "arbitro")
    assert "(revision 1, waiting for approval; report " in english.stdout
    assert run("refuse", str(answer["id"]), "--reason", " ").exit_code == 1
    with use_language("it"):
        approved = run("approve", str(answer["id"]), "--by", "ufficiale")
    assert approved.exit_code == 0 and "approvata, in vigore" in approved.output
    assert points() == {101: 242.4, 102: 182.78, 103: 173.86}
    assert run("approve", str(answer["id"])).exit_code == 1


def test_a_club_server_publishes_its_tournament_with_its_list_of_national_ids(
        club_key: str, live_server: Any, tmp_path: Path) -> None:
    import typer
    from typer.testing import CliRunner

    from risiko.cli import national_commands
    from risiko.web import services
    from risiko.web.national.models import TournamentRevision

    app = typer.Typer()
    national_commands.register(app)
    t = services.import_season(json.loads(SEASON.read_text(encoding="utf-8")), who="arbitro")
    ids = tmp_path / "ids.csv"
    ids.write_text("nome,id nazionale\nALBA,555\nBice;556\n", encoding="utf-8")
    sent = CliRunner().invoke(app, [
        "national", "publish", t.slug, "--to", live_server.url, "--club", "milano",
        "--national-ids", str(ids), "--revision", "1", "--json"],
        env={"RISIKO_CLUB_KEY": club_key})
    assert sent.exit_code == 0, sent.output
    stored = TournamentRevision.objects.get()
    assert (stored.status, stored.club_revision, stored.report["club"]) == (
        "published", 1, {"id": "milano", "name": "MILANO [Club Milano]"})
    named = sorted((p["national_id"], p["name"]) for p in stored.report["players"]
                   if p["national_id"] is not None)
    assert named == [(555, "Alba"), (556, "Bice")]
    ids.write_text("Alba,555\nBice,x\n", encoding="utf-8")
    bad = CliRunner().invoke(app, ["national", "publish", t.slug, "--to", live_server.url,
                                   "--club", "milano", "--national-ids", str(ids)],
                             env={"RISIKO_CLUB_KEY": club_key})
    assert bad.exit_code == 1 and "line 2" in bad.output


def test_the_key_file_is_for_its_owner_only_and_the_key_never_said(
        club_key: str, live_server: Any, tmp_path: Path) -> None:
    import typer
    from typer.testing import CliRunner

    from risiko.cli import national_commands
    from risiko.web.national.publishing import revoke_key

    app = typer.Typer()
    national_commands.register(app)
    file = tmp_path / "open.json"
    file.write_text(json.dumps(open_2019().to_json()), encoding="utf-8")
    key_file = tmp_path / "club.key"
    key_file.write_text(club_key + "\n", encoding="utf-8")
    key_file.chmod(0o644)
    args = ["national", "publish", str(file), "--to", live_server.url, "--key-file",
            str(key_file)]
    opened = CliRunner().invoke(app, args)
    assert opened.exit_code == 2 and "chmod 600" in opened.output
    key_file.chmod(0o600)
    sent = CliRunner().invoke(app, [*args, "--revision", "1"])
    assert sent.exit_code == 0, sent.output
    revoke_key("milano", by="ufficiale")
    refused = CliRunner().invoke(app, [*args, "--revision", "2"])
    assert refused.exit_code == 2
    secret = club_key.partition(".")[2]
    for said in (opened.output, sent.output, refused.output):
        assert secret not in said


def test_a_season_file_of_the_file_mode_is_published_as_its_report(tmp_path: Path) -> None:
    import typer
    from typer.testing import CliRunner

    from risiko.cli import national_commands
    from risiko.web.national.models import Club, TournamentRevision

    app = typer.Typer()
    national_commands.register(app)
    Club.objects.create(key="milano", name="MILANO [Club Milano]", slug="milano")
    data = json.loads(SEASON.read_text(encoding="utf-8"))
    ids = tmp_path / "ids.csv"
    ids.write_text("Alba,555\n", encoding="utf-8")
    sent = CliRunner().invoke(app, ["national", "publish", str(SEASON), "--club", "milano",
                                    "--club-name", "MILANO [Club Milano]",
                                    "--national-ids", str(ids), "--json"])
    assert sent.exit_code == 0, sent.output
    stored = TournamentRevision.objects.get()
    assert stored.status == "published" and stored.tournament.name == data["name"]
    assert stored.rounds == len(data["evenings"])
    assert [(p["national_id"], p["name"]) for p in stored.report["players"]
            if p["national_id"]] == [(555, "Alba")]
    assert json.loads(sent.stdout)["anonymous"][:2] == ["Bice", "Ciro"]


@pytest.mark.db
@pytest.mark.django_db
def test_a_clubs_committee_is_not_the_national_officer() -> None:
    """The committee holds every permission of its club's admin, never the national
    officer's: the officer's page and the approval are refused to it (clubs on one server)."""
    from django.contrib.auth.models import Group, User

    committee = User.objects.create_user("comitato", password="x-y-z-123456")
    committee.groups.add(Group.objects.get_or_create(name="committee")[0])
    assert not committee.has_perm("national.approve_report")
    assert not committee.has_perm("national.manage_club_keys")
    assert committee.has_perm("tournaments.change_tournament")
    client = Client()
    client.force_login(committee)
    assert client.get("/nazionale/ufficiale/").status_code == 403
    officer = User.objects.create_user("ufficiale", password="x-y-z-123456")
    officer.groups.add(Group.objects.get_or_create(name="national_officer")[0])
    client.force_login(officer)
    assert client.get("/nazionale/ufficiale/").status_code == 200


def test_a_stored_tournament_is_published_for_the_club_that_owns_it() -> None:
    """Clubs on one server (issue 21 item 1): ``publish`` of a stored tournament reports it
    for its own club; ``--club`` naming another club with tournaments on this server is
    refused naming the owner, and a name two clubs share must be told apart with
    ``--club``. Nothing is written by a refusal."""
    import typer
    from typer.testing import CliRunner

    from risiko.cli import national_commands
    from risiko.web import services
    from risiko.web.clubs import club_scope
    from risiko.web.national.models import Club, TournamentRevision

    app = typer.Typer()
    national_commands.register(app)

    def run(*args: str) -> Any:
        return CliRunner().invoke(app, ["national", "publish", *args, "--json",
                                        "--by", "arb"])

    season = json.loads(SEASON.read_text(encoding="utf-8"))
    roma = Club.objects.create(key="ROMA", name="ROMA [Roma Club]", slug="roma")
    milano = Club.objects.create(key="MILANO", name="MILANO [Club Milano]", slug="milano")
    with club_scope(roma):
        t = services.import_season(season, who="arbitro")
    with club_scope(milano):  # MILANO runs its own tournaments on this server
        services.create_tournament("Torneo di Milano", who="arbitro")
    other = run(t.slug, "--club", "MILANO")
    assert other.exit_code == 2 and "ROMA (ROMA [Roma Club])" in other.output
    assert TournamentRevision.objects.count() == 0
    own = run(t.slug)
    assert own.exit_code == 0, own.output
    assert TournamentRevision.objects.get().report["club"] == {
        "id": "ROMA", "name": "ROMA [Roma Club]"}
    with club_scope(milano):
        services.import_season(season, who="arbitro")
    shared = run(t.slug)
    assert shared.exit_code == 2 and "milano" in shared.output and "roma" in shared.output
    assert TournamentRevision.objects.count() == 1
    chosen = run(t.slug, "--club", "milano")
    assert chosen.exit_code == 0, chosen.output
    assert sorted(r.report["club"]["id"] for r in TournamentRevision.objects.all()) == [
        "MILANO", "ROMA"]


def test_a_club_is_registered_before_its_first_key(settings: Any) -> None:
    """issue (newcomer's trial): README's `national key issue milano` failed on a fresh
    server (no such club) and nothing said how to register one: `national club add`."""
    import typer
    from typer.testing import CliRunner

    from risiko.cli import national_commands
    from risiko.web.auditlog.models import AuditEntry
    from risiko.web.national.models import Club

    settings.RISIKO_CLUB_KEY_SECRET = "master-secret-of-the-tests"
    app = typer.Typer()
    national_commands.register(app)

    def run(*args: str) -> Any:
        return CliRunner().invoke(app, ["national", *args])

    Club.objects.filter(key="milano").delete()
    fresh = run("key", "issue", "milano")
    assert fresh.exit_code == 2 and "club milano: not registered" in fresh.stderr
    with use_language("it"):
        added = run("club", "add", "milano", "MILANO  [Club Milano]", "--by", "ufficiale")
    assert added.exit_code == 0, added.output
    assert added.stdout.strip() == ("club milano registrato: MILANO [Club Milano] (nome "
                                    "nell'URL milano)")
    club = Club.objects.get(key="milano")
    assert (club.name, club.slug) == ("MILANO [Club Milano]", "milano")
    assert AuditEntry.objects.filter(action="national.club_add").count() == 1
    again = run("club", "add", "milano", "Altro")
    assert again.exit_code == 2
    assert again.stderr.strip() == "club milano is already registered (MILANO [Club Milano])"
    taken = run("club", "add", "roma", "ROMA", "--slug", "milano")
    assert taken.exit_code == 2 and "URL name milano is another club's" in taken.stderr
    assert run("club", "add", "x" * 61, "Lungo").exit_code == 2
    assert run("club", "drop", "milano", "X").exit_code == 2
    assert Club.objects.filter(key__in=["roma", "x" * 61]).count() == 0
    assert run("key", "issue", "milano").exit_code == 0


def test_a_stored_tournament_of_the_default_club_is_never_published_for_another() -> None:
    """The newcomer's trial: one tournament of the server's (default) club, published with
    ``--club milano`` (a registered club without tournaments here), ``--club roma`` and
    ``--club nowhere`` (a typo) made a national tournament each, and registered "nowhere".
    Now each is refused (exit 2), nothing written; the owner's own id or slug publishes it
    for the owner, once."""
    import typer
    from typer.testing import CliRunner

    from risiko.cli import national_commands
    from risiko.web import services
    from risiko.web.clubs import default_club
    from risiko.web.national.models import Club, NationalTournament, TournamentRevision

    app = typer.Typer()
    national_commands.register(app)

    def run(*args: str) -> Any:
        with use_language("it"):
            return CliRunner().invoke(app, ["national", "publish", *args, "--by", "arb"])

    Club.objects.create(key="milano", name="MILANO [Club Milano]", slug="milano")
    t = services.import_season(json.loads(SEASON.read_text(encoding="utf-8")), who="arbitro")
    owner = default_club()
    counts = (Club.objects.count(), NationalTournament.objects.count())
    other = run(t.slug, "--club", "milano")
    assert other.exit_code == 2, other.output
    assert f"{owner.key} ({owner.name})" in other.output and "--club milano" in other.output
    typo = run(t.slug, "--club", "nowhere")
    assert typo.exit_code == 2, typo.output
    assert "--club nowhere" in typo.output
    assert "risiko national club add nowhere" in typo.output
    assert (Club.objects.count(), NationalTournament.objects.count()) == counts
    assert not Club.objects.filter(key="nowhere").exists()
    for given in (owner.key, owner.slug):
        done = run(t.slug, "--club", given)
        assert done.exit_code == 0, done.output
    assert NationalTournament.objects.count() == counts[1] + 1
    assert TournamentRevision.objects.get().report["club"]["id"] == owner.key


REPORT_FILE = Path(__file__).parents[2] / "examples" / "national" / "open-2024.json"


def test_a_file_is_published_only_for_a_registered_club_it_names() -> None:
    """The newcomer's trial of main: ``publish`` of a season FILE with ``--club nowhere``
    registered a club "nowhere" and published for it; of a report file (club ``milano``)
    ``--club nowhere`` was ignored. Now: a season file's ``--club`` must name a registered
    club (its identifier or URL name), a report file's ``--club`` must be the report's own
    club, and the report's club must be registered (publish never registers one): each
    refusal exits 2 naming the fault, nothing written (clubs and national tournaments
    counted); the right club publishes, once each."""
    import typer
    from typer.testing import CliRunner

    from risiko.cli import national_commands
    from risiko.web.national.models import Club, NationalTournament, TournamentRevision

    app = typer.Typer()
    national_commands.register(app)

    def run(*args: str) -> Any:
        with use_language("it"):
            return CliRunner().invoke(app, ["national", "publish", *args, "--by", "arb"])

    def counts() -> tuple[int, int, int]:
        return (Club.objects.count(), NationalTournament.objects.count(),
                TournamentRevision.objects.count())

    unregistered = run(str(REPORT_FILE))  # its club, milano, is not registered yet
    assert unregistered.exit_code == 2, unregistered.output
    assert ("open-2024.json: il club milano non è nel ranking nazionale" in
            unregistered.output)
    assert "risiko national club add milano NOME" in unregistered.output
    Club.objects.create(key="milano", name="MILANO [Club Milano]", slug="club-milano")
    Club.objects.create(key="roma", name="ROMA [Roma Club]", slug="roma")
    before = counts()
    typo = run(str(SEASON), "--club", "nowhere")
    assert typo.exit_code == 2, typo.output
    assert "--club nowhere: nessun club con questo nome" in typo.output
    other = run(str(REPORT_FILE), "--club", "nowhere")
    assert other.exit_code == 2, other.output
    assert "open-2024.json è un rapporto del club milano, non di --club nowhere" in (
        other.output)
    registered_other = run(str(REPORT_FILE), "--club", "roma")
    assert registered_other.exit_code == 2, registered_other.output
    assert counts() == before
    assert not Club.objects.filter(key="nowhere").exists()
    by_slug = run(str(SEASON), "--club", "roma")  # a registered club: published for it
    assert by_slug.exit_code == 0, by_slug.output
    own = run(str(REPORT_FILE), "--club", "club-milano")  # the report's club by URL name
    assert own.exit_code == 0, own.output
    assert counts() == (before[0], before[1] + 2, before[2] + 2)
    assert sorted(r.report["club"]["id"] for r in TournamentRevision.objects.all()) == [
        "milano", "roma"]


def test_club_add_of_the_servers_own_club_is_refused_and_club_list(settings: Any) -> None:
    """The newcomer's trial: a fresh server started with ``RISIKO_CLUB_ID=milano`` accepted
    ``club add milano`` (README says it is refused: the server's own club is registered,
    made on its first need). ``club list`` lists the clubs: identifier, name, URL name,
    official dates, the key in force, this server's own (``--json`` the same)."""
    import datetime as dt

    import typer
    from typer.testing import CliRunner

    from risiko.cli import national_commands
    from risiko.web.national.models import Club

    settings.RISIKO_CLUB_ID = "milano"
    settings.RISIKO_CLUB_NAME = "MILANO [Club Milano]"
    settings.RISIKO_CLUB_KEY_SECRET = "master-secret-of-the-tests"
    Club.objects.all().delete()  # a fresh data dir: no club made yet
    app = typer.Typer()
    national_commands.register(app)

    def run(*args: str) -> Any:
        return CliRunner().invoke(app, ["national", *args])

    own = run("club", "add", "milano", "Altro Milano")
    assert own.exit_code == 2, own.output
    assert own.stderr.strip() == "club milano is already registered (MILANO [Club Milano])"
    assert Club.objects.count() == 1 and Club.objects.get().is_default
    assert run("club", "add", "roma").exit_code == 2  # no name: said, nothing written
    assert run("club", "add", "roma", "ROMA [Roma Club]").exit_code == 0
    Club.objects.filter(key="roma").update(official=True, official_from=dt.date(2020, 1, 1))
    issued = run("key", "issue", "roma")
    assert issued.exit_code == 0, issued.output
    listed = run("club", "list", "--json")
    assert listed.exit_code == 0, listed.output
    rows = json.loads(listed.stdout)
    assert [(r["club"], r["name"], r["default"], r["official"], r["official_from"])
            for r in rows] == [("milano", "MILANO [Club Milano]", True, False, None),
                               ("roma", "ROMA [Roma Club]", False, True, "2020-01-01")]
    assert rows[0]["key"] is None and rows[1]["key"].startswith("ck_")
    assert rows[1]["key"] in issued.stdout
    with use_language("it"):
        table = run("club", "list")
    assert table.exit_code == 0, table.output
    # a line a club, never cut (the identifier and the key are typed again), in Italian
    assert table.stdout.splitlines() == [
        "milano  MILANO [Club Milano]  (Nome nell'URL: milano; Di questo server)",
        f"roma  ROMA [Roma Club]  (Nome nell'URL: roma; Ufficiale: sì 2020-01-01; Chiave in "
        f"vigore: {rows[1]['key']})"]


def test_a_file_not_utf8_is_said_naming_it_never_a_traceback(tmp_path: Path) -> None:
    """The newcomer's trial: bytes ``ff fe`` as a report ended ``import``, ``publish`` and
    ``workbook`` in a UnicodeDecodeError traceback; now ``cli.cannot_read`` with "non è
    testo UTF-8", naming the file, as other commands say it; nothing written."""
    import typer
    from typer.testing import CliRunner

    from risiko.cli import national_commands
    from risiko.web.national.models import Club, NationalTournament

    app = typer.Typer()
    national_commands.register(app)
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe")
    for args in (["import", str(bad)], ["publish", str(bad), "--club", "milano"],
                 ["workbook", str(bad), "-o", str(tmp_path / "o.xls")]):
        with use_language("it"):
            said = CliRunner().invoke(app, ["national", *args])
        assert said.exception is None or isinstance(said.exception, SystemExit), args
        assert said.exit_code in (1, 2), (args, said.output)
        assert f"{bad}: non è testo UTF-8" in said.output, (args, said.output)
    assert (Club.objects.count(), NationalTournament.objects.count()) == (0, 0)


def test_an_unreachable_national_server_is_said_in_italian(club_key: str,
                                                           tmp_path: Path) -> None:
    """The trial: ``--to https://127.0.0.1:9`` printed "[Errno 111] Connection refused"
    alone; now the server named in Italian words, the OS's reason after them."""
    import typer
    from typer.testing import CliRunner

    from risiko.cli import national_commands

    app = typer.Typer()
    national_commands.register(app)
    file = tmp_path / "open.json"
    file.write_text(json.dumps(open_2019().to_json()), encoding="utf-8")
    with use_language("it"):
        said = CliRunner().invoke(app, ["national", "publish", str(file), "--to",
                                        "https://127.0.0.1:9"],
                                  env={"RISIKO_CLUB_KEY": club_key})
    assert said.exit_code == 1, said.output
    assert ("https://127.0.0.1:9/nazionale/api/pubblica/: il server nazionale non è "
            "raggiungibile (") in said.output


def test_readmes_club_add_leaves_one_milano(settings: Any) -> None:
    """issue (newcomer's trial): after README's `risiko national club add milano ...` the
    interclub lists showed two Milanos, the default club ("Risiko! Club Milano",
    identifier risiko-club-milano) and the new "milano". README now starts the server as
    milano (RISIKO_CLUB_ID=milano) and adds another club: following it, one Milano, and
    `club add milano` is refused as registered."""
    import re
    import shlex
    from pathlib import Path

    import typer
    from typer.testing import CliRunner

    from risiko.cli import national_commands
    from risiko.web.clubs import default_club
    from risiko.web.national.models import Club

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    block = readme[readme.index("## The national ranking"):]
    block = block[:block.index("\n```\n", block.index("```") + 3)]
    env = dict(re.findall(r"(RISIKO_CLUB_ID)=(\S+) .*risiko serve", block))
    settings.RISIKO_CLUB_ID = env.get("RISIKO_CLUB_ID", "")
    settings.RISIKO_CLUB_NAME = "Risiko! Club Milano"
    Club.objects.all().delete()
    default_club()  # the server's first start
    line = next(x for x in block.splitlines() if x.startswith("risiko national club add"))
    args = shlex.split(line.split("#")[0])[1:]
    app = typer.Typer()
    national_commands.register(app)
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 0, done.output
    assert [c.key for c in Club.objects.all() if "milano" in c.name.lower()] == ["milano"]
    again = CliRunner().invoke(app, ["national", "club", "add", "milano", "MILANO"])
    assert again.exit_code == 2 and "already registered" in again.stderr


def test_the_club_variable_refuses_as_club_does_and_the_register_names_the_club(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The newcomer's trial: ``RISIKO_NATIONAL_CLUB_ID=roma`` published a Milano tournament
    for Milano in silence where ``--club roma`` is refused; ``--club-name`` put Roma's
    players under "MILANO [Club Milano]" on the list; a workbook of Milano could not be
    published once a second club had Milano's name. Now the variable is ``--club``'s
    default and the refusal names it; the list names the club as registered; a workbook's
    ``--club`` gives its club's identifier, and without it two clubs of one name are said
    (``national.cli_workbook_club``)."""
    import typer
    from typer.testing import CliRunner

    from risiko.cli import national_commands
    from risiko.web import services
    from risiko.web.clubs import club_scope
    from risiko.web.national.models import Club, NationalTournament, TournamentRevision

    app = typer.Typer()
    national_commands.register(app)

    def run(*args: str) -> Any:
        return CliRunner().invoke(app, ["national", *args, "--by", "arb"])

    roma = Club.objects.create(key="roma", name="ROMA [Roma Club]", slug="roma")
    milano = Club.objects.create(key="milano", name="MILANO [Club Milano]", slug="milano")
    with club_scope(milano):
        t = services.import_season(json.loads(SEASON.read_text(encoding="utf-8")),
                                   who="arbitro")
    monkeypatch.setenv("RISIKO_NATIONAL_CLUB_ID", "roma")
    refused = run("publish", t.slug)
    assert refused.exit_code == 2, refused.output
    assert "not of RISIKO_NATIONAL_CLUB_ID roma" in refused.output
    by_variable = run("publish", str(SEASON))  # a season file: the variable names the club
    assert by_variable.exit_code == 0, by_variable.output  # roma, registered: for roma
    monkeypatch.setenv("RISIKO_NATIONAL_CLUB_ID", "romaa")
    unknown = run("publish", str(SEASON))
    assert unknown.exit_code == 2 and "RISIKO_NATIONAL_CLUB_ID romaa:" in unknown.output
    monkeypatch.delenv("RISIKO_NATIONAL_CLUB_ID")
    assert NationalTournament.objects.count() == 1
    stored = TournamentRevision.objects.get()
    assert stored.report["club"] == {"id": "roma", "name": "ROMA [Roma Club]"}
    # --club-name naming another club: the register's name is stored, never the given one
    ids = tmp_path / "ids.csv"
    ids.write_text("Alba,555\n", encoding="utf-8")
    renamed = run("publish", t.slug, "--club-name", "ROMA [Roma Club]", "--national-ids",
                  str(ids))
    assert renamed.exit_code == 0, renamed.output
    mine = TournamentRevision.objects.get(tournament__club=milano)
    assert mine.report["club"] == {"id": "milano", "name": "MILANO [Club Milano]"}
    assert set(mine.results.values_list("club", flat=True)) == {"MILANO [Club Milano]"}
    # a workbook names its club by name: --club gives its identifier
    xls = tmp_path / "open.xls"
    made = CliRunner().invoke(app, ["national", "workbook", str(REPORT_FILE), "-o", str(xls)])
    assert made.exit_code == 0, made.output
    Club.objects.create(key="milan2", name="MILANO [Club Milano]", slug="milan2")
    two = run("publish", str(xls))
    assert two.exit_code == 2, two.output
    assert "open.xls: a GestioneTorneo workbook names its club by name only" in two.output
    given = run("publish", str(xls), "--club", "milano")
    assert given.exit_code == 0, given.output
    assert NationalTournament.objects.filter(club=milano).count() == 2
    assert not NationalTournament.objects.filter(club__key="milan2").exists()
    del roma


def test_a_report_files_club_found_by_its_key_asks_no_club_by_name(tmp_path: Path) -> None:
    """``_check_report_club`` asks for the clubs of the report's name only when no club has
    its identifier: the server's own club (given by the caller) costs no query, another
    registered club one (by key), an unregistered one two (by key, then by name: the one
    club of that name is the report's, two are refused)."""
    from types import SimpleNamespace

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from risiko.cli import national_commands
    from risiko.web.national.models import Club

    own = Club.objects.create(key="milano", name="MILANO [Club Milano]", slug="milano")
    Club.objects.create(key="roma", name="ROMA [Roma Club]", slug="roma")
    path = tmp_path / "open.json"

    def queries(club_id: str, name: str) -> list[str]:
        report = SimpleNamespace(club_id=club_id, club_name=name)
        with CaptureQueriesContext(connection) as seen:
            national_commands._check_report_club(report, path, "", "--club", own,
                                                 remote=False)
        return [q["sql"] for q in seen.captured_queries]

    assert queries("milano", "MILANO [Club Milano]") == []
    assert len(by_key := queries("roma", "ROMA [Roma Club]")) == 1 and '"key"' in by_key[0]
    by_name = queries("roma2", "ROMA [Roma Club]")  # the one club of that name: Roma's
    assert len(by_name) == 2 and '"name"' in by_name[1]


def test_a_new_club_identifier_has_one_form_one_case_and_is_no_url_name() -> None:
    """``club add "Bad Id!" X`` and ``club add ROMA`` were accepted (ROMA and roma two
    clubs), and an identifier could be another club's URL name (``--club`` then picked the
    identifier's club). Now: the form is refused saying the pattern; an identifier stored
    before in capitals is met whatever the case; an identifier that is another club's URL
    name, or a URL name that is another club's identifier, is refused naming both clubs;
    nothing is written (exit 1, a fault of the register)."""
    import typer
    from typer.testing import CliRunner

    from risiko.cli import national_commands
    from risiko.web.national.models import Club
    from risiko.web.national.publishing import PublishError, register_club

    app = typer.Typer()
    national_commands.register(app)

    def run(*args: str) -> Any:
        return CliRunner().invoke(app, ["national", *args])

    Club.objects.create(key="MILANO", name="MILANO [Club Milano]", slug="club-milano")
    Club.objects.create(key="torino", name="TORINO [Club Torino]", slug="roma")
    pattern = "[a-z0-9](?:[a-z0-9-]*[a-z0-9])?"
    for bad in ("Bad Id!", "ROMA", "roma_2", "roma-", "rò"):
        said = run("club", "add", bad, "X")
        assert said.exit_code == 2, said.output
        assert said.stderr.strip() == (
            f"identifier {bad}: lowercase letters a-z, digits and hyphens only, a letter or "
            f"digit first and last (the pattern {pattern}), e.g. milano, roma-2")
    with use_language("it"):
        said = run("club", "add", "ROMA", "X")
    assert said.stderr.startswith("identificativo ROMA: solo lettere minuscole a-z")
    twin = run("club", "add", "milano", "Altro Milano")
    assert twin.exit_code == 2
    assert twin.stderr.strip() == "club MILANO is already registered (MILANO [Club Milano])"
    is_slug = run("club", "add", "roma", "ROMA [Roma Club]")
    assert is_slug.exit_code == 2
    assert is_slug.stderr.strip() == (
        "identifier roma is the URL name of club torino (TORINO [Club Torino]): --club "
        "would name both; choose another identifier")
    is_key = run("club", "add", "genova", "GENOVA", "--slug", "Torino")
    assert is_key.stderr.strip() == (
        "the URL name torino is the identifier of club torino (TORINO [Club Torino]): "
        "--club would name both; choose another (--slug)")
    assert not Club.objects.filter(key__in=["roma", "genova", "ROMA", "Bad Id!"]).exists()
    with pytest.raises(PublishError) as refused:
        register_club("roma", "ROMA", by="t")
    fault = refused.value.faults[0]
    assert (fault.code, fault.subjects) == ("national.club_key_is_slug",
                                            {"club": "roma", "other": "torino"})
    with pytest.raises(PublishError) as refused:
        register_club("-roma", "ROMA", by="t")
    assert refused.value.faults[0].code == "national.club_key_form"
    # a URL name made for a report's club is never another club's identifier either
    Club.objects.create(key="roma-club", name="Roma", slug="rc")
    assert Club.objects.create(key="Roma Club", name="Roma Club").slug == "roma-club-2"
    assert run("club", "add", "genova", "GENOVA").exit_code == 0


def test_club_add_and_publish_refuse_in_json_with_json_and_exit_2(tmp_path: Path) -> None:
    """``club add --json`` and ``publish --json`` printed nothing on stdout when they
    refused: now ``{"faults": [...]}`` (code, clause, subjects, message in English), the
    same line on stderr; every refusal of ``club add``, ``key`` and ``publish`` exits 2
    (1 stays for what could not be done: a file unreadable, a server unreachable)."""
    import typer
    from typer.testing import CliRunner

    from risiko.cli import national_commands
    from risiko.web.national.models import Club

    app = typer.Typer()
    national_commands.register(app)

    def run(*args: str) -> Any:
        return CliRunner().invoke(app, ["national", *args])

    Club.objects.create(key="torino", name="TORINO [Club Torino]", slug="roma")
    bad = run("club", "add", "roma", "ROMA", "--json")
    assert bad.exit_code == 2
    [fault] = json.loads(bad.stdout)["faults"]
    assert {k: fault[k] for k in ("code", "clause", "subjects", "message")} == {
        "code": "national.club_key_is_slug", "clause": "",
        "subjects": {"club": "roma", "other": "torino"},
        "message": "identifier roma is the URL name of club torino (TORINO [Club Torino]): "
                   "--club would name both; choose another identifier"}
    assert bad.stderr.strip() == fault["message"]
    needs = run("club", "add", "roma", "--json")  # no name: a refusal of the command's own
    assert needs.exit_code == 2 and len(json.loads(needs.stdout)["faults"]) == 1
    plain = run("club", "add", "roma", "ROMA")  # without --json: nothing on stdout
    assert (plain.exit_code, plain.stdout) == (2, "")
    unknown = run("publish", "no-such-tournament", "--json")
    assert unknown.exit_code == 2
    [said] = json.loads(unknown.stdout)["faults"]
    assert (said["code"], said["message"]) == (
        "national.cli_no_tournament",
        "no-such-tournament: no such tournament here (and no such report file)")
    assert run("key", "issue", "nowhere").exit_code == 2
    file = tmp_path / "open.json"
    file.write_text(json.dumps(open_2019().to_json()), encoding="utf-8")
    unregistered = run("publish", str(file), "--json")  # open_2019's club is not registered
    assert unregistered.exit_code == 2
    [said] = json.loads(unregistered.stdout)["faults"]
    assert said["code"] == "national.cli_report_unknown_club"
    assert run("club", "add", "roma-club", "ROMA", "--json").exit_code == 0
