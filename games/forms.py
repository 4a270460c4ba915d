"""The forms on the site's pages."""

from django import forms

from games import rules
from games.models import NAME_MAX_LENGTH


class NewGameForm(forms.Form):
    """Open a room: your name, the rules, how many seats."""

    name = forms.CharField(
        label="Your name",
        max_length=NAME_MAX_LENGTH,
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )
    preset = forms.ChoiceField(
        label="Rules",
        choices=[(preset.name, preset.label) for preset in rules.PRESETS.values()],
        initial=rules.OFFICIAL.name,
        widget=forms.RadioSelect,
    )
    seats = forms.TypedChoiceField(
        label="Seats",
        coerce=int,
        choices=[(n, str(n)) for n in range(1, rules.MAX_PLAYERS + 1)],
        initial=4,
        widget=forms.Select(attrs={"aria-describedby": "seats-help"}),
        help_text="Players who can sit down; anyone else watches.",
    )
