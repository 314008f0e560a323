"""Browser data: the seeded content of a handful of mock sites, the open tabs with their back
history, the browsing history, bookmarks and submitted forms.

Sites (hosts without ``www.``; URLs are kept canonical: ``https://<host>/<path>``):

- ``findit.com``: a search engine (``/search?q=...``) over every page's title and words;
- ``citypost.com``: a city newspaper, a front page of seeded stories and one page each;
- ``forkandspoon.com``: recipes with seeded servings, times and amounts;
- ``oliveandthyme.com``: a restaurant (hours, phone, address, menu, a contact form);
- ``paperlanternbooks.com``: a bookshop (hours, phone, address, events);
- ``citypost.com/newsletter``: a newsletter signup form.

A tab is ``{"id", "stack": [url, ...], "pos"}`` (``pos`` indexes the page shown, back moves it
down). ``about:newtab`` is Chrome's new tab page.
"""

from __future__ import annotations

import re
import urllib.parse
from typing import Any

import numpy as np

from phoneworld_gym.life import STREETS, Life, random_phone

NEWTAB = "about:newtab"
SEARCH_HOST = "findit.com"
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
SITE_NAMES = {"findit.com": "Findit", "citypost.com": "The City Post",
              "forkandspoon.com": "Fork & Spoon", "oliveandthyme.com": "Olive & Thyme",
              "paperlanternbooks.com": "Paper Lantern Books"}

#: (section, headline template, summary template); {city}, {street}, {n} are filled per seed
_STORIES: tuple[tuple[str, str, str], ...] = (
    ("City", "{city} council approves new bike lanes on {street}",
     "The plan adds {n} miles of protected lanes by the end of next year."),
    ("Weather", "Storm expected to bring {n} inches of rain this weekend",
     "Forecasters advise residents to clear gutters and avoid low roads."),
    ("Business", "Family bakery on {street} celebrates {n} years",
     "Regulars lined up before dawn for the anniversary pastries."),
    ("Sports", "{city} Hawks win in overtime, {n}-3",
     "A late goal sealed the home team's fourth straight victory."),
    ("Culture", "Museum opens exhibit of {n} rare maps",
     "The collection traces the city's growth over two centuries."),
    ("Schools", "Library extends weekend hours for exam season",
     "Study rooms will stay open until {n} PM through the spring."),
    ("Transit", "New bus route connects {street} to the train station",
     "Buses will run every {n} minutes on weekdays."),
    ("Health", "Free flu shots offered at {n} pharmacies this month",
     "No appointment is needed; bring a photo ID."),
    ("Food", "Farmers market returns to {street} on Saturdays",
     "More than {n} vendors have signed up for the season."),
    ("Environment", "Volunteers plant {n} trees along the river",
     "The project aims to cool the busiest streets in summer."),
    ("Housing", "City unveils plan for {n} affordable homes",
     "Construction on the first site starts in the fall."),
    ("Technology", "Free public Wi-Fi now covers {n} city parks",
     "The network reaches speeds of up to 100 megabits."),
)
#: dish -> (minutes, base servings, ingredients as (amount per serving, unit, name), steps)
_RECIPES: dict[str, tuple[int, tuple[tuple[float, str, str], ...], tuple[str, ...]]] = {
    "Banana bread": (65, ((0.5, "", "ripe bananas"), (0.25, "", "eggs"),
                          (30, "g", "butter"), (40, "g", "flour"), (20, "g", "sugar")),
                     ("Mash the bananas.", "Whisk in the eggs and melted butter.",
                      "Fold in the flour and sugar.", "Bake at 350°F for about an hour.")),
    "Pancakes": (20, ((0.5, "", "eggs"), (60, "ml", "milk"), (40, "g", "flour"),
                      (5, "g", "sugar")),
                 ("Whisk the eggs and milk.", "Stir in the flour and sugar.",
                  "Cook ladlefuls on a hot pan until golden on both sides.")),
    "Shakshuka": (30, ((1.0, "", "eggs"), (100, "g", "tomatoes"), (0.25, "", "onions"),
                       (0.25, "", "red peppers")),
                  ("Soften the onion and pepper.", "Add the tomatoes and simmer.",
                   "Make wells and crack in the eggs.", "Cover until the eggs are set.")),
    "Lemon pasta": (25, ((90, "g", "spaghetti"), (0.25, "", "lemons"), (15, "g", "parmesan"),
                         (10, "g", "butter")),
                    ("Boil the pasta.", "Melt the butter with lemon zest and juice.",
                     "Toss the pasta with the sauce and parmesan.")),
    "Chocolate chip cookies": (35, ((0.25, "", "eggs"), (25, "g", "butter"),
                                    (35, "g", "flour"), (20, "g", "chocolate chips")),
                               ("Cream the butter and sugar.", "Beat in the egg.",
                                "Mix in the flour and chips.", "Bake at 375°F for 10 minutes.")),
    "Vegetable soup": (45, ((0.5, "", "carrots"), (0.25, "", "onions"), (80, "g", "potatoes"),
                            (250, "ml", "stock")),
                       ("Chop the vegetables.", "Sweat the onion, add the rest and the stock.",
                        "Simmer for 30 minutes and season.")),
    "Guacamole": (10, ((1.0, "", "avocados"), (0.25, "", "limes"), (0.1, "", "red onions"),
                       (0.25, "", "tomatoes")),
                  ("Mash the avocados.", "Stir in lime juice, onion and tomato.",
                   "Season with salt.")),
    "Chicken curry": (50, ((150, "g", "chicken"), (0.25, "", "onions"), (60, "ml",
                                                                         "coconut milk"),
                           (1, "tsp", "curry powder")),
                      ("Brown the chicken.", "Soften the onion with the curry powder.",
                       "Add the coconut milk and simmer for 25 minutes.")),
}
_MENU = (("Burrata with heirloom tomatoes", 12, 18), ("Wild mushroom risotto", 19, 26),
         ("Grilled sea bass", 24, 34), ("Lamb ragù pappardelle", 21, 29),
         ("Olive oil cake", 8, 12))
_EVENTS = ("Author talk: writing about home", "Children's story hour", "Poetry open mic",
           "Book club: this month's mystery", "Signing with a local illustrator")


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


# -- URLs ---------------------------------------------------------------------------------
def canonical(url: str) -> str:
    """``https://<host>/<path>[?query]`` without ``www.`` or a trailing slash on the path
    (the new tab page stays ``about:newtab``)."""
    url = url.strip()
    if url == NEWTAB:
        return url
    if not re.match(r"^[a-z]+://", url, re.IGNORECASE):
        url = "https://" + url
    parts = urllib.parse.urlsplit(url)
    host = parts.netloc.lower()
    host = host[4:] if host.startswith("www.") else host
    path = parts.path.rstrip("/")
    return f"https://{host}{path}" + (f"?{parts.query}" if parts.query else "")


def host_of(url: str) -> str:
    return "" if url == NEWTAB else urllib.parse.urlsplit(url).netloc


def display(url: str) -> str:
    """What the address bar shows when not editing: ``citypost.com/article/...``."""
    if url == NEWTAB:
        return ""
    parts = urllib.parse.urlsplit(url)
    if parts.path == "/search":
        return urllib.parse.parse_qs(parts.query).get("q", [""])[0]
    return parts.netloc + parts.path


def search_url(query: str) -> str:
    return f"https://{SEARCH_HOST}/search?q=" + urllib.parse.quote_plus(" ".join(query.split()))


def resolve(typed: str) -> str:
    """What the address bar opens for typed text: a URL as given, a bare host or path
    (``citypost.com``), or else a search for the words."""
    t = typed.strip()
    if not t:
        return NEWTAB
    if re.match(r"^https?://", t, re.IGNORECASE):
        return canonical(t)
    if " " not in t and re.match(r"^[\w-]+(\.[\w-]+)+(/.*)?$", t):
        return canonical(t)
    return search_url(t)


# -- generation -----------------------------------------------------------------------------
def _hours(rng: np.random.Generator, opens: tuple[int, int], closes: tuple[int, int],
           closed_day: int) -> list[list[int] | None]:
    o = int(rng.integers(opens[0], opens[1] + 1)) * 60
    c = int(rng.integers(closes[0], closes[1] + 1)) * 60 + (30 if rng.random() < 0.4 else 0)
    late = 60 * int(rng.integers(0, 2))
    return [None if d == closed_day else [o, c + (late if d in (4, 5) else 0)]
            for d in range(7)]


def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """Seeded site content (stories, recipes, the restaurant and the bookshop in the owner's
    city), two open tabs, a short history and two bookmarks."""
    home = life.owner.home
    assert home is not None
    city = f"{home.city}, {home.state} {home.zip}"

    def street() -> str:
        return STREETS[int(rng.integers(len(STREETS)))]

    stories = []
    for i in rng.permutation(len(_STORIES))[:6]:
        section, head, summary = _STORIES[int(i)]
        n = int(rng.integers(2, 40))
        fill = {"city": home.city, "street": street(), "n": n}
        headline = head.format(**fill)
        stories.append({"slug": slug(headline), "section": section, "headline": headline,
                        "summary": summary.format(**fill), "hours_ago": 0,
                        "author": f"{life.people[int(rng.integers(len(life.people)))].first} "
                                  f"{life.people[int(rng.integers(len(life.people)))].last}"})
    for k, s in enumerate(stories):
        s["hours_ago"] = k + 1 + int(rng.integers(0, 2))
    recipes = []
    for i in rng.permutation(len(_RECIPES))[:6]:
        dish = list(_RECIPES)[int(i)]
        minutes, ingredients, steps = _RECIPES[dish]
        servings = int(rng.choice([2, 4, 6, 8]))
        items = []
        for per, unit, name in ingredients:
            amount = per * servings * float(rng.choice([0.75, 1.0, 1.25]))
            amount = max(1, int(round(amount))) if unit in ("", "tsp") else \
                int(round(amount / 5) * 5) or 5
            items.append({"amount": amount, "unit": unit, "name": name})
        recipes.append({"slug": slug(dish), "dish": dish, "servings": servings,
                        "minutes": minutes + int(rng.integers(-5, 6)),
                        "rating": round(float(3.8 + 1.2 * rng.random()), 1),
                        "ingredients": items, "steps": list(steps)})
    restaurant = {"name": "Olive & Thyme", "phone": random_phone(rng),
                  "address": f"{int(rng.integers(10, 990))} {street()}, {city}",
                  "hours": _hours(rng, (11, 12), (21, 22), int(rng.integers(0, 3))),
                  "menu": [{"dish": d, "price": int(rng.integers(lo, hi + 1))}
                           for d, lo, hi in _MENU]}
    bookshop = {"name": "Paper Lantern Books", "phone": random_phone(rng),
                "address": f"{int(rng.integers(10, 990))} {street()}, {city}",
                "hours": _hours(rng, (9, 10), (18, 20), 6 if rng.random() < 0.5 else -1),
                "events": [{"title": _EVENTS[int(i)], "day": DAYS[int(rng.integers(0, 7))]}
                           for i in rng.permutation(len(_EVENTS))[:3]]}
    store: dict[str, Any] = {"stories": stories, "recipes": recipes, "restaurant": restaurant,
                             "bookshop": bookshop, "forms": [], "next_form": 1}
    first_recipe = f"https://forkandspoon.com/recipe/{recipes[0]['slug']}"
    store["tabs"] = [{"id": 1, "stack": [first_recipe], "pos": 0},
                     {"id": 2, "stack": [NEWTAB], "pos": 0}]
    store["current"], store["next_tab"] = 2, 3
    store["history"], store["next_history"] = [], 1
    for url in ("https://citypost.com", f"https://citypost.com/article/{stories[2]['slug']}",
                "https://forkandspoon.com", first_recipe):
        visit(store, url)
    store["bookmarks"] = [{"id": 1, "url": "https://citypost.com",
                           "title": title_of(store, "https://citypost.com")},
                          {"id": 2, "url": "https://paperlanternbooks.com",
                           "title": title_of(store, "https://paperlanternbooks.com")}]
    store["next_bookmark"] = 3
    return store


# -- pages ---------------------------------------------------------------------------------
def story(store: dict[str, Any], s: str) -> dict[str, Any] | None:
    return next((x for x in store["stories"] if x["slug"] == s), None)


def recipe(store: dict[str, Any], s: str) -> dict[str, Any] | None:
    return next((x for x in store["recipes"] if x["slug"] == s), None)


def title_of(store: dict[str, Any], url: str) -> str:
    """The page title a tab, the history and a bookmark show for ``url``."""
    if url == NEWTAB:
        return "New tab"
    parts = urllib.parse.urlsplit(url)
    host, path = parts.netloc, parts.path
    site = SITE_NAMES.get(host)
    if site is None:
        return host
    if host == SEARCH_HOST and path == "/search":
        q = urllib.parse.parse_qs(parts.query).get("q", [""])[0]
        return f"{q} - Findit Search"
    if path.startswith("/article/"):
        st = story(store, path[len("/article/"):])
        return f"{st['headline']} | {site}" if st else f"Page not found | {site}"
    if path.startswith("/recipe/"):
        rc = recipe(store, path[len("/recipe/"):])
        return f"{rc['dish']} recipe | {site}" if rc else f"Page not found | {site}"
    named = {"/newsletter": "Newsletter", "/contact": "Contact us", "/menu": "Menu",
             "/events": "Events"}
    if path in named:
        return f"{named[path]} | {site}"
    if path == "":
        return site
    return f"Page not found | {site}"


def page_words(store: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(url, title, words) of every page, for the search engine."""
    out = [("https://citypost.com", title_of(store, "https://citypost.com"),
            "news city post headlines local")]
    for st in store["stories"]:
        url = f"https://citypost.com/article/{st['slug']}"
        out.append((url, title_of(store, url), f"{st['section']} {st['summary']} news"))
    out.append(("https://citypost.com/newsletter", title_of(store, "https://citypost.com/"
                                                               "newsletter"),
                "newsletter subscribe email signup sign up city post"))
    out.append(("https://forkandspoon.com", "Fork & Spoon", "recipes cooking food"))
    for rc in store["recipes"]:
        url = f"https://forkandspoon.com/recipe/{rc['slug']}"
        names = " ".join(i["name"] for i in rc["ingredients"])
        out.append((url, title_of(store, url), f"recipe {names}"))
    for host, kind in (("oliveandthyme.com", "restaurant italian dinner menu hours"),
                       ("paperlanternbooks.com", "bookshop bookstore books events hours")):
        out.append((f"https://{host}", SITE_NAMES[host], kind))
    out.append(("https://oliveandthyme.com/menu", title_of(store, "https://oliveandthyme.com/"
                                                              "menu"), "menu prices dishes"))
    out.append(("https://oliveandthyme.com/contact", title_of(store, "https://oliveandthyme."
                                                                 "com/contact"),
                "contact message email restaurant"))
    out.append(("https://paperlanternbooks.com/events", title_of(
        store, "https://paperlanternbooks.com/events"), "events readings books"))
    return out


def search(store: dict[str, Any], query: str) -> list[tuple[str, str, str]]:
    """Pages whose title or words hold every word of ``query`` ((url, title, snippet))."""
    words = [w for w in re.split(r"\W+", query.lower()) if w]
    if not words:
        return []
    hits = []
    for url, title, extra in page_words(store):
        hay = f"{title} {extra}".lower()
        tokens = set(re.split(r"\W+", hay))
        if all(w in tokens or any(t.startswith(w) for t in tokens) for w in words):
            hits.append((url, title, extra))
    return hits


# -- tabs and history ------------------------------------------------------------------------
def tab(store: dict[str, Any], tid: int | None = None) -> dict[str, Any]:
    tid = store["current"] if tid is None else tid
    return next(t for t in store["tabs"] if t["id"] == tid)


def url_of(t: dict[str, Any]) -> str:
    return str(t["stack"][t["pos"]])


def visit(store: dict[str, Any], url: str) -> None:
    """Record a visit in the history (newest first; the new tab page is not recorded)."""
    if url == NEWTAB:
        return
    store["history"].insert(0, {"id": store["next_history"], "url": url,
                                "title": title_of(store, url)})
    store["next_history"] += 1


def navigate(store: dict[str, Any], url: str) -> None:
    """Open ``url`` in the current tab: forward entries are dropped, the visit recorded."""
    url = canonical(url)
    t = tab(store)
    if url_of(t) == url:
        return
    del t["stack"][t["pos"] + 1:]
    t["stack"].append(url)
    t["pos"] = len(t["stack"]) - 1
    visit(store, url)


def back(store: dict[str, Any]) -> bool:
    """Go back in the current tab; False when it is at its first page."""
    t = tab(store)
    if t["pos"] == 0:
        return False
    t["pos"] -= 1
    return True


def forward(store: dict[str, Any]) -> bool:
    t = tab(store)
    if t["pos"] >= len(t["stack"]) - 1:
        return False
    t["pos"] += 1
    return True


def new_tab(store: dict[str, Any], url: str = NEWTAB) -> None:
    store["tabs"].append({"id": store["next_tab"], "stack": [url], "pos": 0})
    store["current"] = store["next_tab"]
    store["next_tab"] += 1
    visit(store, url)


def close_tab(store: dict[str, Any], tid: int) -> None:
    """Close a tab; closing the last one leaves a new tab page, as Chrome does on a phone."""
    ids = [t["id"] for t in store["tabs"]]
    if tid not in ids:
        raise ValueError(f"no tab {tid}")
    i = ids.index(tid)
    store["tabs"] = [t for t in store["tabs"] if t["id"] != tid]
    if not store["tabs"]:
        new_tab(store)
    elif store["current"] == tid:
        store["current"] = store["tabs"][min(i, len(store["tabs"]) - 1)]["id"]


def bookmark_of(store: dict[str, Any], url: str) -> dict[str, Any] | None:
    return next((b for b in store["bookmarks"] if b["url"] == url), None)


def toggle_bookmark(store: dict[str, Any], url: str) -> bool:
    """Bookmark ``url`` (titled as the page), or remove its bookmark; True when now saved."""
    b = bookmark_of(store, url)
    if b is not None:
        store["bookmarks"] = [x for x in store["bookmarks"] if x["id"] != b["id"]]
        return False
    store["bookmarks"].append({"id": store["next_bookmark"], "url": url,
                               "title": title_of(store, url)})
    store["next_bookmark"] += 1
    return True


def submit_form(store: dict[str, Any], form: str, site: str, fields: dict[str, str]) -> None:
    row = {"id": store["next_form"], "form": form, "site": site, "name": "", "email": "",
           "message": "", "frequency": ""}
    row.update({k: " ".join(v.split()) for k, v in fields.items()})
    store["forms"].append(row)
    store["next_form"] += 1


# -- tables and fixtures ---------------------------------------------------------------------
def bookmark_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"_id": b["id"], "title": b["title"], "url": b["url"]} for b in store["bookmarks"]]


def history_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"_id": h["id"], "title": h["title"], "url": h["url"]} for h in store["history"]]


def tab_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"_id": t["id"], "url": url_of(t), "title": title_of(store, url_of(t)),
             "current": 1 if t["id"] == store["current"] else 0} for t in store["tabs"]]


def form_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"_id": f["id"], "form": f["form"], "site": f["site"], "name": f["name"],
             "email": f["email"], "message": f["message"], "frequency": f["frequency"]}
            for f in store["forms"]]


def page_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    """``browser/pages`` (static): what each site says, for tasks to ask about: stories
    (``rank`` 1 is the top story), recipes (``counts``: how many of each counted ingredient,
    ``servings``, ``minutes``) and the two
    businesses (``phone``, ``address``, ``hours_<day>``, ``close_<day>`` in minutes or -1)."""
    rows: list[dict[str, Any]] = []

    def row(url: str, kind: str, **kw: Any) -> None:
        r = {"_id": url, "kind": kind, "title": title_of(store, url), "headline": "",
             "rank": 0, "dish": "", "counts": {}, "servings": 0, "minutes": 0, "name": "",
             "phone": "", "address": ""}
        for day in DAYS:
            r[f"hours_{day.lower()}"] = ""
            r[f"close_{day.lower()}"] = -1
        r.update(kw)
        rows.append(r)

    for k, st in enumerate(store["stories"]):
        row(f"https://citypost.com/article/{st['slug']}", "story", headline=st["headline"],
            rank=k + 1)
    for rc in store["recipes"]:
        counts = {i["name"]: i["amount"] for i in rc["ingredients"] if i["unit"] == ""}
        row(f"https://forkandspoon.com/recipe/{rc['slug']}", "recipe", dish=rc["dish"],
            counts=counts, servings=rc["servings"], minutes=rc["minutes"])
    for host, key in (("oliveandthyme.com", "restaurant"), ("paperlanternbooks.com",
                                                           "bookshop")):
        b = store[key]
        hours: dict[str, Any] = {}
        for d, day in enumerate(DAYS):
            span = b["hours"][d]
            hours[f"hours_{day.lower()}"] = hours_text(span)
            hours[f"close_{day.lower()}"] = span[1] if span else -1
        row(f"https://{host}", key, name=b["name"], phone=b["phone"], address=b["address"],
            **hours)
    return rows


def clock_text(minute_of_day: int) -> str:
    h, m = divmod(minute_of_day, 60)
    return f"{h % 12 or 12}:{m:02d} {'AM' if h < 12 else 'PM'}"


def hours_text(span: list[int] | None) -> str:
    return "Closed" if span is None else f"{clock_text(span[0])} – {clock_text(span[1])}"


def fixture_bookmark(store: dict[str, Any], url: str) -> int:
    """Setup: bookmark a page of the mock sites; returns the bookmark's id."""
    url = canonical(url)
    if host_of(url) not in SITE_NAMES or title_of(store, url).startswith("Page not found"):
        raise ValueError(f"bookmark: {url!r} is no page of the mock sites")
    if bookmark_of(store, url) is not None:
        raise ValueError(f"bookmark: {url!r} is already bookmarked")
    toggle_bookmark(store, url)
    return int(store["next_bookmark"] - 1)
