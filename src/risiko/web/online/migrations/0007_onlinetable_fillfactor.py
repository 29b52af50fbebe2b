"""An online table's row is rewritten at every action: on PostgreSQL its pages keep room for
the row's new versions (``fillfactor`` 10: one or two tables a page), so that every update is
a heap-only tuple update, pruned in its page, and the table does not grow with the games'
length. Measured (docs/benchmarks.md, "Issue 20"): 50 tables and 12,000 actions grew the
heap from 0.4 to 10 MiB with the default (100, 40 % of the updates not heap-only; with
autovacuum off, as on the benchmark's machine, never reclaimed), and left it at 0.4 MiB with
every update heap-only at 10. Other databases: nothing."""

from django.db import migrations


def _set(fillfactor: int):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        table = apps.get_model("online", "OnlineTable")._meta.db_table
        schema_editor.execute(
            f"ALTER TABLE {schema_editor.quote_name(table)} SET (fillfactor = {fillfactor})")
    return run


class Migration(migrations.Migration):
    dependencies = [("online", "0006_model_names")]

    operations = [migrations.RunPython(_set(10), _set(100))]
