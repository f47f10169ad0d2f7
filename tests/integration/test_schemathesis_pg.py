"""On PostgreSQL: the schemathesis tests of tests/campaign/api/test_schemathesis.py
run again in the integration pass (``make test-integration``: DATABASE_URL is
PostgreSQL), where NUL bytes, surrogates and 64-bit overflows fail differently."""

import pytest

from tests.campaign.api.test_schemathesis import (  # noqa: F401 - collected here as well
    _keep_the_test_transaction,
    organiser_token,
    test_no_server_error_for_an_organiser,
    test_no_server_error_for_the_public,
)

pytestmark = pytest.mark.integration
