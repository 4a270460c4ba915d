"""Close reasons saying when to come back (games/live/closing.py), for static/js/backoff.js."""

import doctest

from games.live import closing, shutdown


def test_its_examples_hold() -> None:
    assert doctest.testmod(closing).failed == 0


def test_a_window_is_whole_seconds_rounded_out() -> None:
    assert closing.come_back("busy", 0.4, 2.2) == "busy: come back in 0-3 s"
    assert closing.come_back("busy", 1, 5) == "busy: come back in 1-5 s"


def test_a_process_holding_many_sockets_spreads_their_return() -> None:
    reasons = [shutdown.come_back_reason(count) for count in (1, 200, 1000, 1900, 5000)]
    assert [reason.removeprefix("service restart: come back in ") for reason in reasons] == [
        "0-1 s",
        "0-1 s",
        "0-5 s",
        "0-10 s",
        "0-10 s",
    ]


def test_the_fault_tests_client_reads_the_window_the_server_gives() -> None:
    """tests/faults/play.py comes back when a 1012 or 1013 says, as the page does."""
    from tests.faults.play import come_back_window

    assert come_back_window(shutdown.come_back_reason(500)) == (0, 3)
    assert come_back_window(closing.come_back("the database is away", 1, 5)) == (1, 5)
    assert come_back_window("going away") is None
