"""Read a campaign document into a new campaign, in one transaction.

Three steps: :func:`document_parse` checks every field (pydantic, errors by JSON path);
:func:`_plan` checks every reference against the document itself (natural keys,
positions, engine ids, user names) and :func:`_existing` the rows that must not exist yet
(the campaign's slug, factions' slugs and names, fleets' slugs); only then are rows
created, table by table in dependency order (``bulk_create``: no per-row signals, no
history rows — the import starts the history). Any failure rolls everything back.

Decisions (README, *Moving a campaign*):

- **Factions** are rows shared between campaigns; a document carries its factions whole
  (territories, designs, fleets), so a faction that exists here already is refused,
  naming ``factions[i].slug``: an import never merges into another campaign's faction.
- **People** are named by user name. A user who exists here is the same person (their
  memberships are added); one who does not is created with no usable password (as
  ``manage.py add_member`` does): staff set one, or send an invitation. No e-mail address
  or password travels in a document.
- **Times** are kept as written (``created_at``, a turn's ``opened_at``…).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.utils.translation import gettext as _

from campaign.core.actors import is_system
from campaign.core.refusals import Kind, Refused
from campaign.exchange.document import DocumentError, document_parse, reference_target
from campaign.exchange.ids import UnknownRef
from campaign.exchange.tables import KIND_TABLES, TABLES, USER, Table, user_model
from campaign.league.models import Campaign


@dataclass
class ImportResult:
    """What an import made: the ``campaign``, rows created by table name, and the user
    names of the accounts it created (no usable password yet)."""

    campaign: Campaign
    rows: dict[str, int] = field(default_factory=dict)
    users_created: list[str] = field(default_factory=list)


def require_importer(user: Any) -> None:
    """Only staff and the system actor import: an import creates a campaign, global
    factions and user accounts, which no campaign role covers. Raises :class:`Refused`
    (403)."""
    if is_system(user) or (user is not None and user.is_authenticated and user.is_staff):
        return
    raise Refused(_("only staff may import a campaign"))


#: Tables whose rows are named by a natural key (the others by position).
_NATURAL = {t.name for t in TABLES if t.key}


def _key(table: Table, row: dict[str, Any], position: int) -> Any:
    return "/".join(str(row[k]) for k in table.key) if table.key else position


def _plan(data: dict[str, Any]) -> set[str]:
    """Check every reference of the document against the document; returns the user
    names it names. Raises :class:`DocumentError` listing every bad path."""
    errors: list[tuple[str, str]] = []
    keys: dict[str, set[Any]] = {}
    for table in TABLES:
        seen: set[Any] = set()
        for i, row in enumerate(data[table.name]):
            key = _key(table, row, i + 1)
            if key in seen:
                where = f"{table.name}[{i}].{table.key[-1]}"
                errors.append((where, _("%(key)r is named twice") % {"key": key}))
            seen.add(key)
        keys[table.name] = seen
    users: set[str] = set()
    username = user_model()._meta.get_field("username")

    def check(kind: str, value: Any) -> Any:
        name = KIND_TABLES[kind]
        if name in _NATURAL:
            if value not in keys[name]:
                raise KeyError(value)
        elif not (isinstance(value, int) and 1 <= value <= len(data[name])):
            raise KeyError(value)
        return value

    for table in TABLES:
        relations = [f for f in table.fields() if f.is_relation]
        for i, row in enumerate(data[table.name]):
            for f in relations:
                value = row[f.name]
                if value is None:
                    continue
                where = f"{table.name}[{i}].{f.name}"
                target = reference_target(f)
                if target == USER:
                    if value not in users:
                        try:
                            username.run_validators(value)
                        except ValidationError as exc:
                            errors.append((where, " ".join(exc.messages)))
                            continue
                        users.add(value)
                elif value not in keys[target.name]:
                    size = len(data[target.name])
                    problem = (
                        _("no row %(key)r in %(table)s")
                        if target.key
                        else _("no row %(key)r in %(table)s (it has rows 1 to %(size)s)")
                    )
                    errors.append(
                        (where, problem % {"key": value, "table": target.name, "size": size})
                    )
            for name, walk in table.ids.items():
                try:
                    walk(row[name], check)
                except UnknownRef as exc:
                    errors.append(
                        (
                            f"{table.name}[{i}].{name}.{exc.path}".rstrip("."),
                            _("%(ref)s names no row of the document") % {"ref": exc.ref},
                        )
                    )
    if errors:
        first = f"{errors[0][0]}: {errors[0][1]}"
        raise DocumentError(_("dangling reference: %(first)s") % {"first": first}, errors=errors)
    return users


def _existing(data: dict[str, Any]) -> None:
    """Refuse (409, naming the path) rows whose unique values this instance holds already."""
    errors: list[tuple[str, str]] = []
    slug = data["campaign"]["slug"]
    if Campaign.objects.filter(slug=slug).exists():
        errors.append(("campaign.slug", _("a campaign %(slug)r exists already") % {"slug": slug}))
    for table in TABLES:
        for name in table.unique:
            values = [row[name] for row in data[table.name]]
            taken = set(
                table.model._base_manager.filter(**{f"{name}__in": values}).values_list(
                    name, flat=True
                )
            )
            for i, value in enumerate(values):
                if value in taken:
                    errors.append(
                        (
                            f"{table.name}[{i}].{name}",
                            _("%(value)r exists already on this instance") % {"value": value},
                        )
                    )
    if errors:
        raise Refused(
            _("already here: %(first)s") % {"first": f"{errors[0][0]}: {errors[0][1]}"},
            kind=Kind.CONFLICT,
            errors=errors,
        )


def _users(names: set[str]) -> tuple[dict[str, int], list[str]]:
    model = user_model()
    found = dict(model._default_manager.filter(username__in=names).values_list("username", "pk"))
    missing = sorted(names - set(found))
    made = []
    for name in missing:
        account = model(username=name)
        account.set_unusable_password()
        made.append(account)
    model._default_manager.bulk_create(made)
    found.update({u.username: u.pk for u in made})
    return found, missing


def _auto_times(model: type[models.Model]) -> list[models.Field]:
    return [
        f
        for f in model._meta.concrete_fields
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]


def campaign_import(*, document: Any, user: Any) -> ImportResult:
    """Create the campaign ``document`` (a decoded JSON value) describes, with all its rows.

    Staff and the system actor only (:func:`require_importer`). Raises
    :class:`DocumentError` (422) for another schema version (naming ``version``), an
    invalid field or a dangling reference (naming each JSON path), :class:`Refused` (409)
    when the campaign's slug, a faction's slug or name or a fleet's slug exists here
    already. Nothing is written unless everything is: one transaction."""
    require_importer(user)
    data = document_parse(document)
    usernames = _plan(data)
    _existing(data)
    result = ImportResult(campaign=Campaign(**data["campaign"]))
    try:
        result.campaign.full_clean(validate_unique=False)
    except ValidationError as exc:
        errors = [(f"campaign.{k}", " ".join(v)) for k, v in exc.message_dict.items()]
        raise DocumentError(f"{errors[0][0]}: {errors[0][1]}", errors=errors) from None
    with transaction.atomic():
        users, result.users_created = _users(usernames)
        try:
            _write(data, result, users)
        except IntegrityError as exc:
            raise DocumentError(
                _("the database refused the document: %(error)s") % {"error": exc}
            ) from None
    return result


def _write(data: dict[str, Any], result: ImportResult, users: dict[str, int]) -> None:
    campaign = result.campaign
    campaign.save()
    pks: dict[str, list[int]] = {}
    by_key: dict[str, dict[Any, int]] = {}

    def mapper(kind: str, value: Any) -> int:
        name = KIND_TABLES[kind]
        return by_key[name][value] if name in _NATURAL else pks[name][value - 1]

    later: dict[str, list[tuple[models.Model, dict[str, Any]]]] = defaultdict(list)
    for table in TABLES:
        model = table.model
        fields = table.fields()
        parent = [
            f for f in model._meta.concrete_fields if f.is_relation and f.related_model is Campaign
        ]
        times = _auto_times(model)
        # Ids naming rows not created yet (a turn's summary names constructions) are
        # mapped once every table is written.
        needs = {KIND_TABLES[k] for walk in table.ids.values() for k in walk.kinds}
        deferred = not needs <= set(pks)
        objs, kept = [], []
        for row in data[table.name]:
            values: dict[str, Any] = {}
            for f in fields:
                value = row[f.name]
                if f.is_relation and value is not None:
                    target = reference_target(f)
                    if target == USER:
                        value = users[value]
                    elif target.key:
                        value = by_key[target.name][value]
                    else:
                        value = pks[target.name][value - 1]
                elif f.name in table.ids and not deferred:
                    value = table.ids[f.name](value, mapper)
                values[f.attname] = value
            for f in parent:
                values[f.attname] = campaign.pk
            obj = model(**values)
            objs.append(obj)
            kept.append({f.attname: values[f.attname] for f in times})
            if deferred:
                later[table.name].append((obj, row))
        if table.replaces:
            model._default_manager.filter(**{table.scope: campaign}).delete()
        model._default_manager.bulk_create(objs, batch_size=500)
        exported = {f.name for f in fields}
        restore = [f.attname for f in times if f.name in exported]
        if restore and objs:
            for obj, values in zip(objs, kept, strict=True):
                for name in restore:
                    if values[name] is not None:
                        setattr(obj, name, values[name])
            model._default_manager.bulk_update(objs, restore, batch_size=500)
        pks[table.name] = [o.pk for o in objs]
        if table.key:
            by_key[table.name] = {
                _key(table, row, i + 1): o.pk
                for i, (row, o) in enumerate(zip(data[table.name], objs, strict=True))
            }
        result.rows[table.name] = len(objs)
    for table in TABLES:
        changed = []
        for obj, row in later.get(table.name, []):
            new = {name: walk(row[name], mapper) for name, walk in table.ids.items()}
            if any(new[name] != row[name] for name in new):
                for name, value in new.items():
                    setattr(obj, name, value)
                changed.append(obj)
        if changed:
            table.model._default_manager.bulk_update(changed, list(table.ids), batch_size=500)
    # Every exported faction takes part in the campaign (that is how the export chose them).
    campaign.factions.add(*pks["factions"])
