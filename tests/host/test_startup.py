"""What ``python -m examples.host`` says to open once it starts (examples/host/__main__.py)."""

from __future__ import annotations

import pytest

from examples.host.__main__ import page_url


@pytest.mark.parametrize("bind,url", [
    ("127.0.0.1", "http://127.0.0.1:8090"), ("192.0.2.7", "http://192.0.2.7:8090"),
    ("0.0.0.0", "http://127.0.0.1:8090"), ("::", "http://[::1]:8090"),
    ("::1", "http://[::1]:8090"), ("2001:db8::7", "http://[2001:db8::7]:8090"),
    ("localhost", "http://localhost:8090")])
def test_the_startup_line_names_an_address_a_browser_opens(bind: str, url: str) -> None:
    """``CANASTA_HOST_BIND`` an IPv6 address made the line say ``open http://:::8090`` (no
    browser reads it), and a wildcard one, ``0.0.0.0``, names every address rather than one
    to open; the default, 127.0.0.1 (the README's address), is said as it was."""
    assert page_url(bind, 8090) == url
