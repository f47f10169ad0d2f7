"""Shortest paths over a campaign's links, weighted by their travel time in turns
(Dijkstra, networkx's ``single_source_dijkstra``: https://networkx.org/documentation/stable/
reference/algorithms/generated/networkx.algorithms.shortest_paths.weighted.single_source_dijkstra.html).

Ties between paths of the same travel time go to the one networkx finds first over a
graph built in a fixed order (links by id), so the same map always gives the same route.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import networkx as nx


def link_graph(links: Iterable[tuple[int, int, int]]) -> nx.Graph:
    """A graph of ``(a_id, b_id, travel_turns)`` links (weights in turns), built in the
    order given."""
    # networkx loads where a route is sought, not with the models: importing it costs
    # about 0.24 s of CPU of every ``manage.py`` command (bench/startup.py).
    import networkx as nx

    graph = nx.Graph()
    for a, b, turns in links:
        graph.add_edge(a, b, weight=turns)
    return graph


def shortest_route(graph: nx.Graph, origin: int, destination: int) -> tuple[int, list[int]]:
    """``(travel turns, [origin, …, destination])``: the quickest way along links.

    Raises ``LookupError`` when no chain of links joins them (or either is on no link).
    """
    if origin not in graph or destination not in graph:
        raise LookupError("no route")
    import networkx as nx  # for start-up speed, as in link_graph

    try:
        turns, path = nx.single_source_dijkstra(graph, origin, destination, weight="weight")
    except nx.NetworkXNoPath as exc:
        raise LookupError("no route") from exc
    return int(turns), [int(s) for s in path]
