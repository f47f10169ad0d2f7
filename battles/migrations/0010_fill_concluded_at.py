"""Every concluded battle gets its ``concluded_at``.

Recording another game system's battle, the sample loader and the league generator set the
status without the time. The time filled is the best one recorded: the history row in which
the battle last became concluded (the first of its final run of concluded rows), else its
last update (``updated_at``) when it has no such row.
"""

from django.db import migrations


def fill_concluded_at(apps, schema_editor):
    Battle = apps.get_model("battles", "Battle")
    History = apps.get_model("battles", "HistoricalBattle")
    missing = Battle.objects.filter(status="concluded", concluded_at__isnull=True)
    for battle in missing.iterator():
        rows = History.objects.filter(id=battle.pk).order_by("history_date", "history_id")
        when = None
        for status, date in rows.values_list("status", "history_date"):
            if status != "concluded":
                when = None
            elif when is None:
                when = date
        Battle.objects.filter(pk=battle.pk).update(concluded_at=when or battle.updated_at)


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0009_battle_mode_turns"),
    ]

    operations = [
        # The times filled are right whatever the schema: going back leaves them.
        migrations.RunPython(fill_concluded_at, migrations.RunPython.noop),
    ]
