"""What a designer meets first with a card of his own: dday card without its pack, dday new scenario's stub."""

from __future__ import annotations

from click.testing import CliRunner, Result

from ddaydice.interpreter.cli import main


def _cli(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def test_a_card_not_in_the_content_may_be_in_a_pack_folder() -> None:
    """'dday card ranger' answered only "did you mean 'ranger-tab'?": the designer's Ranger is in his pack."""
    result = _cli("card", "ranger")
    assert result.exit_code == 2
    assert "no card 'ranger'; did you mean 'ranger-tab'?; a card of a pack folder of yours is shown with " \
           "--pack PATH" in result.output
    loaded = _cli("card", "ranger", "--pack", "atlantikwall")
    assert "it is in none of the packs loaded (atlantikwall)" in loaded.output
