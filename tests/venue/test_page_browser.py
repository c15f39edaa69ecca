"""The venue page in a real headless Chromium (Selenium with Debian's chromium-driver):
the right winners and leaderboard, live updates when a table finishes a game without a
reload, a game's score sheet, a phone-sized view. Screenshots in tests/_artifacts/."""

from __future__ import annotations

import shutil

import pytest
from simtable import SimTable
from venue_helpers import needs_mosquitto, venue_config

from companion.venue.web import Hub, WebServer, create_app

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
pytestmark = [needs_mosquitto, pytest.mark.slow,
              pytest.mark.skipif(not (shutil.os.path.exists(CHROMIUM)
                                      and shutil.os.path.exists(DRIVER)),
                                 reason="chromium and chromium-driver are not installed "
                                        "(.ci/run installs them)")]


def text_of(driver, by, selector) -> str:
    """An element's text, read again if the page replaced it meanwhile (a live update)."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, 10, ignored_exceptions=(StaleElementReferenceException,)
                         ).until(lambda d: d.find_element(by, selector).text)


def score(seat, points):
    return {"type": "score", "seat": seat, "points": points}


@pytest.fixture
def browser(tmp_path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--window-size=1280,900",
                f"--user-data-dir={tmp_path / 'chromium'}"):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options, service=Service(DRIVER))
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


@pytest.fixture
def page(venue, changes):
    hub = Hub()

    def poke():
        hub.poke()
        changes.poke()

    venue.sub.on_change = poke
    server = WebServer(create_app(venue.store, hub, status=lambda: venue.sub.status),
                       "127.0.0.1", 0, hub)
    server.start()
    assert server.wait_started()
    yield server
    server.stop()


def _tables(tmp_path, port, venue):
    out = []
    for name, box in (("Table 1", "1a1a1a1a"), ("Table <2> & Bar", "2b2b2b2b")):
        t = SimTable(tmp_path / box, venue_config(port, name), box, max_backoff=0.3)
        venue.admit(t)
        t.start()
        out.append(t)
    return out


def test_the_leaderboard_shows_the_winners_and_follows_a_table_live(
        tmp_path, broker, venue, page, browser, changes, artifacts):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    one, two = _tables(tmp_path, broker.port, venue)
    try:
        one.play_game("scorepad", ["Ann", "Bo"], [score(1, 7), score(2, 3), {"type": "finish"}])
        two.play_game("scorepad", ["Cy", "Dee", "Eli"],
                      [score(2, 5), score(3, 4), {"type": "finish"}])
        two.play_game("scorepad", ["Cy", "Dee"], [score(1, 2)], finish=False)  # in play
        changes.until(lambda: len(venue.store.results()) == 2
                      and len(venue.store.board()["tables"]) == 2, what="both tables")

        browser.get(page.url)
        tonight = text_of(browser, By.ID, "tonight")
        assert "Ann won Score pad at Table 1" in tonight
        assert "Dee won Score pad at Table <2> & Bar" in tonight  # odd name shown as typed
        boards = text_of(browser, By.ID, "leaderboards")
        assert "Ann\n1\n1" in boards.replace(" ", "\n") or "Ann 1 1" in boards
        live = text_of(browser, By.CSS_SELECTOR, '.table[data-box="2b2b2b2b"]')
        assert "Cy" in live and "Round 1" in live
        browser.save_screenshot(str(artifacts / "venue-page-tv.png"))
        version = int(browser.find_element(By.TAG_NAME, "body").get_attribute("data-version"))

        # Table 1 finishes another game: the page changes by itself, no reload
        one.play_game("scorepad", ["Ann", "Fay"], [score(2, 9), {"type": "finish"}])
        WebDriverWait(browser, 30, poll_frequency=0.1).until(
            lambda d: "Fay won Score pad" in text_of(d, By.ID, "tonight"))
        assert int(browser.find_element(By.TAG_NAME, "body").get_attribute(
            "data-version")) > version
        assert browser.execute_script("return performance.getEntriesByType('navigation')"
                                      ".length") == 1  # the same page, updated in place
        first = text_of(browser, By.CSS_SELECTOR, "#tonight li")
        assert first.startswith("Fay won")  # newest first
        browser.save_screenshot(str(artifacts / "venue-page-updated.png"))

        browser.find_element(By.CSS_SELECTOR, "#tonight li a").click()
        WebDriverWait(browser, 15).until(lambda d: "Won by Fay" in d.page_source)
        assert "Table 1" in text_of(browser, By.CLASS_NAME, "meta")
        browser.save_screenshot(str(artifacts / "venue-score-sheet.png"))

        browser.set_window_size(390, 844)  # a phone
        browser.get(page.url)
        width = browser.execute_script("return document.documentElement.scrollWidth")
        assert width <= 400  # one column, nothing to scroll sideways
        browser.save_screenshot(str(artifacts / "venue-page-phone.png"))
    finally:
        one.stop()
        two.stop()


def test_a_foreign_message_is_listed_apart_and_never_shown_as_a_table(
        tmp_path, broker, venue, page, browser, changes, artifacts):
    import paho.mqtt.publish as publish
    from selenium.webdriver.common.by import By

    base = venue.store.topics.base
    fake = ('{"v": 1, "type": "live", "box": "deadbeef", "table": "Table 9", "game": 1,'
            ' "rev": 1, "seq": 1, "kind": "scorepad", "title": "Score pad", "status": "open",'
            ' "players": [{"name": "<script>alert(1)</script>", "seat": 1, "score": true}]}')
    publish.multiple([(f"{base}/table-9/live", fake, 1, False),
                      (f"{base}/table-9/live", b"\xff not json", 1, False),
                      (f"{base}/kitchen/oven", "200C", 1, False)],
                     hostname="127.0.0.1", port=broker.port)
    changes.until(lambda: len(venue.store.board()["problems"]) == 3, what="3 problems")
    browser.get(page.url)
    assert browser.find_elements(By.CSS_SELECTOR, ".table") == []
    problems = browser.find_element(By.ID, "problems")
    problems.click()
    text = problems.text
    assert "'key' is not an Ed25519 public key" in text  # no box key: never read further
    assert "not JSON" in text and "not a topic a table publishes on" in text
    assert "alert" not in browser.page_source or "&lt;script" in browser.page_source
    browser.save_screenshot(str(artifacts / "venue-page-problems.png"))
