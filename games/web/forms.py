"""The forms on the site's pages."""

from django import forms

from games.engine import rules
from games.live import clock
from games.models import NAME_MAX_LENGTH, Game


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
    turn_seconds = forms.TypedChoiceField(
        label="Turn clock",
        coerce=int,
        empty_value=None,
        choices=[
            (30, "30 seconds a turn"),
            (60, "1 minute a turn"),
            (120, "2 minutes a turn"),
            (clock.TURN_SECONDS_MAX, "Correspondence: a day a turn"),
            ("", "No clock"),
        ],
        initial=clock.DEFAULT_TURN_SECONDS,
        required=False,
        widget=forms.Select(attrs={"aria-describedby": "turn-seconds-help"}),
        help_text="When a turn's time runs out the server plays it, so a player who walks "
        "away cannot stall the table. A solo room has no clock: nobody waits.",
    )
    bot_pace = forms.ChoiceField(
        label="Bots play",
        choices=[
            (Game.BotPace.NATURAL, "Naturally"),
            (Game.BotPace.QUICK, "Quickly"),
            (Game.BotPace.INSTANT, "Instantly"),
        ],
        initial=Game.BotPace.NATURAL,
        required=False,  # Left out (an older page): natural.
        widget=forms.Select(attrs={"aria-describedby": "bot-pace-help"}),
        help_text="If you seat bots: naturally, about 3.5 s a turn; quickly, 1.5 s. "
        "The host can change it in the room.",
    )

    show_odds = forms.BooleanField(
        label="Players see who is likely to win",
        required=False,
        widget=forms.CheckboxInput(attrs={"aria-describedby": "show-odds-help"}),
        help_text="Each player's chance to win, after every roll. Watchers always see it; "
        "players only if you choose so, as nobody likes to be told they have lost.",
    )

    def clean_bot_pace(self) -> str:
        return str(self.cleaned_data.get("bot_pace") or Game.BotPace.NATURAL)
