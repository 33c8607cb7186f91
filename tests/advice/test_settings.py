"""The advisor's settings (calasolve.advice.settings): checked when made, named as the API's keywords,
picklable, and the same answer whether the API's keywords or the settings are given."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest
from steady import steady

from calasolve.advice.advisor import advise, run_advice
from calasolve.advice.checks import contract_choice, known_items, parse_advice_hand
from calasolve.advice.playadvice import advise_play
from calasolve.advice.samples import Chunk, Task
from calasolve.advice.settings import AdviceSettings
from calasolve.game.errors import ParameterError
from calasolve.game.sampling import KnownCardsError

HAND = parse_advice_hand("32AR.32A.3A.2A5")


@pytest.mark.parametrize("field, value", [
    ("hand", 2**11 - 1), ("seat", 3), ("samples", 0), ("seed", -1), ("jobs", 0), ("policy", "magic"),
    ("defender_policy", None), ("contracts", ("grand",)), ("contracts", ()), ("known", ((5, 1),)), ("rules", {}),
    ("candidates", 0), ("redeals", 10**9), ("precision", 0), ("fixed", 1), ("thirds_samples", -1), ("tt_mb", -1),
    ("goal_mb", 0), ("play_samples", 0), ("pimc_samples", 0), ("dd", "yes"),
])
def test_a_bad_field_is_named(field: str, value: Any) -> None:
    options: dict[str, Any] = {"hand": HAND, field: value}
    with pytest.raises(ParameterError) as info:
        AdviceSettings(**options)
    assert info.value.parameter == field


def test_known_cards_that_clash_with_the_hand_are_refused() -> None:
    with pytest.raises(KnownCardsError):
        AdviceSettings(hand=HAND, known=((1, HAND & -HAND),))


def test_the_loose_forms_keep_the_apis_messages() -> None:
    with pytest.raises(ParameterError, match=r"^contracts \[\]: no contract to estimate"):
        contract_choice([])
    with pytest.raises(ParameterError, match="not one string"):
        contract_choice("solo")
    with pytest.raises(ParameterError, match="must be a mapping"):
        known_items([])  # type: ignore[arg-type]
    assert contract_choice(["solo", "chiamo", "solo"]) == ("solo", "chiamo")


def test_masks_become_ints_and_the_settings_cross_processes_whole() -> None:
    settings = AdviceSettings(hand=np.int64(HAND), known=(("monte", np.int64(1 << 39)),))  # type: ignore[arg-type]
    assert type(settings.hand) is int and type(settings.known[0][1]) is int
    chunk = Chunk(settings, (Task(0, "solo"),))
    assert pickle.loads(pickle.dumps(chunk)) == chunk


def test_the_settings_give_the_keywords_answer() -> None:
    by_keywords = advise("32AR.32A.3A.2A5", play="dd", samples=16, seed=4, jobs=1, contracts=["solissimo"], tt_mb=8)
    settings = AdviceSettings(hand=HAND, samples=16, seed=4, jobs=1, contracts=("solissimo",), tt_mb=8, play="dd")
    assert steady(run_advice(settings).to_dict()) == steady(by_keywords.to_dict())
    # and with the played odds (the default of both)
    for players in ("contract", "learned"):
        played = advise("32AR.32A.3A.2A5", samples=16, seed=4, jobs=1, contracts=["solissimo"], tt_mb=8, play_samples=2,
                        pimc_samples=2, players=players)
        settings = AdviceSettings(hand=HAND, samples=16, seed=4, jobs=1, contracts=("solissimo",), tt_mb=8,
                                  play_samples=2, pimc_samples=2, players=players)
        assert settings.play == "played"
        assert steady(run_advice(settings).to_dict()) == steady(played.to_dict())
    assert AdviceSettings(hand=HAND).players == "learned"


def test_the_fronts_take_settings_and_keywords_folded_in_one_place() -> None:
    base = AdviceSettings(hand=HAND, samples=16, seed=4, jobs=1, contracts=("solissimo",), tt_mb=8, play="dd")
    by_settings = advise(settings=base.replace(seed=5))
    by_both = advise(settings=base, seed=5)
    assert steady(by_both.to_dict()) == steady(by_settings.to_dict())
    # a hand given beside the settings replaces theirs
    assert advise("32AR.32A.3A.2AC", settings=base).hand == parse_advice_hand("32AR.32A.3A.2AC")


def test_a_changed_mode_derives_its_defaults_again() -> None:
    played = AdviceSettings(hand=HAND)
    assert (played.samples, played.players, played.play_samples) == (400, "learned", 300)
    assert played.replace(players="contract").samples == 64
    assert (played.replace(players="contract").samples, played.replace(players="contract").play_samples) == (64, 8)
    dd = played.replace(play="dd")
    assert (dd.samples, dd.players, dd.thirds_samples) == (400, "pimc", 24)
    # what was given stays given
    assert played.replace(samples=9, players="pimc").replace(play="dd").samples == 9
    assert dd == AdviceSettings(hand=HAND, play="dd")


@pytest.mark.parametrize("front, keyword", [
    (advise, "sed"), (advise, "dd"), (advise, "horizon"), (advise_play, "samples"), (advise_play, "play"),
    (advise_play, "precision"),
])
def test_a_keyword_a_front_does_not_take_is_a_type_error(front: Any, keyword: str) -> None:
    with pytest.raises(TypeError, match=f"unexpected keyword argument '{keyword}'"):
        front(HAND, **{keyword: 1})


def test_a_front_needs_a_hand_and_real_settings() -> None:
    with pytest.raises(TypeError, match="needs a hand"):
        advise(seed=1)
    with pytest.raises(ParameterError, match="settings"):
        advise(settings={"hand": HAND})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="no option 'bogus'"):
        AdviceSettings(hand=HAND).replace(bogus=1)
