"""Every API operation answers at the path, method and operation id it had before the
packages were split by job (``openapi_operations.json``: ``[path, method, operationId]``
of each). A new operation is added to that file on purpose; one moved or renamed fails."""

import json
from pathlib import Path

from campaign.api import api

EXPECTED = json.loads((Path(__file__).with_name("openapi_operations.json")).read_text())


def test_paths_methods_and_operation_ids_are_unchanged():
    schema = api.get_openapi_schema()
    found = sorted(
        [path, method, operation["operationId"]]
        for path, item in schema["paths"].items()
        for method, operation in item.items()
    )
    assert found == EXPECTED
