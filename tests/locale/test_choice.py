"""Which language a run speaks: --lang, the remembered setting, then the environment."""

from __future__ import annotations

import pytest

from allfives_tui.locale import UnknownLanguage, _, choose, current, match, use_language

OFFERED = ("en", "fr", "it", "pt_BR")


@pytest.mark.parametrize("code", ["it", "it_IT", "it-IT", "it_IT.UTF-8", "IT", "It_it.utf8"])
def test_every_spelling_of_a_language_is_accepted(code: str) -> None:
    assert match(code, OFFERED) == "it"


@pytest.mark.parametrize("code", ["C", "POSIX", "C.UTF-8", "posix"])
def test_c_and_posix_are_english(code: str) -> None:
    assert match(code, OFFERED) == "en"


def test_a_region_falls_back_to_its_language_and_back() -> None:
    assert match("fr_CA", OFFERED) == "fr"
    assert match("pt", OFFERED) == "pt_BR"
    assert match("de_DE", OFFERED) is None


def test_the_order_of_precedence() -> None:
    env = {"LANGUAGE": "fr", "LC_ALL": "it_IT.UTF-8", "LC_MESSAGES": "pt_BR", "LANG": "it"}
    assert choose("pt-br", "it", env, OFFERED) == "pt_BR"
    assert choose(None, "it", env, OFFERED) == "it"
    assert choose(None, None, env, OFFERED) == "fr"
    del env["LANGUAGE"]
    assert choose(None, None, env, OFFERED) == "it"
    del env["LC_ALL"]
    assert choose(None, None, env, OFFERED) == "pt_BR"
    del env["LC_MESSAGES"]
    assert choose(None, None, env, OFFERED) == "it"
    assert choose(None, None, {}, OFFERED) == "en"


def test_language_is_a_list_whose_first_offered_wins() -> None:
    assert choose(None, None, {"LANGUAGE": "de:it:fr", "LANG": "fr"}, OFFERED) == "it"
    assert choose(None, None, {"LANGUAGE": "de:nl", "LANG": "fr"}, OFFERED) == "en"


def test_unsupported_and_c_fall_back_to_english() -> None:
    assert choose(None, None, {"LANG": "de_DE.UTF-8"}, OFFERED) == "en"
    assert choose(None, None, {"LC_ALL": "C", "LANG": "it"}, OFFERED) == "en"
    assert choose(None, "klingon", {"LANG": "fr_FR"}, OFFERED) == "fr"  # a stale setting


def test_an_unknown_lang_is_refused_with_the_offered_ones() -> None:
    with pytest.raises(UnknownLanguage) as caught:
        choose("xx", "it", {}, OFFERED)
    assert caught.value.offered == OFFERED


def test_the_pseudo_locale_is_used_and_english_costs_nothing(pseudo_locale: str) -> None:
    assert use_language("en") == "en" and _("options") == "options"
    assert use_language(pseudo_locale.replace("_", "-").lower()) == pseudo_locale
    assert current() == pseudo_locale and _("options").startswith("⟦")


def test_the_language_setting_is_checked_and_kept(pseudo_locale: str) -> None:
    from pydantic import ValidationError

    from allfives_tui.table.settings import Settings

    assert Settings().language == ""
    assert Settings(language="EN-xa").language == pseudo_locale
    with pytest.raises(ValidationError, match="no words in 'xx'"):
        Settings(language="xx")
