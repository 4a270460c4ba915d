"""The forms on the site's pages."""

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine import rules
from games.live import clock
from games.models import NAME_MAX_LENGTH, Game
from games.words import PRESETS


class NewGameForm(forms.Form):
    """Open a room: your name, the rules, how many seats."""

    name = forms.CharField(
        label=_("Your name"),
        max_length=NAME_MAX_LENGTH,
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )
    preset = forms.ChoiceField(
        label=_("Rules"),
        choices=[(preset.name, PRESETS[preset.name]) for preset in rules.PRESETS.values()],
        initial=rules.OFFICIAL.name,
        widget=forms.RadioSelect,
    )
    seats = forms.TypedChoiceField(
        label=_("Seats"),
        coerce=int,
        choices=[(n, str(n)) for n in range(1, rules.MAX_PLAYERS + 1)],
        initial=4,
        widget=forms.Select(attrs={"aria-describedby": "seats-help"}),
        help_text=_("Players who can sit down; anyone else watches."),
    )
    turn_seconds = forms.TypedChoiceField(
        label=_("Turn clock"),
        coerce=int,
        empty_value=None,
        choices=[
            (30, _("30 seconds a turn")),
            (60, _("1 minute a turn")),
            (120, _("2 minutes a turn")),
            (clock.TURN_SECONDS_MAX, _("Correspondence: a day a turn")),
            ("", _("No clock")),
        ],
        initial=clock.DEFAULT_TURN_SECONDS,
        required=False,
        widget=forms.Select(attrs={"aria-describedby": "turn-seconds-help"}),
        help_text=_(
            "When a turn's time runs out the server plays it, so a player who walks "
            "away cannot stall the table. A solo room has no clock: nobody waits."
        ),
    )
    bot_pace = forms.ChoiceField(
        label=_("Bots play"),
        choices=[
            (Game.BotPace.NATURAL, _("Naturally")),
            (Game.BotPace.QUICK, _("Quickly")),
            (Game.BotPace.INSTANT, _("Instantly")),
        ],
        initial=Game.BotPace.NATURAL,
        required=False,  # Left out (an older page): natural.
        widget=forms.Select(attrs={"aria-describedby": "bot-pace-help"}),
        help_text=_(
            "If you seat bots: naturally, about 3.5 s a turn; quickly, 1.5 s. "
            "The host can change it in the room."
        ),
    )

    show_odds = forms.BooleanField(
        label=_("Players see who is likely to win"),
        required=False,
        widget=forms.CheckboxInput(attrs={"aria-describedby": "show-odds-help"}),
        help_text=_(
            "Each player's chance to win, after every roll. Watchers always see it; "
            "players only if you choose so, as nobody likes to be told they have lost."
        ),
    )

    def clean_bot_pace(self) -> str:
        return str(self.cleaned_data.get("bot_pace") or Game.BotPace.NATURAL)
