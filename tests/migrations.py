"""Moving the test database between migrations, for tests of data migrations.

A test migrates its app back to the state before the migration under test, writes rows with
that state's models (never the current ones: their columns may not exist yet), migrates
forward and compares. :func:`migrate_latest` in a ``finally`` puts every app back at its
last migration, so the tests after it find the whole schema.
"""

from __future__ import annotations

from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.state import StateApps


def migrate_to(target: tuple[str, str]) -> StateApps:
    """Migrate ``target``'s app to ``target``, every other app to its last migration that
    does not need a later one of ``target``'s app;
    returns the models of that state (``apps.get_model("battles", "Battle")``)."""
    executor = MigrationExecutor(connection)
    graph = executor.loader.graph
    allowed = set(graph.forwards_plan(target))
    nodes = [target]
    for leaf in graph.leaf_nodes():
        if leaf[0] == target[0]:
            continue
        # Another app's last migration may need a later one of ``target``'s app (the
        # commanders' renown rows point to battles): step back to the last that does not.
        node = leaf
        while node is not None and any(
            n[0] == target[0] and n not in allowed for n in graph.forwards_plan(node)
        ):
            parents = [p for p in graph.node_map[node].parents if p.key[0] == node[0]]
            node = parents[0].key if parents else None
        if node is not None:
            nodes.append(node)
    executor.migrate(nodes)
    return MigrationExecutor(connection).loader.project_state(nodes).apps


def migrate_latest() -> None:
    """Every app at its last migration."""
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
