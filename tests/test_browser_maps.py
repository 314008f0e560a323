"""What is special about Maps and Chrome, through UI actions: the plumbing paths they use
(Contacts' address -> ``geo:`` -> Maps, ``tel:`` links with and without a dialer, an
``https:`` link from another app -> a Custom Tab, the location permission answered either
way, Share), the directions figures (walking slower than driving, distances the same both
ways, the figures the tasks expect), tab history and back, tabs, bookmarks, history,
forms, and fixtures that reject bad arguments."""

from __future__ import annotations

import re

import pytest

from phoneworld_gym.app import Page, all_apps, get_app
from phoneworld_gym.contract import Action
from phoneworld_gym.oracle import find, tap, text_of, type_into
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.system import intents
from phoneworld_gym.tasks.maps.common import grid_miles, walk_minutes

MAPS = get_app("maps").package
BROWSER = get_app("browser").package


def _device(*apps: str, seed: int = 0) -> PhoneWorldDevice:
    d = PhoneWorldDevice(apps=list(apps) if apps else None)
    d.reset(seed)
    return d


def _do(d: PhoneWorldDevice, action: Action) -> None:
    assert d.execute(action) == "", action


def _texts(d: PhoneWorldDevice) -> list[str]:
    return [e.text or "" for e in d.ui_elements()]


def _search_place(d: PhoneWorldDevice, name: str) -> None:
    _do(d, Action("open_app", app_name="Maps"))
    _do(d, tap(d, rid="search_bar"))
    _do(d, type_into(d, name, rid="search_field"))
    _do(d, tap(d, text=name, rid="result_title"))


# -- plumbing ---------------------------------------------------------------------------------
def test_contact_address_opens_maps_on_that_place():
    d = _device("contacts", "maps", seed=3)
    person = next(c for c in d.probe.contacts() if c["postal_address"])
    _do(d, Action("open_app", app_name="Contacts"))
    _do(d, type_into(d, person["display_name"], rid="search_bar"))
    _do(d, tap(d, text=person["display_name"], rid="contact_title"))
    _do(d, tap(d, rid="address_title"))
    assert d.probe.foreground_app() == MAPS
    top = d.world.stacks["maps"][-1]
    assert top["screen"] == "place"
    assert intents.uri_payload(top["args"]["uri"]) == person["postal_address"]
    assert text_of(d, rid="address_title") == person["postal_address"]
    street = person["postal_address"].split(",")[0]
    assert text_of(d, rid="place_name") == street
    assert text_of(d, rid="category") == f"Home of {person['display_name']}"


def test_an_address_maps_does_not_know_says_so():
    d = _device("maps")
    ctx_uri = intents.uri_for("geo", "1 Nowhere Lane, Atlantis, ZZ 00000")
    d.world.stacks["maps"] = [{"screen": "main", "args": {}, "state": {}},
                              {"screen": "place", "args": {"uri": ctx_uri}, "state": {}}]
    d.world.bring_to_front("maps")
    d.invalidate()
    assert text_of(d, rid="no_results") == "No results for \u201c1 Nowhere Lane, Atlantis, ZZ " \
        "00000\u201d"
    _do(d, tap(d, rid="search_again"))
    assert d.world.stacks["maps"][-1]["screen"] == "search"


def test_tel_links_toast_without_a_dialer():
    d = _device("maps", "browser", "contacts")
    _do(d, Action("open_app", app_name="Chrome"))
    _do(d, type_into(d, "oliveandthyme.com", rid="url_bar"))
    before = d.probe.snapshot()
    _do(d, tap(d, rid="phone_link"))
    assert d.probe.foreground_app() == BROWSER
    assert (d.world.toast or {}).get("text") == "No app can open this link"
    assert d.probe.snapshot() == before
    place = next(r for r in d.probe.query("maps/places") if r["kind"] == "business")
    _search_place(d, place["name"])
    _do(d, tap(d, rid="call"))
    assert d.probe.foreground_app() == MAPS
    assert (d.world.toast or {}).get("text") == "No app can open this link"


def test_tel_link_opens_the_dialer_when_one_is_installed():
    dialer_apps = [a.name for a in all_apps().values() if "tel" in a.intent_filters]
    d = _device("maps", *dialer_apps)
    dialers = intents.handlers_for("tel:1", list(d.apps.values()))
    place = next(r for r in d.probe.query("maps/places") if r["kind"] == "business")
    _search_place(d, place["name"])
    _do(d, tap(d, rid="call"))
    if not dialers:
        assert (d.world.toast or {}).get("text") == "No app can open this link"
    elif len(dialers) == 1:
        app, screen = dialers[0]
        assert d.world.foreground == app.name
        top = d.world.stacks[app.name][-1]
        assert top["screen"] == screen
        assert re.sub(r"\D", "", intents.uri_payload(top["args"]["uri"])) == \
            re.sub(r"\D", "", place["phone"])
    else:
        assert d.world.system_ui is not None and d.world.system_ui["kind"] == "chooser"


def test_an_https_link_from_another_app_opens_a_custom_tab(monkeypatch):
    contacts = type(get_app("contacts"))
    screens = dict(contacts.screens)
    inner = screens["main"]

    def main_with_a_link(ctx):
        out = inner(ctx)
        body = out.body if isinstance(out, Page) else out
        from phoneworld_gym.ui import widgets as w
        from phoneworld_gym.ui.view import Column
        return Column([w.button("Read the news", ctx.open_uri("https://www.citypost.com"),
                                rid="news_link"), body])

    screens["main"] = main_with_a_link
    monkeypatch.setattr(contacts, "screens", screens)
    d = _device("contacts", "browser")
    history = len(d.probe.query("browser/history"))
    _do(d, Action("open_app", app_name="Contacts"))
    _do(d, tap(d, rid="news_link"))
    assert d.probe.foreground_app() == BROWSER
    assert d.world.stacks["browser"][-1]["screen"] == "link"
    assert text_of(d, rid="url_bar") == "citypost.com"
    top = next(r for r in d.probe.query("browser/pages") if r["rank"] == 1)
    assert text_of(d, rid="top_story") == top["headline"]
    # a link inside the Custom Tab navigates it, back returns, and "Open in Chrome" makes a tab
    _do(d, tap(d, rid="top_story"))
    assert text_of(d, rid="headline") == top["headline"]
    assert len(d.probe.query("browser/history")) == history + 1
    _do(d, Action("navigate_back"))
    assert text_of(d, rid="top_story") == top["headline"]
    # back on its first page returns to the app whose link opened it
    _do(d, Action("navigate_back"))
    assert d.probe.foreground_app() == get_app("contacts").package
    _do(d, tap(d, rid="news_link"))
    assert d.world.stacks["browser"][-1]["screen"] == "link"
    tabs = len(d.probe.query("browser/tabs"))
    _do(d, tap(d, desc="More options"))
    _do(d, tap(d, text="Open in Chrome"))
    rows = d.probe.query("browser/tabs")
    assert len(rows) == tabs + 1
    assert next(r for r in rows if r["current"])["url"] == "https://citypost.com"
    assert d.world.stacks["browser"][-1]["screen"] == "main"


@pytest.mark.parametrize("choice,stored", [("While using the app", "granted"),
                                           ("Only this time", "once"),
                                           ("Don't allow", "denied")])
def test_your_location_asks_for_the_permission_and_respects_the_answer(choice, stored):
    d = _device("maps", seed=2)
    home = next(r for r in d.probe.query("maps/places") if r["_id"] == "home")
    _do(d, Action("open_app", app_name="Maps"))
    _do(d, tap(d, desc="Your location"))
    assert d.screen.package == intents.PERMISSION_PACKAGE
    assert "Allow Maps to access this device's location?" in _texts(d)
    _do(d, tap(d, text=choice))
    assert d.world.permissions["maps"]["location"] == stored
    if stored == "denied":
        assert text_of(d, rid="permission_title") == "Maps can't show where you are"
        assert find(d, rid="location_title") is None
        _do(d, tap(d, rid="search_instead"))
        assert d.world.stacks["maps"][-1]["screen"] == "search"
    else:
        assert text_of(d, rid="location_title") == "You are here"
        assert text_of(d, rid="location_address") == f"Near {home['address']}"
        _do(d, tap(d, rid="directions_from_here"))
        assert text_of(d, rid="frm_field") == "Home"


def test_share_from_a_place_offers_its_name_and_address():
    d = _device("maps", "messages")
    place = next(r for r in d.probe.query("maps/places") if r["kind"] == "business")
    _search_place(d, place["name"])
    _do(d, tap(d, rid="share"))
    ui = d.world.system_ui
    assert ui is not None and ui["kind"] == "share"
    assert ui["text"] == f"{place['name']}\n{place['address']}"
    _do(d, tap(d, desc="Messages"))
    assert d.world.stacks["messages"][-1]["args"]["shared"]["text"] == ui["text"]


# -- Maps: search and directions ----------------------------------------------------------------
def test_search_folds_accents_and_suggests_while_typing():
    d = _device("maps", seed=1)
    cafes = [r for r in d.probe.query("maps/places") if r["category"] == "Café"]
    _do(d, Action("open_app", app_name="Maps"))
    _do(d, tap(d, rid="search_bar"))
    _do(d, type_into(d, "cafe", rid="search_field"))
    results = {e.text for e in d.ui_elements() if (e.resource_id or "").endswith("/result_title")}
    assert {c["name"] for c in cafes} <= results
    # while a name is being typed (before enter), places starting with it are suggested
    name = cafes[0]["name"]
    d.world.stacks["maps"][-1]["state"]["_fields"] = {"q": name[:4]}
    d.invalidate()
    suggested = [e.text for e in d.ui_elements()
                 if (e.resource_id or "").endswith("/suggestion_title")]
    assert name in suggested
    assert all(t.lower().startswith(name[:4].lower()) or name[:4].lower() in t.lower()
               for t in suggested)
    _do(d, tap(d, text=name, rid="suggestion_title"))
    assert text_of(d, rid="place_name") == name
    assert d.probe.query("maps/recent")[0]["place"] == cafes[0]["_id"]


def test_pins_on_the_map_open_their_place():
    d = _device("maps", seed=2)
    _do(d, Action("open_app", app_name="Maps"))
    pins = [e for e in d.ui_elements() if (e.resource_id or "").endswith("/map_pin")]
    assert len(pins) >= 5
    boxes = [e.bbox_pixels for e in pins]
    for i, a in enumerate(boxes):  # tappable pins never overlap
        for b in boxes[i + 1:]:
            assert a.x_max <= b.x_min or b.x_max <= a.x_min or a.y_max <= b.y_min \
                or b.y_max <= a.y_min
    name = pins[0].content_description
    _do(d, tap(d, desc=name, rid="map_pin"))
    assert text_of(d, rid="place_name") == name


def _directions(d: PhoneWorldDevice, frm: str, to: str, mode: str) -> tuple[str, str]:
    stack = d.world.stacks["maps"] = [{"screen": "main", "args": {}, "state": {}},
                                      {"screen": "directions", "args": {"frm": frm, "to": to},
                                       "state": {"mode": mode}}]
    assert stack
    d.world.bring_to_front("maps")
    d.invalidate()
    return text_of(d, rid="route_time") or "", text_of(d, rid="route_distance") or ""


def _minutes(text: str) -> int:
    m = re.fullmatch(r"(?:(\d+) hr)? ?(?:(\d+) min)?", text)
    assert m and text, text
    return int(m.group(1) or 0) * 60 + int(m.group(2) or 0)


def test_directions_figures_are_consistent():
    d = _device("maps", seed=4)
    rows = d.probe.query("maps/places")
    me = next(r for r in rows if r["_id"] == "home")
    biz = [r for r in rows if r["kind"] == "business"][:5]
    for a in biz:
        for b in biz:
            if a is b:
                continue
            t_walk, dist_ab = _directions(d, a["_id"], b["_id"], "walk")
            t_drive, dist_drive = _directions(d, a["_id"], b["_id"], "drive")
            t_bike, _ = _directions(d, a["_id"], b["_id"], "bike")
            _, dist_ba = _directions(d, b["_id"], a["_id"], "walk")
            assert dist_ab == dist_ba == dist_drive == f"({grid_miles(a, b):.1f} mi)"
            assert _minutes(t_walk) > _minutes(t_bike) and _minutes(t_walk) > _minutes(t_drive)
    # the figure a task expects is the one on screen
    for b in biz:
        t_walk, _ = _directions(d, "home", b["_id"], "walk")
        assert _minutes(t_walk) == walk_minutes(me, b)
    # swapping the ends through the UI keeps the distance
    _directions(d, "home", biz[0]["_id"], "drive")
    before = text_of(d, rid="route_distance")
    _do(d, tap(d, desc="Swap start and destination"))
    assert text_of(d, rid="to_field") == "Home"
    assert text_of(d, rid="route_distance") == before


def test_choosing_a_start_and_saving_to_lists():
    d = _device("maps", seed=5)
    rows = [r for r in d.probe.query("maps/places") if r["kind"] == "business"]
    saved = {s["place"] for s in d.probe.query("maps/saved")}
    a, b = [r for r in rows if r["_id"] not in saved][:2]
    _search_place(d, b["name"])
    _do(d, tap(d, rid="directions"))
    _do(d, tap(d, rid="frm_field"))
    _do(d, type_into(d, a["name"], rid="search_field"))
    _do(d, tap(d, text=a["name"], rid="result_title"))
    assert text_of(d, rid="frm_field") == a["name"]
    assert text_of(d, rid="route_distance") == f"({grid_miles(a, b):.1f} mi)"
    _do(d, Action("navigate_back"))
    n = len(d.probe.query("maps/saved"))
    _do(d, tap(d, rid="save"))
    _do(d, tap(d, rid="list_want_to_go"))
    _do(d, tap(d, text="Done"))
    rows_after = d.probe.query("maps/saved")
    assert len(rows_after) == n + 1
    assert rows_after[-1]["place"] == b["_id"] and rows_after[-1]["list"] == "Want to go"
    assert text_of(d, rid="save") == "Saved"


def test_seeds_give_different_places_and_sites():
    a, b = _device("maps", "browser", seed=0), _device("maps", "browser", seed=1)
    assert a.probe.query("maps/places") != b.probe.query("maps/places")
    heads = [[r["headline"] for r in d.probe.query("browser/pages") if r["kind"] == "story"]
             for d in (a, b)]
    assert heads[0] != heads[1]
    hours = [[[r[f"hours_{day}"] for day in ("monday", "friday", "saturday", "sunday")]
              for r in d.probe.query("browser/pages") if r["name"]] for d in (a, b)]
    assert len(hours[0]) == 2 and hours[0] != hours[1]


def test_fixtures_reject_bad_arguments():
    d = _device("maps", "browser")
    with pytest.raises(ValueError, match="no place with key 'atlantis'"):
        d.fixture("maps", "save_place", place="atlantis", list="Favorites")
    key = next(r["_id"] for r in d.probe.query("maps/places") if r["kind"] == "business")
    with pytest.raises(ValueError, match="list must be one of"):
        d.fixture("maps", "save_place", place=key, list="Someday")
    with pytest.raises(ValueError, match="no page of the mock sites"):
        d.fixture("browser", "bookmark", url="https://nowhere.example/x")
    with pytest.raises(ValueError, match="already bookmarked"):
        d.fixture("browser", "bookmark", url="citypost.com")
    saved = d.probe.query("maps/saved")
    key = next(r["_id"] for r in d.probe.query("maps/places") if r["kind"] == "business"
               and not any(x["place"] == r["_id"] for x in saved))
    d.fixture("maps", "save_place", place=key, list="Want to go")
    assert d.probe.query("maps/saved")[-1]["place"] == key
    with pytest.raises(ValueError, match="already in 'Want to go'"):
        d.fixture("maps", "save_place", place=key, list="Want to go")
    assert len(d.probe.query("maps/saved")) == len(saved) + 1


# -- Chrome: tabs, back, bookmarks, history, forms ----------------------------------------------
def _open(d: PhoneWorldDevice, typed: str) -> None:
    _do(d, type_into(d, typed, rid="url_bar"))


def test_back_walks_the_tab_history_and_forward_returns():
    d = _device("browser")
    _do(d, Action("open_app", app_name="Chrome"))
    assert find(d, rid="search_box") is not None  # the new tab page
    _open(d, "www.citypost.com")
    top = text_of(d, rid="top_story")
    _do(d, tap(d, rid="top_story"))
    assert text_of(d, rid="headline") == top
    assert text_of(d, rid="url_bar", nth=0).startswith("citypost.com/article/")
    _do(d, Action("navigate_back"))
    assert text_of(d, rid="top_story") == top and text_of(d, rid="url_bar") == "citypost.com"
    _do(d, tap(d, desc="More options"))
    _do(d, tap(d, desc="Forward"))
    assert text_of(d, rid="headline") == top
    _do(d, Action("navigate_back"))
    _do(d, Action("navigate_back"))
    assert find(d, rid="search_box") is not None
    _do(d, Action("navigate_back"))  # the tab's first page: back leaves Chrome
    assert d.probe.foreground_app() != BROWSER


def test_the_address_bar_opens_sites_searches_and_unknown_hosts():
    d = _device("browser", seed=2)
    _do(d, Action("open_app", app_name="Chrome"))
    recipe = next(r for r in d.probe.query("browser/pages") if r["kind"] == "recipe")
    _open(d, f"{recipe['dish']} recipe")
    titles = [e.text for e in d.ui_elements() if (e.resource_id or "").endswith("/result_title")]
    assert titles == [recipe["title"]]
    assert text_of(d, rid="url_bar") == f"{recipe['dish']} recipe"
    _open(d, "nosuchsite.example")
    assert text_of(d, rid="error_title") == "This site can\u2019t be reached"
    _open(d, "citypost.com/nope")
    assert text_of(d, rid="error_title") == "404 \u2014 Page not found"
    # while an address is being typed (before enter), history and bookmarks are suggested
    d.world.stacks["browser"][-1]["state"]["_fields"] = {"omni": "paper"}
    d.invalidate()
    assert "Paper Lantern Books" in _texts(d)


def test_tabs_open_switch_and_close():
    d = _device("browser")
    _do(d, Action("open_app", app_name="Chrome"))
    assert len(d.probe.query("browser/tabs")) == 2
    _do(d, tap(d, rid="tab_switcher_button"))
    assert text_of(d, rid="tab_count") == "2 tabs"
    _do(d, tap(d, desc="New tab"))
    assert len(d.probe.query("browser/tabs")) == 3
    assert find(d, desc="Switch or close tabs, 3 open") is not None
    _do(d, tap(d, rid="tab_switcher_button"))
    recipe = next(r for r in d.probe.query("browser/tabs") if "forkandspoon" in r["url"])
    _do(d, tap(d, desc=recipe["title"]))
    assert next(r for r in d.probe.query("browser/tabs") if r["current"])["_id"] == recipe["_id"]
    assert text_of(d, rid="recipe_title") is not None
    _do(d, tap(d, rid="tab_switcher_button"))
    _do(d, tap(d, desc=f"Close {recipe['title']} tab"))
    assert recipe["_id"] not in {r["_id"] for r in d.probe.query("browser/tabs")}
    assert text_of(d, rid="tab_count") == "2 tabs"


def test_bookmark_from_the_menu_and_delete_it():
    d = _device("browser", seed=6)
    _do(d, Action("open_app", app_name="Chrome"))
    _open(d, "paperlanternbooks.com/events")
    _do(d, tap(d, desc="More options"))
    _do(d, tap(d, desc="Bookmark"))
    rows = d.probe.query("browser/bookmarks")
    assert rows[-1] == {"_id": rows[-1]["_id"], "url": "https://paperlanternbooks.com/events",
                        "title": "Events | Paper Lantern Books"}
    _do(d, tap(d, desc="More options"))
    assert find(d, desc="Edit bookmark") is not None
    _do(d, tap(d, text="Bookmarks"))
    _do(d, tap(d, desc="Delete bookmark Events | Paper Lantern Books"))
    assert len(d.probe.query("browser/bookmarks")) == len(rows) - 1
    _do(d, tap(d, text="Paper Lantern Books", rid="bookmark_title"))
    assert text_of(d, rid="url_bar") == "paperlanternbooks.com"


def test_clearing_history_asks_first():
    d = _device("browser")
    _do(d, Action("open_app", app_name="Chrome"))
    n = len(d.probe.query("browser/history"))
    assert n > 0
    _do(d, tap(d, desc="More options"))
    _do(d, tap(d, text="History"))
    _do(d, tap(d, rid="clear_browsing_data_button"))
    _do(d, tap(d, text="Cancel"))
    assert len(d.probe.query("browser/history")) == n
    _do(d, tap(d, rid="clear_browsing_data_button"))
    _do(d, tap(d, text="Clear data"))
    assert d.probe.query("browser/history") == []
    assert text_of(d, rid="empty") == "Pages you've visited appear here"


def test_newsletter_form_checks_the_email_and_records_a_signup():
    d = _device("browser")
    _do(d, Action("open_app", app_name="Chrome"))
    _open(d, "citypost.com/newsletter")
    _do(d, type_into(d, "Ann Lee", rid="field_name"))
    _do(d, type_into(d, "ann.lee", rid="field_email"))
    _do(d, tap(d, rid="submit"))
    assert text_of(d, rid="form_error") == "Enter a valid email address"
    assert d.probe.query("browser/forms") == []
    _do(d, type_into(d, "ann.lee@mail.com", rid="field_email"))
    _do(d, tap(d, text="Weekly", rid="frequency_option"))
    _do(d, tap(d, rid="submit"))
    assert d.probe.query("browser/forms") == [
        {"_id": 1, "form": "newsletter", "site": "citypost.com", "name": "Ann Lee",
         "email": "ann.lee@mail.com", "message": "", "frequency": "Weekly"}]
    assert text_of(d, rid="form_done") == "You're subscribed!"


def test_long_press_on_a_link_offers_new_tab_preview_and_copy():
    d = _device("browser")
    _do(d, Action("open_app", app_name="Chrome"))
    _open(d, "citypost.com")
    top = text_of(d, rid="top_story")
    _do(d, Action("long_press", index=find(d, rid="top_story")))
    assert text_of(d, rid="link_url", nth=0).startswith("citypost.com/article/")
    _do(d, tap(d, text="Copy link address"))
    assert d.probe.clipboard().startswith("https://citypost.com/article/")
    _do(d, Action("long_press", index=find(d, rid="top_story")))
    _do(d, tap(d, text="Preview page"))
    assert d.world.stacks["browser"][-1]["screen"] == "link"
    assert text_of(d, rid="headline") == top
    _do(d, tap(d, desc="Close tab"))  # a preview closes back to the page it came from
    assert d.probe.foreground_app() == BROWSER and text_of(d, rid="top_story") == top


def test_a_place_observed_as_a_tree_draws_no_map_and_a_screenshot_draws_it_once():
    from phoneworld_gym.apps.maps import canvas

    canvas.draw.cache_clear()
    d = _device("maps", seed=5)
    _do(d, Action("open_app", app_name="Maps"))
    pin = next(e for e in d.ui_elements() if (e.resource_id or "").endswith("/map_pin"))
    _do(d, tap(d, desc=pin.content_description, rid="map_pin"))
    assert text_of(d, rid="place_name") == pin.content_description
    assert canvas.draw.cache_info().misses == 0  # trees only so far: no map drawn
    before = d.screenshot()
    assert canvas.draw.cache_info().misses == 1
    # the map's pixels are on the screen: above the sheet, colours of land, parks, roads
    top = before[: before.shape[0] // 4]
    assert len({tuple(px) for px in top.reshape(-1, 3)[::97]}) > 5
    d.screenshot()
    assert canvas.draw.cache_info().misses == 1  # drawn once
