"""The history list, the review, the JSON export and the rematch, through the test client."""

import dataclasses
import itertools
import json
import re

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.urls import reverse

from games.engine import codec, replay
from games.insight import analysis, review
from games.live import services
from games.models import Game, Player
from games.web import review_words
from games.web.views import EXPORT_FORMAT, GAMES_PER_PAGE
from games.words import clock_words
from tests.server.helpers import SOLO, SOLO_RUNNING, Table, abandoned_with_stand_ins, play_solo
from tests.server.test_analysis import chance_for_18

pytestmark = pytest.mark.django_db


def config_of(content: str, script_id: str) -> dict:  # type: ignore[type-arg]
    start = content.index(f'<script id="{script_id}" type="application/json">')
    return json.loads(content[start:].split(">", 1)[1].split("</script>", 1)[0])


def browser_session(client) -> str:  # type: ignore[no-untyped-def]
    """The test client's session key, made the way a browser's is: by opening the home page."""
    client.get(reverse("home"))
    return client.session.session_key


# -- /games/ ------------------------------------------------------------------------------------


def test_it_lists_games_in_play_and_finished_with_scores_and_winners(client, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    done = play_solo(fixed_dice, "ana")
    playing = Table("ben", "cat")
    fixed_dice.load(6, 6, 6, 6, 6, 1, 1, 1, 1, 1)
    playing.start()
    lobby = Table("dan")

    content = client.get(reverse("history")).content.decode()

    assert content.index(playing.code) < content.index(done.code)  # Newest first.
    assert lobby.code not in content
    assert f'href="/g/{done.code}/review/">Review</a>' in content
    assert f'href="/g/{playing.code}/">Watch</a>' in content
    assert '<span class="game-row__score">293</span>' in content
    assert "Playing now" in content
    assert content.count("badge--win") == 1  # Ana won hers; the other game goes on.


def test_it_pages_the_list(client, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    for _ in range(GAMES_PER_PAGE + 3):
        Table("ana").start()

    first = client.get(reverse("history"))
    second = client.get(reverse("history"), {"page": 2})

    assert first.content.decode().count('class="panel game-row"') == GAMES_PER_PAGE
    assert second.content.decode().count('class="panel game-row"') == 3
    assert "Page 2 of 2" in second.content.decode()
    assert client.get(reverse("history"), {"page": "x"}).status_code == 200  # The first page.


def test_my_games_are_this_browser_s_as_a_guest(client, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    key = browser_session(client)
    mine, _ = services.create_game(host_name="ana", session_key=key)
    services.start_game(mine.code, mine.players.get().pk, version=mine.version)
    theirs = Table("ben")
    theirs.start()

    content = client.get(reverse("history"), {"mine": "1"}).content.decode()

    assert mine.code in content
    assert theirs.code not in content
    assert "The games played in this browser" in content


def test_my_games_are_my_account_s_when_logged_in(client) -> None:  # type: ignore[no-untyped-def]
    user = User.objects.create_user("ana", password="correct horse battery")
    other_browser = Table("ana")
    other_browser.start()
    Player.objects.filter(game__code=other_browser.code).update(user=user)
    client.force_login(user)

    content = client.get(reverse("history"), {"mine": "1"}).content.decode()

    assert other_browser.code in content
    assert "The games you played as ana" in content


def test_a_stranger_has_no_games_of_their_own(client) -> None:  # type: ignore[no-untyped-def]
    Table("ana").start()
    content = client.get(reverse("history"), {"mine": "1"}).content.decode()
    assert "You have not played a game here yet." in content


# -- the invite link and the review ------------------------------------------------------------


def test_the_invite_link_of_a_finished_game_opens_its_review(client, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = play_solo(fixed_dice)
    response = client.get(reverse("room", args=[table.code]))
    assert response.status_code == 302
    assert response["Location"] == reverse("review", args=[table.code])


def test_the_invite_link_at_a_moment_opens_the_review_at_that_moment(client, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = play_solo(fixed_dice)
    review = reverse("review", args=[table.code])
    room = reverse("room", args=[table.code])
    assert client.get(room, {"at": "26"})["Location"] == f"{review}?at=26"
    # Anything but a number is not passed on.
    assert client.get(room, {"at": "26&x=1"})["Location"] == review
    assert client.get(room, {"at": ""})["Location"] == review


def test_the_invite_link_of_an_abandoned_game_opens_its_review(client, fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = abandoned_with_stand_ins(fake_clock)
    response = client.get(reverse("room", args=[table.code]))
    assert response["Location"] == reverse("review", args=[table.code])


def test_the_review_of_a_game_in_play_is_its_room(client) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana")
    table.start()
    response = client.get(reverse("review", args=[table.code]))
    assert response["Location"] == reverse("room", args=[table.code])
    assert client.get("/g/nope/review/").status_code == 404


def test_the_review_shows_the_final_cards_the_chart_and_every_moment(client, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = play_solo(fixed_dice)

    content = client.get(reverse("review", args=[table.code])).content.decode()
    config = config_of(content, "review-config")

    assert "<title>ana · Review · Yahtzee Live</title>" in content
    # The final card, at the end of the replay: every box, the bonus and the total.
    assert 'data-seat="0" data-key="upper_bonus" data-blank-zero class="">35</td>' in content
    assert 'data-key="total">293</td>' in content
    assert "ana finished with 293." in content
    # The chart of running totals, drawn on the server.
    assert 'class="chart__point"' in content
    assert 'data-total="98"' in content
    # Every moment for the script: the start, a roll and a score per round, the end.
    assert len(config["moments"]) == 1 + 2 * len(SOLO) + 1
    assert config["start"] == len(config["moments"]) - 1
    scored = [m["card"]["total"] for m in config["moments"] if m["kind"] == "scored"]
    assert scored == SOLO_RUNNING


def test_a_link_opens_the_review_at_its_moment(client, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = play_solo(fixed_dice)
    url = reverse("review", args=[table.code])
    config = config_of(client.get(url).content.decode(), "review-config")
    sixes = next(m for m in config["moments"] if m.get("category") == "sixes")

    content = client.get(url, {"at": sixes["seq"]}).content.decode()

    assert "ana scored 18 in Sixes." in content
    assert 'data-seat="0" data-key="upper_total" class="">63</td>' in content
    assert 'data-key="total">98</td>' in content
    assert 'data-key="chance" class=""></td>' in content  # Not filled yet at that moment.
    assert config_of(content, "review-config")["start"] == config["moments"].index(sixes)


# -- the analysis ------------------------------------------------------------------------------


def analysis_row(content: str, seat: int) -> str:
    """The row of the analysis table for ``seat``, as HTML."""
    table = content[content.index('id="analysis-table"') :]
    return table[table.index(f'data-seat="{seat}">') :].split("</tr>", 1)[0]


def test_the_review_shows_each_decision_s_analysis_and_each_player_s(client, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = chance_for_18(fixed_dice)
    url = reverse("review", args=[table.code])

    content = client.get(url).content.decode()
    moments = config_of(content, "review-config")["moments"]

    # Each decision's moment carries its analysis: the 13 scores and the one keep.
    judged = [m for m in moments if "analysis" in m]
    assert [m["kind"] for m in judged] == ["scored"] * 12 + ["rolled", "scored"]
    first_roll = next(m for m in moments if m["kind"] == "rolled")
    assert "analysis" not in first_roll
    assert "analysis" not in moments[0]
    keep, chance = judged[-2]["analysis"], judged[-1]["analysis"]
    assert (keep["best"], keep["chosen"], keep["loss"]) == ("Keep 5 6", "Keep 4 5 6", 0.25)
    assert chance == {
        "kind": "score",
        "best": "Keep 4 5 6",
        "bestExpected": 236.0,
        "chosen": "Chance (18)",
        "chosenExpected": 232.0,
        "loss": 4.0,
        "by": None,
        "text": "Best: Keep 4 5 6, 236.0 expected. Played: Chance (18), 232.0 expected: "
        "gave up 4.00 points.",
    }
    # The end of the game is no decision: its line is drawn, hidden, for the script.
    assert 'id="replay-analysis" aria-live="polite" hidden></p>' in content

    # The player's row: 14 decisions, the points given up in all and per decision.
    losses = [m["analysis"]["loss"] for m in judged]
    total = sum(losses)
    assert total > 4.25  # The twelve first-roll scores were not all the best either.
    row = analysis_row(content, 0)
    cells = [cell.split(">", 1)[1].split("<", 1)[0] for cell in row.split("<td")[1:]]
    optimal = sum(loss == 0 for loss in losses)
    assert cells[:4] == ["14", f"{round(100 * optimal / 14)}%", f"{total / 14:.2f}", f"{total:.2f}"]
    # The biggest mistake links to its moment, which opens with the analysis drawn.
    biggest = max(judged, key=lambda m: m["analysis"]["loss"])
    link = f'<a href="?at={biggest["seq"]}#replay" data-at="{biggest["seq"]}">'
    assert link in row
    at = client.get(url, {"at": biggest["seq"]}).content.decode()
    assert f">{biggest['analysis']['text']}</p>" in at
    at_chance = client.get(url, {"at": judged[-1]["seq"]}).content.decode()
    assert (
        'class="replay__analysis replay__analysis--loss" id="replay-analysis" aria-live="polite">'
        "Best: Keep 4 5 6, 236.0 expected. Played: Chance (18), 232.0 expected: "
        "gave up 4.00 points.</p>"
    ) in at_chance


# -- the list of every move --------------------------------------------------------------------


def test_the_move_list_groups_every_moment_by_turn_with_the_stand_ins_notes(fake_clock) -> None:  # type: ignore[no-untyped-def]
    # A game on the server's own dice: what holds whatever they showed.
    table = abandoned_with_stand_ins(fake_clock)
    log = services.replay_events(table.code)
    told = review.build(log)
    judged = analysis.analyse(log)

    turns = review_words.worded_turns(review.move_list(told, judged.decisions), told)

    # Every moment once, in order.
    entries = [entry for turn in turns for entry in turn.entries]
    assert [e.index for e in entries] == list(range(len(told.moments)))
    kinds = [[told.moments[e.index].kind for e in turn.entries] for turn in turns]
    # A turn is one player's rolls and holds, ended by the score; a note between turns
    # (the start, someone away or back, a seat handed, a removal, the end) stands alone.
    for turn, its_kinds in zip(turns, kinds, strict=True):
        if turn.seat is None:
            assert len(its_kinds) == 1
            assert its_kinds[0] not in review.TURN_MOVES
            continue
        assert (its_kinds[0], its_kinds[-1]) == ("rolled", "scored")
        assert set(its_kinds) <= review.TURN_MOVES
        assert {told.moments[e.index].seat for e in turn.entries} == {turn.seat}
        assert turn.name == told.names[turn.seat]
    notes = [turns[i].entries[0].text for i, k in enumerate(kinds) if turns[i].seat is None]
    assert notes[0].startswith("ana, ben and cy sit down;")
    assert notes[1:] == [
        "ben is away: the clock played ben's last turns, so a bot plays for ben until ben is back.",
        "ben is back: the bot stops playing for ben.",
        "ana, the host, handed cy's seat to a bot for the rest of the game.",
        "ana, the host, removed ben from the game; ben's score stands.",
        "ana is away: the clock played ana's last turns, so a bot plays for ana until ana is back.",
        "The game was abandoned: nobody played for a long while.",
    ]
    # Turns go round the table: never one player twice running (while three play).
    seated = [turn.seat for turn in turns if turn.seat is not None]
    assert all(a != b for a, b in itertools.pairwise(seated))
    # A player's own move drops the name the turn is under; a stand-in's keeps its subject.
    for turn in turns:
        for entry in turn.entries:
            moment = told.moments[entry.index]
            if turn.seat is not None and moment.by is None:
                assert entry.text[0].isupper()
                assert not entry.text.startswith(turn.name)
                assert entry.text[1:] in review_words.moment_text(told, entry.index)
            elif turn.seat is not None:
                assert entry.text == review_words.moment_text(told, entry.index)
    # A decision made for a player gives up nothing of theirs, and is no mistake of theirs.
    made_for = [e for e in entries if e.decision is not None and e.decision.by is not None]
    assert {e.decision.by for e in made_for if e.decision} == {"clock", "bot"}
    assert {(e.given_up, e.mistake_rank) for e in made_for} == {("", None)}
    # Each player's costliest decisions, at most three, ranked by what they gave up; the
    # first is the analysis table's biggest mistake.
    for player in judged.players:
        marked = sorted(
            (e.mistake_rank, e) for e in entries if e.player == player.name and e.mistake_rank
        )
        assert [rank for rank, _ in marked] == list(range(1, len(marked) + 1))
        assert len(marked) == min(3, player.decisions - player.optimal)
        losses = [e.decision.loss for _, e in marked if e.decision]
        assert losses == sorted(losses, reverse=True)
        if player.biggest is not None:
            assert marked[0][1].decision == player.biggest
            assert marked[0][1].mistake_words == f"{player.name}'s biggest mistake"
            assert marked[0][1].given_up == f"\N{MINUS SIGN}{player.biggest.loss:.2f}"


def test_big_mistakes_rank_the_costliest_and_give_ties_to_the_earlier(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    log = services.replay_events(chance_for_18(fixed_dice).code)
    decisions = analysis.analyse(log).decisions
    # Made-up losses: 5 for the first two decisions, 7 for the third, none for the rest; the
    # fourth, 9, was the clock's; the fifth gave up a hair.
    losses = {0: 5.0, 1: 5.0, 2: 7.0, 3: 9.0, 4: 0.001}
    made_up = [
        dataclasses.replace(d, loss=losses.get(i, 0.0), by="clock" if i == 3 else None)
        for i, d in enumerate(decisions)
    ]

    ranks = review.big_mistakes(made_up)

    assert ranks == {made_up[2].seq: 1, made_up[0].seq: 2, made_up[1].seq: 3}
    entry = review.Entry(index=0, seq=made_up[4].seq, decision=made_up[4])
    assert review_words.given_up(entry) == "\N{MINUS SIGN}<0.01"


def test_the_review_page_lists_every_move_with_links_to_them(client, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = chance_for_18(fixed_dice)
    url = reverse("review", args=[table.code])
    content = client.get(url).content.decode()
    moments = config_of(content, "review-config")["moments"]
    chance = moments[-2]

    assert content.count('class="moves__move') == len(moments) == 29
    assert content.count('class="moves__who"') == 13
    assert (
        f'href="?at={chance["seq"]}#replay" data-at="{chance["seq"]}" data-index="27">'
        '<span class="moves__text">Scored 18 in Chance.</span> <span class="moves__loss">'
        '\N{MINUS SIGN}4.00<span class="visually-hidden"> points given up</span></span></a>'
    ) in content
    # The moment the page opens at is the current one.
    assert content.count('aria-current="step"') == 1
    assert 'data-index="28" aria-current="step"' in content
    at_chance = client.get(url, {"at": chance["seq"]}).content.decode()
    assert 'data-index="27" aria-current="step"' in at_chance


def test_a_game_s_analysis_is_computed_once_then_cached(client, fixed_dice, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    table = play_solo(fixed_dice)
    cache.clear()
    calls = []
    analyse = analysis.analyse
    monkeypatch.setattr(analysis, "analyse", lambda events: calls.append(1) or analyse(events))
    url = reverse("review", args=[table.code])

    first = client.get(url).content.decode()
    again = client.get(url).content.decode()
    services.chat(table.code, table.id("ana"), "gg")  # A new version, but the same play.
    after_chat = client.get(url)

    assert calls == [1]
    assert after_chat.status_code == 200
    assert config_of(first, "review-config") == config_of(again, "review-config")
    assert 'id="analysis-heading">Analysis</h2>' in first


def test_a_player_who_left_has_a_row_marked_as_such(client, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", "ben")
    fixed_dice.load(6, 6, 6, 6, 6, 1, 1, 1, 1, 1)
    table.start()
    fixed_dice.load(1, 2, 3, 4, 5)
    table.roll("ana")
    table.score("ana", "large_straight")
    table.leave("ben")  # Before his first roll: nothing to judge.
    fixed_dice.load(*[5] * 5 * 12)
    table.play_out()

    content = client.get(reverse("review", args=[table.code])).content.decode()

    ben = analysis_row(content, 1)
    assert '>ben <span class="muted">(left)</span></th>' in ben
    assert 'data-label="Decisions">0</td>' in ben
    assert ben.count(">\N{EN DASH}</td>") == 2  # No decisions: no share, no average.
    assert '<span class="muted">none</span>' in ben


def test_an_abandoned_game_s_review_says_so_and_marks_what_the_clock_and_bots_played(
    client, fake_clock
) -> None:  # type: ignore[no-untyped-def]
    table = abandoned_with_stand_ins(fake_clock)

    response = client.get(reverse("review", args=[table.code]))
    content = response.content.decode()
    config = config_of(content, "review-config")

    assert response.status_code == 200
    assert "An abandoned game of Yahtzee" in content
    assert "Official (forced Joker) · 30 s a turn · abandoned <time" in content
    assert "<strong>The game was abandoned:</strong> nobody played for a long while" in content
    assert '<h2 id="result-heading">Standing when abandoned</h2>' in content
    assert "badge--win" not in content
    assert "ranking__item--winner" not in content
    assert 'class="chart__point"' in content
    # The replay opens on the end, and every move made for a player says by whom.
    end = config["moments"][-1]
    assert config["start"] == len(config["moments"]) - 1
    assert (end["kind"], end["turn"]) == ("abandoned", None)
    assert "The game was abandoned: nobody played for a long while." in content
    made_for = [m for m in config["moments"] if m["by"] in ("clock", "bot")]
    assert {m["by"] for m in made_for} == {"clock", "bot"}
    judged = [m["analysis"] for m in made_for if "analysis" in m]
    assert judged
    assert all(a["by"] and a["text"].startswith("Played by ") for a in judged)
    # The analysis says what it leaves out of each player's figures.
    assert 'id="analysis-made-for"' in content
    assert "left out of the player's figures below" in content
    assert '<span class="ranking__name">ben (removed)</span>' in content
    ben = analysis_row(content, 1)
    assert '>ben <span class="muted">(removed)</span></th>' in ben
    assert "by the clock</span>" in ben
    assert "by a bot</span>" in ben


def test_a_review_without_moves_made_for_players_says_nothing_of_them(client, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = play_solo(fixed_dice)
    content = client.get(reverse("review", args=[table.code])).content.decode()
    assert 'id="analysis-made-for"' not in content
    assert 'id="abandoned-note"' not in content
    assert "data-by" not in content.split('id="review-config"')[0]


@pytest.mark.parametrize(
    ("seconds", "words"),
    [(None, ""), (10, "10 s a turn"), (90, "90 s a turn"), (60, "1 min a turn"),
     (120, "2 min a turn"), (86400, "24 h a turn")],
)  # fmt: skip
def test_a_room_s_clock_is_written_in_a_unit_people_read(seconds: int | None, words: str) -> None:
    assert clock_words(seconds) == words


# -- export ------------------------------------------------------------------------------------


def test_the_export_of_a_game_the_clock_played_marks_who_made_each_move(client, fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = abandoned_with_stand_ins(fake_clock)

    data = json.loads(client.get(reverse("export", args=[table.code])).content)

    assert (data["game"]["turn_seconds"], data["game"]["status"]) == (30, "abandoned")
    assert data["game"]["finished_at"] is not None
    by = {(e["kind"], e["data"].get("by")) for e in data["events"]}
    assert {("rolled", "clock"), ("scored", "clock"), ("rolled", "bot"), ("held", "bot"),
            ("scored", "bot"), ("left", "host"), ("rolled", None)} <= by  # fmt: skip
    kinds = [e["kind"] for e in data["events"]]
    assert {"away", "back", "handed"} <= set(kinds)
    assert kinds[-1] == "abandoned"
    ben = data["players"][1]
    assert (ben["name"], ben["left"], ben["winner"]) == ("ben", True, False)
    assert not any(player["winner"] for player in data["players"])
    # The log alone rebuilds the game as it was abandoned, marks and all.
    log = [codec.decode_event(e["kind"], e["data"]) for e in data["events"]]
    assert replay.replay(log).status == "abandoned"
    assert [getattr(event, "by", None) for event in log] == [
        e["data"].get("by") for e in data["events"]
    ]


def test_the_export_holds_the_log_and_the_final_cards(client, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = play_solo(fixed_dice)
    services.chat(table.code, table.id("ana"), "gg")

    response = client.get(reverse("export", args=[table.code]))
    data = json.loads(response.content)

    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == f'attachment; filename="yahtzee-{table.code}.json"'
    assert data["format"] == EXPORT_FORMAT
    assert data["game"]["code"] == table.code
    assert data["game"]["status"] == "finished"
    (player,) = data["players"]
    assert (player["name"], player["winner"], player["card"]["total"]) == ("ana", True, 293)
    assert [e["seq"] for e in data["events"]] == list(range(1, table.version + 1))
    assert data["events"][-1]["data"]["text"] == "gg"
    # Nothing secret travels: no seat tokens, no session keys.
    raw = response.content.decode()
    assert Player.objects.get(game__code=table.code).token not in raw
    assert "session-ana" not in raw
    # The log alone rebuilds the game, as docs/export.md promises.
    room = replay.replay(codec.decode_event(e["kind"], e["data"]) for e in data["events"])
    assert room.game is not None
    assert room.game.cards[0].total == 293


# -- rematch -----------------------------------------------------------------------------------


def test_a_player_starts_the_rematch_from_the_review(client, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    key = browser_session(client)
    game = play_solo(fixed_dice).game
    Player.objects.filter(game=game).update(session_key=key)  # Ana played in this browser.

    review_page = client.get(reverse("review", args=[game.code])).content.decode()
    response = client.post(reverse("rematch", args=[game.code]))

    assert 'id="rematch-button"' in review_page
    new = Game.objects.get(rematch_of__code=game.code)
    assert response["Location"] == reverse("room", args=[new.code])
    assert new.players.get().session_key == key
    after = client.get(reverse("review", args=[game.code])).content.decode()
    assert f'id="rematch-link" href="/g/{new.code}/"' in after


def test_a_watcher_gets_no_rematch_button_and_cannot_post_one(client, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = play_solo(fixed_dice)

    content = client.get(reverse("review", args=[table.code])).content.decode()
    response = client.post(reverse("rematch", args=[table.code]), follow=True)

    assert 'id="rematch-button"' not in content
    assert not Game.objects.filter(rematch_of__code=table.code).exists()
    assert "No rematch: only players in this game can do that" in response.content.decode()
    assert client.get(reverse("rematch", args=[table.code])).status_code == 405


# -- a Yatzy game --------------------------------------------------------------------------------

# A Yatzy game, turn by turn, in its card's order: 63 above (the 50 bonus), then the pairs,
# the kinds (their own dice), the straights, a full house (the sum), Chance and a Yatzy.
YATZY_SOLO = [
    ((1, 1, 1, 2, 3), "ones"),
    ((2, 2, 2, 1, 1), "twos"),
    ((3, 3, 3, 1, 1), "threes"),
    ((4, 4, 4, 1, 1), "fours"),
    ((5, 5, 5, 1, 1), "fives"),
    ((6, 6, 6, 1, 1), "sixes"),
    ((6, 6, 5, 5, 1), "one_pair"),
    ((6, 6, 5, 5, 1), "two_pairs"),
    ((2, 2, 3, 3, 3), "three_of_a_kind"),
    ((6, 6, 6, 6, 6), "four_of_a_kind"),
    ((5, 4, 3, 2, 1), "small_straight"),
    ((6, 5, 4, 3, 2), "large_straight"),
    ((6, 6, 6, 5, 5), "full_house"),
    ((6, 6, 6, 6, 5), "chance"),
    ((4, 4, 4, 4, 4), "yatzy"),
]


def test_a_yatzy_game_s_review_and_export_show_its_fifteen_boxes(
    client, fixed_dice, kept_tables
) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", preset="yatzy")
    table.start()
    for faces, box in YATZY_SOLO:
        fixed_dice.load(*faces)
        table.roll("ana")
        table.score("ana", box)

    content = client.get(reverse("review", args=[table.code])).content.decode()
    # The card's rows: its fifteen boxes, the 50 bonus, and no Yahtzee bonus row.
    keys = [key for key in re_keys(content) if key not in ("upper_total", "lower_total", "total")]
    assert keys == [
        "ones", "twos", "threes", "fours", "fives", "sixes", "upper_bonus", "one_pair",
        "two_pairs", "three_of_a_kind", "four_of_a_kind", "small_straight", "large_straight",
        "full_house", "chance", "yatzy",
    ]  # fmt: skip
    assert 'data-seat="0" data-key="upper_bonus" data-blank-zero class="">50</td>' in content
    assert 'data-key="total">322</td>' in content
    # The chart has a point for the start and each of the fifteen rounds.
    assert content.count('class="chart__point"') == 1 + 15
    data = json.loads(client.get(reverse("export", args=[table.code])).content)
    assert data["game"]["preset"] == "yatzy"
    assert list(data["players"][0]["card"]["boxes"]) == [box for _, box in YATZY_SOLO]
    room = replay.replay(codec.decode_event(e["kind"], e["data"]) for e in data["events"])
    assert room.game is not None
    assert room.game.cards[0].total == 322


def re_keys(content: str) -> list[str]:
    """The keys of the review's scorecard rows, in order."""
    return list(dict.fromkeys(re.findall(r'data-seat="0" data-key="(\w+)"', content)))
