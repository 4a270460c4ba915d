"""QR codes for invite links, drawn on the server as inline SVG (no script, no image request)."""

import segno


def qr_svg(text: str, *, title: str = "") -> str:
    """An ``<svg>`` element drawing ``text`` as a QR code that scales to its box.

    Medium error correction survives a phone camera at an angle or a smudged screen.
    """
    code = segno.make(text, error="m", micro=False)
    return code.svg_inline(
        scale=1, border=2, omitsize=True, title=title or None, dark="#0b3b1f", light="#ffffff"
    )
