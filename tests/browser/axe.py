"""axe-core, the accessibility checker, run inside a page the browser tests opened.

axe-core comes from the npm registry (package.json's devDependencies; ``npm ci``,
which scripts/test.sh runs) into ``node_modules/axe-core``. It is handed to the page
through Playwright's ``evaluate``, which runs over the DevTools protocol: the site's
Content-Security-Policy (no inline script, no ``eval``) governs the page's own
scripts, not the test's, so the page is checked exactly as it is served.
"""

import json
import os
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Page

AXE_SCRIPT = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"

#: The impacts that fail a test; "moderate" and "minor" are reported, not failed.
FAILING = ("serious", "critical")

#: The rule sets run: WCAG 2.0, 2.1 and 2.2 A and AA, and axe's best practices.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


@dataclass(frozen=True)
class Violation:
    """One rule a page broke, and where."""

    rule: str
    impact: str
    help: str
    targets: tuple[str, ...]

    def __str__(self) -> str:
        where = ", ".join(self.targets[:4]) + (" ..." if len(self.targets) > 4 else "")
        return f"{self.impact}: {self.rule} ({self.help}) at {where}"


def axe_source() -> str:
    """axe-core's script; a clear skip (or, under CI, a failure) when it is not installed."""
    if not AXE_SCRIPT.exists():
        message = f"axe-core is not installed ({AXE_SCRIPT}): run npm ci"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return AXE_SCRIPT.read_text(encoding="utf-8")


def violations(page: Page) -> list[Violation]:
    """Every violation axe-core finds in the page as it is now, worst first."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # A script, not a function: evaluating it defines window.axe in the page.
        page.evaluate(axe_source())
    found = page.evaluate(
        """async (tags) => {
            const results = await window.axe.run(document, {
                runOnly: { type: "tag", values: tags },
                resultTypes: ["violations"],
            });
            return results.violations.map((v) => ({
                rule: v.id,
                impact: v.impact,
                help: v.help,
                targets: v.nodes.map((n) => n.target.join(" ")),
            }));
        }""",
        TAGS,
    )
    order = ["critical", "serious", "moderate", "minor"]
    return sorted(
        (
            Violation(v["rule"], v["impact"] or "minor", v["help"], tuple(v["targets"]))
            for v in found
        ),
        key=lambda v: order.index(v.impact) if v.impact in order else len(order),
    )


def failing(found: list[Violation]) -> list[str]:
    """The serious and critical ones, as lines for an assertion message."""
    return [str(v) for v in found if v.impact in FAILING]


def as_json(found: list[Violation]) -> str:
    return json.dumps([v.__dict__ for v in found], indent=1)
