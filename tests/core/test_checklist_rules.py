"""``toolkit check`` reads each game's spec for its rules (§4) and its scenario tests for the rules they name
(issue 53, point 4): every rule has a scenario test that names it (``toolkit.core.checklist.rule_problems``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from toolkit.core import checklist
from toolkit.games import REGISTERED

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("game", REGISTERED)
def test_every_rule_of_every_spec_has_a_scenario_test_naming_it(game):
    assert checklist.spec_rules((REPO / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8"))
    assert checklist.rule_problems(game, REPO) == []


def pig_copy(tmp_path: Path) -> tuple[Path, Path]:
    """The tutorial game's spec and scenario tests, copied under ``tmp_path`` as a checkout has them."""
    (tmp_path / "docs" / "rules").mkdir(parents=True)
    (tmp_path / "tests" / "games" / "pig").mkdir(parents=True)
    spec = shutil.copy(REPO / "docs" / "rules" / "pig.md", tmp_path / "docs" / "rules" / "pig.md")
    tests = shutil.copy(REPO / "tests" / "games" / "pig" / "test_scenarios_pig.py",
                        tmp_path / "tests" / "games" / "pig" / "test_scenarios_pig.py")
    return Path(spec), Path(tests)


def test_a_rule_without_a_test_is_named(tmp_path):
    """Controls: a rule added to the spec, and a rule whose tests lose the section that names them."""
    spec, tests = pig_copy(tmp_path)
    assert checklist.rule_problems("pig", tmp_path) == []
    text = spec.read_text(encoding="utf-8")
    added = f"P-{len(checklist.spec_rules(text)) + 1}"  # the next rule's number
    spec.write_text(text.replace("## 5.", f"**{added} Doubles.** Two sixes in a row end the turn [design].\n\n## 5.", 1))
    assert checklist.rule_problems("pig", tmp_path) == [
        f"rule {added} of docs/rules/pig.md has no scenario test that names it (tests/games/pig/test_scenarios*.py)"]
    spec.write_text(text)
    source = tests.read_text(encoding="utf-8")
    assert "# ---------------------------------------------------------------- P-4 turns alternate" in source
    tests.write_text(source.replace("P-4", "P-four"))
    assert [line.split()[1] for line in checklist.rule_problems("pig", tmp_path)] == ["P-4"]
    assert any("P-4" in line for line in checklist.problems(_pig(), tmp_path))


def _pig():
    from toolkit.core.registry import GAMES

    return GAMES["pig"]
