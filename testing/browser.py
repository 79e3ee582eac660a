"""Headless Chromium for tests that look at pictures in a real browser (selenium).

``find_chromium()`` finds the browser and its driver (Debian's ``chromium`` and
``chromium-driver`` packages, or ``NAQALA_CHROMIUM`` / ``NAQALA_CHROMEDRIVER``) or says
why there is none; ``chromium()`` opens a fresh headless session that records the
console, in a throw-away profile, and always closes it. Needs ``selenium``
(``pip install 'naqala[test]'``).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["chromium", "console_errors", "find_chromium"]

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
DRIVERS = ("chromedriver", "/usr/lib/chromium/chromedriver")
#: what a headless browser run as root in a container needs, and nothing that reaches out
ARGUMENTS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
)


def _which(names: tuple[str, ...], variable: str) -> str | None:
    chosen = os.environ.get(variable)
    if chosen:
        return chosen if os.path.exists(chosen) else None
    for name in names:
        found = shutil.which(name) or (
            name if os.path.isabs(name) and os.path.exists(name) else None
        )
        if found:
            return found
    return None


def find_chromium() -> tuple[str, str] | str:
    """``(browser, driver)`` paths, or the reason why they cannot be used."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install 'naqala[test]')"
    browser = _which(BROWSERS, "NAQALA_CHROMIUM")
    driver = _which(DRIVERS, "NAQALA_CHROMEDRIVER")
    if browser is None or driver is None:
        missing = " and ".join(
            what for what, path in (("chromium", browser), ("chromedriver", driver)) if not path
        )
        return f"no {missing} found (apt-get install chromium chromium-driver)"
    return browser, driver


@contextmanager
def chromium(width: int = 1400, height: int = 1000) -> Iterator[Any]:
    """A headless Chromium webdriver with a window of ``width``×``height`` pixels and the
    browser console recorded; ``RuntimeError`` if there is no browser."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    found = find_chromium()
    if isinstance(found, str):
        raise RuntimeError(found)
    browser, driver_path = found
    with tempfile.TemporaryDirectory(prefix="naqala-chromium-") as profile:
        options = webdriver.ChromeOptions()
        for argument in ARGUMENTS:
            options.add_argument(argument)
        options.add_argument(f"--user-data-dir={profile}")
        options.add_argument(f"--window-size={width},{height}")
        options.binary_location = browser
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(options=options, service=Service(driver_path))
        try:
            yield driver
        finally:
            driver.quit()


def console_errors(driver: Any) -> list[str]:
    """The browser console's errors since the last call (messages of level SEVERE)."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
