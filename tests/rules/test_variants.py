"""The variant registry: one record per variant, built from the board's data, asked by all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.rules import EndReason, Game, damath_data, variants
from controller.rules.notation import NotationError, game_to_json
from controller.rules.profiles import PROFILES, Repetition, get_profile
from controller.rules.values import ValueKind


def test_the_registry_is_the_boards_data() -> None:
    assert tuple(damath_data.PLACEMENTS) == variants.NAMES
    for name, record in variants.REGISTRY.items():
        assert record.name == name
        assert record.placement == damath_data.PLACEMENTS[name]
        assert record.value_kind == damath_data.VALUE_KINDS[name]
        assert record.rules == tuple(PROFILES)


@pytest.mark.parametrize("name", variants.NAMES)
def test_the_opening_of_every_variant(name: str) -> None:
    record = variants.get_variant(name)
    chips = record.opening_chips()
    assert len(chips) == 24
    for value, blue, red in zip(
        record.opening_values(), damath_data.BLUE_SQUARES, damath_data.RED_SQUARES, strict=True
    ):
        assert str(value) == record.placement[damath_data.BLUE_SQUARES.index(blue)]
        assert chips[blue].value == value == chips[red].value
        assert (chips[blue].side, chips[red].side) == (0, 1)
    assert Game.new(name).chips() == chips


def test_a_name_is_read_as_typed_and_an_unknown_one_is_refused() -> None:
    assert variants.get_variant(" Radical ").name == "radical"
    assert Game.new("Radical").variant == "radical"
    with pytest.raises(variants.VariantError, match="unknown variant 'chess'; variants are: count"):
        variants.get_variant("chess")
    with pytest.raises(NotationError):  # an unknown variant is text that cannot be read
        Game.new("chess")


def test_a_variant_added_to_the_data_is_known_to_the_registry() -> None:
    """The registry restates nothing: it is built from damath_data's tables when imported."""
    text = Path(variants.__file__).read_text(encoding="utf-8")
    for label in damath_data.PLACEMENTS["radical"]:
        assert label not in text  # the labels live in damath_data only


def test_the_closed_sets_write_the_same_text() -> None:
    """StrEnums: every JSON the engine writes keeps its text."""
    assert json.dumps([EndReason.NO_CHIPS, ValueKind.RADICAL]) == '["no-chips", "radical"]'
    assert f"{EndReason.ALL_SIXES}" == "all-sixes"
    online = get_profile("online")
    assert online.repetition == "single-chip-five"
    assert get_profile("official").with_settings({"repetition": "single-chip-five"}) == (
        get_profile("official").with_settings({"repetition": Repetition.SINGLE_CHIP_FIVE})
    )
    position = game_to_json(Game.new("radical", online))
    assert json.loads(json.dumps(position)) == position
