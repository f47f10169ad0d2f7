"""Who won is stored once, and deletes no longer rewrite concluded battles.

- ``RecordEntry.winner`` (a faction slug) becomes the ``BattleSide`` it names: a slug that
  is no side of the entry's battle becomes None (no winner named).
- ``BattleSide.is_winner`` goes: a battle without ``winner`` whose one flagged side won
  gets that side's faction as ``winner`` (several flagged sides: ambiguous, left a draw).
- Participants name exactly one of ship or light units, a ship once per side: a row with
  both is split in two (the ship keeps its losses, the new row the group's craft lost); a
  second row of the same ship on a side is deleted (the first, lowest id, stands).
- Ships, light-unit groups, fleets and winners of battles are protected from deletes.

Each step runs backwards too (slugs and flags written back from the new fields).
"""

import django.db.models.deletion
from django.db import migrations, models


def _flush(schema_editor):
    # PostgreSQL refuses to alter a table with deferred foreign-key checks pending from
    # rows this migration wrote: run those checks now.
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def _side_by_slug(BattleSide):
    return {
        (battle_id, slug): pk
        for pk, battle_id, slug in BattleSide.objects.values_list(
            "pk", "battle_id", "faction__slug"
        )
    }


def entries_to_sides(apps, schema_editor):
    sides = _side_by_slug(apps.get_model("battles", "BattleSide"))
    for name in ("RecordEntry", "HistoricalRecordEntry"):
        model = apps.get_model("battles", name)
        for row in model.objects.exclude(winner="").only("pk", "battle_id", "winner"):
            side = sides.get((row.battle_id, row.winner))
            if side is not None:
                model.objects.filter(pk=row.pk).update(winner_side_id=side)
    _flush(schema_editor)


def entries_to_slugs(apps, schema_editor):
    slugs = dict(apps.get_model("battles", "BattleSide").objects.values_list("pk", "faction__slug"))
    for name in ("RecordEntry", "HistoricalRecordEntry"):
        model = apps.get_model("battles", name)
        for pk, side in model.objects.filter(winner_side__isnull=False).values_list(
            "pk", "winner_side_id"
        ):
            model.objects.filter(pk=pk).update(winner=slugs.get(side, ""))
    _flush(schema_editor)


def flags_to_battles(apps, schema_editor):
    Battle = apps.get_model("battles", "Battle")
    BattleSide = apps.get_model("battles", "BattleSide")
    flagged: dict[int, list[int]] = {}
    for battle_id, faction_id in BattleSide.objects.filter(
        is_winner=True, battle__winner__isnull=True
    ).values_list("battle_id", "faction_id"):
        flagged.setdefault(battle_id, []).append(faction_id)
    for battle_id, factions in flagged.items():
        if len(factions) == 1:
            Battle.objects.filter(pk=battle_id).update(winner_id=factions[0])
    _flush(schema_editor)


def battles_to_flags(apps, schema_editor):
    BattleSide = apps.get_model("battles", "BattleSide")
    BattleSide.objects.filter(battle__winner=models.F("faction")).update(is_winner=True)
    _flush(schema_editor)


def one_unit_per_participant(apps, schema_editor):
    Participant = apps.get_model("battles", "Participant")
    for p in Participant.objects.filter(ship__isnull=False, light_units__isnull=False):
        Participant.objects.create(
            side_id=p.side_id, light_units_id=p.light_units_id, fate=p.fate,
            craft_lost=p.craft_lost, notes=p.notes,
        )  # fmt: skip
        Participant.objects.filter(pk=p.pk).update(light_units=None, craft_lost=0)
    seen: set[tuple[int, int]] = set()
    for pk, side_id, ship_id in (
        Participant.objects.filter(ship__isnull=False)
        .order_by("pk")
        .values_list("pk", "side_id", "ship_id")
    ):
        if (side_id, ship_id) in seen:
            Participant.objects.filter(pk=pk).delete()
        seen.add((side_id, ship_id))
    _flush(schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0010_fill_concluded_at"),
        ("factions", "0003_data_version"),
    ]

    operations = [
        # RecordEntry.winner: a slug, then the side it names.
        migrations.AddField(
            model_name="recordentry",
            name="winner_side",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.RESTRICT,
                related_name="+",
                to="battles.battleside",
                verbose_name="winner",
            ),
        ),
        migrations.AddField(
            model_name="historicalrecordentry",
            name="winner_side",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                null=True,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+",
                to="battles.battleside",
                verbose_name="winner",
            ),
        ),
        migrations.RunPython(entries_to_sides, entries_to_slugs),
        migrations.RemoveField(model_name="recordentry", name="winner"),
        migrations.RemoveField(model_name="historicalrecordentry", name="winner"),
        migrations.RenameField(
            model_name="recordentry", old_name="winner_side", new_name="winner"
        ),
        migrations.RenameField(
            model_name="historicalrecordentry", old_name="winner_side", new_name="winner"
        ),
        # BattleSide.is_winner: folded into Battle.winner.
        migrations.RunPython(flags_to_battles, battles_to_flags),
        migrations.RemoveField(model_name="battleside", name="is_winner"),
        migrations.RemoveField(model_name="historicalbattleside", name="is_winner"),
        # Participants: exactly one unit, a ship once per side.
        migrations.RunPython(one_unit_per_participant, migrations.RunPython.noop),
        migrations.RemoveConstraint(model_name="participant", name="participant_has_unit"),
        migrations.AddConstraint(
            model_name="participant",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("light_units__isnull", True), ("ship__isnull", False)),
                    models.Q(("light_units__isnull", False), ("ship__isnull", True)),
                    _connector="OR",
                ),
                name="participant_one_unit",
            ),
        ),
        migrations.AddConstraint(
            model_name="participant",
            constraint=models.UniqueConstraint(
                condition=models.Q(("ship__isnull", False)),
                fields=("side", "ship"),
                name="participant_unique_ship",
            ),
        ),
        # Deletes that would rewrite concluded battles are refused.
        migrations.AlterField(
            model_name="battle",
            name="winner",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="battles_won",
                to="factions.faction",
                verbose_name="winner",
            ),
        ),
        migrations.AlterField(
            model_name="battleside",
            name="fleet",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="battle_sides",
                to="factions.fleet",
                verbose_name="fleet",
            ),
        ),
        migrations.AlterField(
            model_name="participant",
            name="light_units",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="participations",
                to="factions.lightunitgroup",
                verbose_name="light units",
            ),
        ),
        migrations.AlterField(
            model_name="participant",
            name="ship",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="participations",
                to="factions.ship",
                verbose_name="ship",
            ),
        ),
    ]
