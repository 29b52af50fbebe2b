"""Live pages (issue 18 §1): a saved change pushed to every open page it touches.

When a write commits (:func:`risiko.web.core.writes.write`, the one place: its
``AFTER_COMMIT`` hook), :mod:`.hub` queues the change; its thread renders every subscribed
page of the tournaments it touched once per language (:mod:`.render`: the page's ``<main>``
as the phones' browsers would get it) and the referees' notice once per language, and sends
each fragment to the group of that page (:mod:`.groups`) over the channel layer; the
consumer (:mod:`.consumers`, ``ws/live/``) passes it on. ``live/live.js`` swaps a public
page's ``<main>``; a console page reloads itself unless the referee is filling a form, then
it shows "aggiornato da X" and a button to reload. The 10 s poll stays as the fallback.
"""
