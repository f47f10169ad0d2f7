"""Ship classes' figures (mass, hull boxes, armour, thrust, points) read again from their
design document wherever a column disagrees with it: the document is the source, the columns
its copies (``ShipClass.set_design``). A class without a design, or whose design lacks a
figure, is left as it is; points are compared only where the design states them. The rule is restated here so the migration keeps meaning what it
meant when written."""

from django.db import migrations

FIGURES = ("mass", "hull_boxes", "armour", "thrust", "points")


def _figures(design):
    """The columns ``design`` gives, or None when it does not give them all."""
    if not isinstance(design, dict):
        return None
    hull = design.get("hull")
    armour = design.get("armour") or {}
    layers = (armour.get("layers") or []) if isinstance(armour, dict) else None
    points = design.get("points")
    numbers = [design.get("mass"), design.get("thrust", 0)]
    numbers.append(hull.get("boxes") if isinstance(hull, dict) else None)
    if layers is None or not all(isinstance(n, int) for n in [*numbers, *layers]):
        return None
    if points is not None and not isinstance(points, int):
        return None
    mass, thrust, boxes = numbers
    return {
        "mass": mass,
        "hull_boxes": boxes,
        "armour": sum(layers),
        "thrust": thrust,
        "points": points,
    }


def rederive(apps, schema_editor):
    ShipClass = apps.get_model("factions", "ShipClass")
    for sc in ShipClass.objects.exclude(design={}).iterator():
        figures = _figures(sc.design)
        if figures is None:
            continue
        if figures["points"] is None:
            del figures["points"]
        changed = {k: v for k, v in figures.items() if getattr(sc, k) != v}
        if changed:
            ShipClass.objects.filter(pk=sc.pk).update(**changed)


class Migration(migrations.Migration):
    dependencies = [
        ("factions", "0003_data_version"),
    ]

    operations = [
        # Going back keeps the figures: they are right under either schema.
        migrations.RunPython(rederive, migrations.RunPython.noop),
    ]
