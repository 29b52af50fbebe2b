"""docs/online.md shows exactly the protocol's schemas (risiko.web.online.protocol)."""

from __future__ import annotations

from pathlib import Path

from risiko.web.online import protocol

DOC = Path(__file__).resolve().parents[2] / "docs" / "online.md"


def test_the_documentation_shows_every_schema_as_in_the_code() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert protocol.markdown() in text
    for name in [*protocol.CLIENT, *protocol.SERVER]:
        assert f"### `{name}`" in text
