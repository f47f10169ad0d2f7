"""Turn-by-turn plays record the rules engine that set them up and keep the engine's state
after each turn."""

from django.db import migrations, models


def record_engine(apps, schema_editor):
    """Plays still being fought were set up before the engine was recorded: they take the
    engine running now (the one that played their turns so far, unless it changed since
    the last deploy). They have no stored state: their next turn replays them from the
    set-up once and stores it."""
    from battles.play.engine_state import engine_hash

    TurnPlay = apps.get_model("battles", "TurnPlay")
    TurnPlay.objects.filter(ended=False, engine_hash="").update(engine_hash=engine_hash())


def forget_engine(apps, schema_editor):
    """Nothing to put back: the fields are removed by the schema's reverse."""


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0011_one_winner_protected_history"),
    ]

    operations = [
        migrations.AddField(
            model_name="turnplay",
            name="engine_hash",
            field=models.CharField(blank=True, max_length=64, verbose_name="rules engine"),
        ),
        migrations.AddField(
            model_name="turnplay",
            name="state",
            field=models.JSONField(blank=True, null=True, verbose_name="engine state"),
        ),
        migrations.RunPython(record_engine, forget_engine),
    ]
