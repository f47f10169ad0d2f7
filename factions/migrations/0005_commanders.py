"""Commanders become records: ``Commander`` (with its history) and ``RenownAward``; the
text names of fleets' admirals, squadrons' commanders and ships' captains become
``Commander`` rows, then the text columns go.

The same name in the same faction is one person (one record). A person is in one place at
a time: a name written in several places keeps the most senior (a fleet, then a
squadron, then a ship; the lowest id first) and the other places are left without a
commander. A ship's captain belongs to the faction of the ship's fleet. Reversing
writes each commander's name back into the text column of their place.
The reverse accessors (``fleet.admiral``, ``squadron.commander``, ``ship.captain``) take
the old columns' names only once those are gone.
"""

import django.db.models.deletion
import simple_history.models
from django.conf import settings
from django.db import migrations, models

POSTS = (  # (model, text column, commander field, rank), the most senior first
    ("Fleet", "admiral", "fleet", "admiral"),
    ("Squadron", "commander", "squadron", "commander"),
    ("Ship", "captain", "ship", "captain"),
)
FACTION_OF = {"Fleet": "faction_id", "Squadron": "fleet__faction_id", "Ship": "fleet__faction_id"}


def names_to_records(apps, schema_editor):
    Commander = apps.get_model("factions", "Commander")
    people = {}  # (faction id, name) -> Commander
    for model_name, column, post, rank in POSTS:
        Model = apps.get_model("factions", model_name)
        rows = (
            Model.objects.exclude(**{column: ""})
            .order_by("pk")
            .values_list("pk", FACTION_OF[model_name], column)
        )
        for pk, faction_id, raw in rows:
            name = raw.strip()
            if not name:
                continue
            key = (faction_id, name)
            if key in people:
                continue  # already posted, more senior: one place at a time
            people[key] = Commander.objects.create(
                faction_id=faction_id, name=name, rank=rank, **{f"{post}_id": pk}
            )


def records_to_names(apps, schema_editor):
    Commander = apps.get_model("factions", "Commander")
    for model_name, column, post, _rank in POSTS:
        Model = apps.get_model("factions", model_name)
        for pk, name in Commander.objects.filter(**{f"{post}__isnull": False}).values_list(
            f"{post}_id", "name"
        ):
            Model.objects.filter(pk=pk).update(**{column: name[:200]})


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0015_narrative_per_language"),
        ("factions", "0004_rederive_ship_class_figures"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Commander",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=200, verbose_name="name")),
                (
                    "rank",
                    models.CharField(
                        choices=[
                            ("admiral", "admiral"),
                            ("commodore", "commodore"),
                            ("captain", "captain"),
                            ("commander", "commander"),
                            ("officer", "officer"),
                        ],
                        default="officer",
                        max_length=20,
                        verbose_name="rank",
                    ),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("active", "active"),
                            ("killed", "killed"),
                            ("captured", "captured"),
                        ],
                        default="active",
                        max_length=20,
                        verbose_name="status",
                    ),
                ),
                ("biography", models.TextField(blank=True, verbose_name="biography (Markdown)")),
                (
                    "faction",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="commanders",
                        to="factions.faction",
                        verbose_name="faction",
                    ),
                ),
                (
                    "fleet",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="factions.fleet",
                        verbose_name="admiral of fleet",
                    ),
                ),
                (
                    "ship",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="factions.ship",
                        verbose_name="captain of ship",
                    ),
                ),
                (
                    "squadron",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="factions.squadron",
                        verbose_name="commander of squadron",
                    ),
                ),
            ],
            options={
                "verbose_name": "commander",
                "verbose_name_plural": "commanders",
                "ordering": ["faction", "name"],
            },
        ),
        migrations.CreateModel(
            name="HistoricalCommander",
            fields=[
                (
                    "id",
                    models.BigIntegerField(
                        auto_created=True, blank=True, db_index=True, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=200, verbose_name="name")),
                (
                    "rank",
                    models.CharField(
                        choices=[
                            ("admiral", "admiral"),
                            ("commodore", "commodore"),
                            ("captain", "captain"),
                            ("commander", "commander"),
                            ("officer", "officer"),
                        ],
                        default="officer",
                        max_length=20,
                        verbose_name="rank",
                    ),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("active", "active"),
                            ("killed", "killed"),
                            ("captured", "captured"),
                        ],
                        default="active",
                        max_length=20,
                        verbose_name="status",
                    ),
                ),
                ("biography", models.TextField(blank=True, verbose_name="biography (Markdown)")),
                ("history_id", models.AutoField(primary_key=True, serialize=False)),
                ("history_date", models.DateTimeField(db_index=True)),
                ("history_change_reason", models.CharField(max_length=100, null=True)),
                (
                    "history_type",
                    models.CharField(
                        choices=[("+", "Created"), ("~", "Changed"), ("-", "Deleted")], max_length=1
                    ),
                ),
                (
                    "faction",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="factions.faction",
                        verbose_name="faction",
                    ),
                ),
                (
                    "fleet",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="factions.fleet",
                        verbose_name="admiral of fleet",
                    ),
                ),
                (
                    "history_user",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "ship",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="factions.ship",
                        verbose_name="captain of ship",
                    ),
                ),
                (
                    "squadron",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="factions.squadron",
                        verbose_name="commander of squadron",
                    ),
                ),
            ],
            options={
                "verbose_name": "historical commander",
                "verbose_name_plural": "historical commanders",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="RenownAward",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("victory", "victory"),
                            ("kills", "enemy ships destroyed or captured"),
                            ("survival", "brought a damaged ship home"),
                            ("killed", "killed with their ship"),
                            ("captured", "captured with their ship"),
                        ],
                        max_length=20,
                        verbose_name="kind",
                    ),
                ),
                ("points", models.IntegerField(default=0, verbose_name="points")),
                (
                    "battle",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="renown_awards",
                        to="battles.battle",
                        verbose_name="battle",
                    ),
                ),
                (
                    "commander",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="awards",
                        to="factions.commander",
                        verbose_name="commander",
                    ),
                ),
            ],
            options={
                "verbose_name": "renown award",
                "verbose_name_plural": "renown awards",
                "ordering": ["commander", "battle", "kind"],
            },
        ),
        migrations.AddConstraint(
            model_name="commander",
            constraint=models.UniqueConstraint(
                fields=("faction", "name"), name="commander_unique_name"
            ),
        ),
        migrations.AddConstraint(
            model_name="commander",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("fleet__isnull", True), ("squadron__isnull", True)),
                    models.Q(("fleet__isnull", True), ("ship__isnull", True)),
                    models.Q(("ship__isnull", True), ("squadron__isnull", True)),
                    _connector="OR",
                ),
                name="commander_one_place",
            ),
        ),
        migrations.AddConstraint(
            model_name="renownaward",
            constraint=models.UniqueConstraint(
                fields=("commander", "battle", "kind"), name="renown_award_unique_kind"
            ),
        ),
        migrations.RunPython(names_to_records, records_to_names),
        migrations.RemoveField(
            model_name="fleet",
            name="admiral",
        ),
        migrations.RemoveField(
            model_name="historicalfleet",
            name="admiral",
        ),
        migrations.RemoveField(
            model_name="historicalship",
            name="captain",
        ),
        migrations.RemoveField(
            model_name="ship",
            name="captain",
        ),
        migrations.RemoveField(
            model_name="squadron",
            name="commander",
        ),
        migrations.AlterField(
            model_name="commander",
            name="fleet",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="admiral",
                to="factions.fleet",
                verbose_name="admiral of fleet",
            ),
        ),
        migrations.AlterField(
            model_name="commander",
            name="squadron",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="commander",
                to="factions.squadron",
                verbose_name="commander of squadron",
            ),
        ),
        migrations.AlterField(
            model_name="commander",
            name="ship",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="captain",
                to="factions.ship",
                verbose_name="captain of ship",
            ),
        ),
    ]
