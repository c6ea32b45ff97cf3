"""companion.util.errors: one base class, and each error also the matching built-in, so a caller that
knows nothing of ours catches it (`except ValueError`)."""

from __future__ import annotations

import pytest

from companion.util.errors import ActionError, CompanionError, NotSupportedError, UsageError


@pytest.mark.parametrize("error", [ActionError, UsageError, NotSupportedError])
def test_every_error_is_ours_and_a_value_error(error):
    assert issubclass(error, CompanionError) and issubclass(error, ValueError)
    with pytest.raises(ValueError, match="one line"):
        raise error("one line")


def test_not_supported_is_a_usage_error_and_the_base_is_no_value_error():
    assert issubclass(NotSupportedError, UsageError)
    assert not issubclass(ActionError, UsageError) and not issubclass(UsageError, ActionError)
    assert issubclass(CompanionError, Exception) and not issubclass(CompanionError, ValueError)
