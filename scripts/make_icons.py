"""Draw the app's PNG icons (static/img/icon-*.png) from the favicon's die, without Pillow.

The die of static/img/favicon.svg (a 64-unit square: a cream face with a green rim and
five red pips), drawn with 4x4 samples a pixel and written as PNG with zlib. Run it
again after changing the die: ``python scripts/make_icons.py``. The icons are committed.
"""

import struct
import zlib
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "static" / "img"
PAPER, FELT, RED = (0xFF, 0xFD, 0xF6), (0x14, 0x53, 0x2D), (0xB9, 0x1C, 0x1C)
PIPS = [(20, 20), (32, 32), (44, 44), (44, 20), (20, 44)]
SAMPLES = 4


def rounded_box(x: float, y: float, left: float, size: float, radius: float) -> float:
    """Signed distance from (x, y) to a square with rounded corners (negative inside)."""
    centre, half = left + size / 2, size / 2 - radius
    dx, dy = abs(x - centre) - half, abs(y - centre) - half
    outside = (max(dx, 0) ** 2 + max(dy, 0) ** 2) ** 0.5
    return outside + min(max(dx, dy), 0) - radius


def die_colour(x: float, y: float) -> tuple[int, int, int] | None:
    """The favicon at (x, y) in its 64-unit square, or None where it is transparent."""
    if any((x - px) ** 2 + (y - py) ** 2 <= 36 for px, py in PIPS):
        return RED
    edge = rounded_box(x, y, 4, 56, 12)
    if edge <= -2:
        return PAPER
    if edge <= 2:
        return FELT
    return None


def draw(size: int, *, maskable: bool) -> bytes:
    """RGBA rows of the icon: the die alone, or (maskable) the die in the middle 60% of a
    felt-green square, inside the circle every platform's mask keeps."""
    rows = []
    scale = 64 / size if not maskable else 64 / (size * 0.6)
    offset = 0.0 if not maskable else size * 0.2
    for row in range(size):
        line = bytearray([0])  # The row's filter: none.
        for column in range(size):
            total = [0, 0, 0, 0]
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    x = (column + (sx + 0.5) / SAMPLES - offset) * scale
                    y = (row + (sy + 0.5) / SAMPLES - offset) * scale
                    colour = die_colour(x, y) or (FELT if maskable else None)
                    if colour is not None:
                        total = [t + c for t, c in zip(total, (*colour, 255), strict=True)]
            n = SAMPLES * SAMPLES
            alpha = total[3] // n
            rgb = [t * 255 // total[3] if total[3] else 0 for t in total[:3]]
            line += bytes([*rgb, alpha])
        rows.append(bytes(line))
    return b"".join(rows)


def png(size: int, pixels: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA.
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(pixels, 9))
        + chunk(b"IEND", b"")
    )


def main() -> None:
    for name, size, maskable in (
        ("icon-192.png", 192, False),
        ("icon-512.png", 512, False),
        ("icon-maskable-512.png", 512, True),
    ):
        (STATIC / name).write_bytes(png(size, draw(size, maskable=maskable)))
        print(f"static/img/{name}")


if __name__ == "__main__":
    main()
