"""Checking the wire: msgspec against pydantic, per client message. Figures, nothing asserted.

Run it from the project's root with the project's virtualenv (both libraries must be
installed; ``pip install pydantic`` if it is missing, as the project needs only one)::

    .venv/bin/python benchmarks/wire.py                  # 20,000 rounds per message
    .venv/bin/python benchmarks/wire.py --rounds 2000    # a quick check

Both libraries get the same schema written their own way: the fifteen client
messages as one union tagged by ``type``, strict integers (no booleans), ``id`` a
string, a number or null, unknown fields ignored. One "decode" is what the
consumer does per message: parse the JSON text and validate it into a typed
message in one call, and on a refusal read the ``id`` again with a second,
envelope-only decode (so the error can echo it). For each message it prints the
median and p99 wall time of one decode, the CPU time per decode over the whole
run (``time.process_time``), and whether the message was accepted; then the load
average, since the machine is shared.

The messages: a ``roll`` with ``hold``, a ``score``, a ``chat`` of 400 characters,
a ``roll`` whose ``hold`` is an array nested 5,000 deep (malformed), a ``ping``
with an unknown field nested 900 deep (well formed, so it is read to the end),
and a ``chat`` of 15,900 characters (over the chat limit, under the 16 KiB cap:
the schema passes it and the service refuses it). A third row, ``json.loads``,
is the stock parser alone, with no checks, for scale (it raises ``RecursionError``
on the deep one, which is the bug this replaces).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Literal

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import quick

Id = str | int | float | None

# -- msgspec -------------------------------------------------------------------


class MBase(msgspec.Struct, tag_field="type", kw_only=True):
    id: Id = None
    seat: int | None = None


class MJoin(MBase, tag="join"):
    name: str


class MResume(MBase, tag="resume"):
    token: str


class MLeave(MBase, tag="leave"):
    pass


class MStart(MBase, tag="start"):
    version: int


class MRoll(MBase, tag="roll"):
    version: int
    hold: list[int] = []


class MHold(MBase, tag="hold"):
    hold: list[int]


class MScore(MBase, tag="score"):
    version: int
    category: str


class MChat(MBase, tag="chat"):
    text: str


class MRematch(MBase, tag="rematch"):
    pass


class MCoach(MBase, tag="coach"):
    on: bool


class MAddBot(MBase, tag="add_bot"):
    level: str


class MRemoveBot(MBase, tag="remove_bot"):
    bot: int


class MAdvice(MBase, tag="advice"):
    pass


class MSnapshot(MBase, tag="snapshot"):
    pass


class MPing(MBase, tag="ping"):
    pass


MMessage = (
    MJoin
    | MResume
    | MLeave
    | MStart
    | MRoll
    | MHold
    | MScore
    | MChat
    | MRematch
    | MCoach
    | MAddBot
    | MRemoveBot
    | MAdvice
    | MSnapshot
    | MPing
)


class MEnvelope(msgspec.Struct):
    id: Id = None


_m_decoder = msgspec.json.Decoder(MMessage)
_m_envelope = msgspec.json.Decoder(MEnvelope)


def with_msgspec(text: str) -> bool:
    try:
        _m_decoder.decode(text)
        return True
    except (msgspec.DecodeError, RecursionError):
        with contextlib.suppress(msgspec.DecodeError, RecursionError):
            _m_envelope.decode(text)
        return False


# -- pydantic -------------------------------------------------------------------


def pydantic_decoder() -> Callable[[str], bool] | None:
    """The same schema for pydantic, and its decode; ``None`` when pydantic is not installed
    (the project does not need it: ``pip install pydantic`` for its rows)."""
    try:
        import pydantic
    except ImportError:
        return None

    class PBase(pydantic.BaseModel):
        model_config = pydantic.ConfigDict(strict=True, extra="ignore")
        id: Annotated[Id, pydantic.Field(union_mode="left_to_right")] = None
        seat: int | None = None

    class PJoin(PBase):
        type: Literal["join"]
        name: str

    class PResume(PBase):
        type: Literal["resume"]
        token: str

    class PLeave(PBase):
        type: Literal["leave"]

    class PStart(PBase):
        type: Literal["start"]
        version: int

    class PRoll(PBase):
        type: Literal["roll"]
        version: int
        hold: list[int] = []

    class PHold(PBase):
        type: Literal["hold"]
        hold: list[int]

    class PScore(PBase):
        type: Literal["score"]
        version: int
        category: str

    class PChat(PBase):
        type: Literal["chat"]
        text: str

    class PRematch(PBase):
        type: Literal["rematch"]

    class PCoach(PBase):
        type: Literal["coach"]
        on: bool

    class PAddBot(PBase):
        type: Literal["add_bot"]
        level: str

    class PRemoveBot(PBase):
        type: Literal["remove_bot"]
        bot: int

    class PAdvice(PBase):
        type: Literal["advice"]

    class PSnapshot(PBase):
        type: Literal["snapshot"]

    class PPing(PBase):
        type: Literal["ping"]

    PMessage = Annotated[
        PJoin
        | PResume
        | PLeave
        | PStart
        | PRoll
        | PHold
        | PScore
        | PChat
        | PRematch
        | PCoach
        | PAddBot
        | PRemoveBot
        | PAdvice
        | PSnapshot
        | PPing,
        pydantic.Field(discriminator="type"),
    ]

    class PEnvelope(pydantic.BaseModel):
        model_config = pydantic.ConfigDict(strict=True, extra="ignore")
        id: Id = None

    _p_adapter: pydantic.TypeAdapter[PMessage] = pydantic.TypeAdapter(PMessage)

    def with_pydantic(text: str) -> bool:
        try:
            _p_adapter.validate_json(text)
            return True
        except pydantic.ValidationError:
            with contextlib.suppress(pydantic.ValidationError):
                PEnvelope.model_validate_json(text)
            return False

    return with_pydantic


def with_json_loads(text: str) -> bool:
    try:
        json.loads(text)
        return True
    except (ValueError, RecursionError):
        return False


# -- the run ----------------------------------------------------------------------

MESSAGES = {
    "roll with hold": json.dumps({"type": "roll", "hold": [0, 1], "version": 7, "id": "roll-3"}),
    "score": json.dumps({"type": "score", "category": "chance", "version": 11, "id": "score-4"}),
    "chat, 400 chars": json.dumps(
        {"type": "chat", "text": "Bonne chance à tous ! " * 18 + "🎲🎲🎲🎲", "id": "chat-5"},
        ensure_ascii=False,
    ),
    "roll, hold 5,000 deep": '{"type": "roll", "version": 7, "hold": '
    + "[" * 5000
    + "]" * 5000
    + "}",
    "ping, field 900 deep": '{"type": "ping", "x": ' + "[" * 900 + "]" * 900 + ', "id": 1}',
    "chat, 15,900 chars": json.dumps({"type": "chat", "text": "x" * 15_900, "id": "chat-6"}),
}

DECODERS: dict[str, Callable[[str], bool] | None] = {
    "msgspec": with_msgspec,
    "pydantic": pydantic_decoder(),
    "json.loads": with_json_loads,
}


def measure(decode: Callable[[str], bool], text: str, rounds: int) -> tuple[float, float, float]:
    """Median and p99 wall time of one decode, and CPU time per decode, in microseconds."""
    for _ in range(min(rounds, 200)):  # Warm up caches and branch predictors.
        decode(text)
    timings = []
    cpu_start = time.process_time()
    for _ in range(rounds):
        start = time.perf_counter_ns()
        decode(text)
        timings.append(time.perf_counter_ns() - start)
    cpu = (time.process_time() - cpu_start) / rounds * 1e6
    timings.sort()
    return statistics.median(timings) / 1e3, timings[int(len(timings) * 0.99)] / 1e3, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=20_000, help="decodes per message")
    args = quick.parse_args(parser, {"rounds": 200})
    try:
        from pydantic import VERSION as pydantic_version
    except ImportError:
        pydantic_version = "not installed (pip install pydantic for its rows)"
    print(f"msgspec {msgspec.__version__}, pydantic {pydantic_version}, {args.rounds:,} rounds")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()
    header = f"{'message':<24} {'bytes':>6}  {'library':<10} {'ok':<3}"
    print(f"{header} {'p50 µs':>8} {'p99 µs':>8} {'CPU µs':>8}")
    for name, text in MESSAGES.items():
        for library, decode in DECODERS.items():
            if decode is None:
                continue
            ok = "yes" if decode(text) else "no"
            p50, p99, cpu = measure(decode, text, args.rounds)
            size = len(text.encode())
            print(
                f"{name:<24} {size:>6}  {library:<10} {ok:<3} {p50:>8.2f} {p99:>8.2f} {cpu:>8.2f}"
            )
        print()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
