"""Template filters that word the engine's names in the reader's language (games/words.py)."""

from django import template

from games import words

register = template.Library()


@register.filter
def preset_label(preset: str) -> str:
    """``{{ game.preset|preset_label }}``: "Yatzy (skandinaviskt)" in Swedish."""
    return words.preset_label(preset)
