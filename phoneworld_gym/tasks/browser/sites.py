"""Browser tasks: reading the mock sites (a headline, opening hours, a recipe's quantities),
bookmarking and unbookmarking pages, filling in forms, and a reservation the restaurant's site
does not take."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import Expected, NumberMatch, StringMatch, TimeMatch
from phoneworld_gym.oracle import elements, scroll_to, tap, text_of, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.browser.common import (
    BUSINESSES,
    DAYS,
    bookmark_here,
    closing_text,
    of_kind,
    open_recipe,
    open_story,
    open_url,
    pages,
    to_tab,
)
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.validators import added, removed, same_text


@register_task
class BrowserTopHeadline(Task):
    """The headline of The City Post's top story (the first on its front page). Naming any
    other story's headline fails."""

    id = "BrowserTopHeadline"
    apps = ("browser",)
    category = "information-retrieval"
    difficulty = "easy"
    tags = ("read",)
    optimal_steps = 3
    answer_matcher = StringMatch()
    template = "What is the headline of the top story on The City Post's website?"
    paraphrases = {
        "train": ("Open citypost.com and tell me the top story's headline.",
                  "What's the lead headline on The City Post right now?"),
        "test": ("Go to The City Post news site. Which story is at the top of the front page? "
                 "Give me its headline.",),
    }

    def expected_answer(self, device: Device) -> Any:
        stories = sorted(of_kind(device.probe, "story"), key=lambda r: r["rank"])
        return Expected(stories[0]["headline"], candidates=[r["headline"] for r in stories])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_url(device, "citypost.com")
        yield Action("answer", text=text_of(device, rid="top_story") or "")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Go to the site from the Home page's search box instead of the address bar."""
        yield from open_url(device, "citypost.com", home=True)
        yield Action("answer", text=text_of(device, rid="top_story") or "")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Answers with the second story's headline."""
        stories = sorted(of_kind(device.probe, "story"), key=lambda r: r["rank"])
        yield Action("answer", text=stories[1]["headline"])


@register_task
class BrowserClosingTime(Task):
    """When the restaurant or the bookshop closes on a day, read on its own website.

    Fewer goals: two businesses have websites, and each is open on at most seven days."""

    id = "BrowserClosingTime"
    apps = ("browser",)
    category = "information-retrieval"
    difficulty = "medium"
    tags = ("read", "hours")
    optimal_steps = 3
    answer_matcher = TimeMatch()
    params_schema = {"place": str, "day": str}
    template = "According to its website, what time does {place} close on {day}?"
    paraphrases = {
        "train": ("Check {place}'s website: when do they close on {day}?",
                  "Look up {place}'s opening hours online. What's their closing time on {day}?"),
        "test": ("I want to go to {place} late on {day}. Until what time are they open, going "
                 "by their site?",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        row = choice(rng, [r for r in pages(probe) if r["kind"] in ("restaurant", "bookshop")])
        open_days = [d for d in DAYS if row[f"close_{d.lower()}"] >= 0]
        return {"place": row["name"], "day": open_days[int(rng.integers(len(open_days)))]}

    def _row(self, device: Device) -> dict[str, Any]:
        return next(r for r in pages(device.probe) if r["name"] == self.params["place"])

    def expected_answer(self, device: Device) -> Any:
        minutes = int(self._row(device)[f"close_{self.params['day'].lower()}"])
        return dt.time(minutes // 60 % 24, minutes % 60)

    def _read(self, device: Device, home: bool = False) -> Iterator[Action]:
        rid = f"hours_{self.params['day'].lower()}"
        yield from open_url(device, BUSINESSES[self.params["place"]], home)
        yield from scroll_to(device, rid=rid)
        yield Action("answer", text=closing_text(text_of(device, rid=rid) or ""))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._read(device)

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Go to the site from the Home page's search box instead of the address bar."""
        yield from self._read(device, home=True)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Answers with the opening time."""
        text = self._row(device)[f"hours_{self.params['day'].lower()}"]
        yield Action("answer", text=text.split("–")[0].strip())


@register_task
class BrowserRecipeCount(Task):
    """How many of a counted ingredient (eggs, bananas, lemons, ...) a recipe on Fork & Spoon
    calls for: the number printed in its ingredient list, which depends on its servings.
    The count is drawn first (among those the recipes print), then an ingredient with it:
    most counts are 1, so "1" won blind when the ingredient was drawn directly.

    Fewer goals: the site has eight recipes with one to three counted ingredients each."""

    id = "BrowserRecipeCount"
    apps = ("browser",)
    category = "information-retrieval"
    difficulty = "medium"
    tags = ("read", "search")
    optimal_steps = 4
    answer_matcher = NumberMatch()
    params_schema = {"dish": str, "ingredient": str}
    template = "How many {ingredient} does the {dish} recipe on Fork & Spoon call for?"
    paraphrases = {
        "train": ("On forkandspoon.com, how many {ingredient} go into the {dish}?",
                  "Open the Fork & Spoon recipe for {dish}. How many {ingredient} do I need?"),
        "test": ("I'm shopping for Fork & Spoon's {dish}. What number of {ingredient} should "
                 "I buy?",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        pairs = [(r["dish"], name, int(n)) for r in of_kind(probe, "recipe")
                 for name, n in sorted(r["counts"].items())]
        count = choice(rng, sorted({n for *_, n in pairs}))
        dish, name, _ = choice(rng, [p for p in pairs if p[2] == count])
        return {"dish": dish, "ingredient": name}

    def expected_answer(self, device: Device) -> Any:
        row = next(r for r in of_kind(device.probe, "recipe") if r["dish"] == self.params["dish"])
        return row["counts"][self.params["ingredient"]]

    def _read(self, device: Device, home: bool = False) -> Iterator[Action]:
        yield from open_recipe(device, self.params["dish"], home)
        line = f" {self.params['ingredient']}"
        yield from scroll_to(device, text=line, rid="ingredient", contains=True)
        text = next(e.text for e in elements(device) if (e.resource_id or "")
                    .endswith("/ingredient") and (e.text or "").endswith(line))
        yield Action("answer", text=(text or "").lstrip("• "))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._read(device)

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Go to the site from the Home page's search box instead of the address bar."""
        yield from self._read(device, home=True)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Answers with the number of servings (the other number on the page) or, when that
        is the same, one more."""
        row = next(r for r in of_kind(device.probe, "recipe") if r["dish"] == self.params["dish"])
        want = row["counts"][self.params["ingredient"]]
        yield Action("answer", text=str(row["servings"] if row["servings"] != want
                                        else want + 1))


@register_task
class BrowserBookmarkPage(Task):
    """Bookmark a recipe or a news story: one ``browser/bookmarks`` row is added for its
    address."""

    id = "BrowserBookmarkPage"
    apps = ("browser",)
    difficulty = "easy"
    tags = ("bookmark",)
    optimal_steps = 6
    may_change = ("browser/bookmarks",)
    params_schema = {"page": str, "url": str, "title": str}
    template = "Bookmark {page} in Chrome."
    paraphrases = {
        "train": ("Add a bookmark in Chrome for {page}.", "Save {page} to my Chrome bookmarks."),
        "test": ("I'll want to come back to {page} later. Bookmark it in the browser.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        marked = {b["url"] for b in probe.query("browser/bookmarks")}
        rows = [r for r in pages(probe) if r["kind"] in ("story", "recipe")
                and r["_id"] not in marked]
        row = choice(rng, rows)
        page = (f"the Fork & Spoon recipe for {row['dish'].lower()}" if row["kind"] == "recipe"
                else f"The City Post story \u201c{row['headline']}\u201d")
        return {"page": page, "url": row["_id"], "title": row["dish"] or row["headline"]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("browser/bookmarks", {"url": self.params["url"]}))

    def _open(self, device: Device, title: str, home: bool = False) -> Iterator[Action]:
        if "forkandspoon.com" in self.params["url"]:
            yield from open_recipe(device, title, home)
        else:
            yield from open_story(device, title, home)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._open(device, self.params["title"])
        yield from bookmark_here(device)
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Go to the site from the Home page's search box instead of the address bar."""
        yield from self._open(device, self.params["title"], home=True)
        yield from bookmark_here(device)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Bookmarks the site's front page instead of the page."""
        home = "forkandspoon.com" if "forkandspoon.com" in self.params["url"] else \
            "citypost.com"
        marked = {b["url"] for b in self.before("browser/bookmarks")}
        yield from open_url(device, home)
        if f"https://{home}" not in marked:
            yield from bookmark_here(device)
        yield Action("status", goal_status="complete")


@register_task
class BrowserDeleteBookmark(Task):
    """Delete a bookmark (setup bookmarks a story or recipe first): its row is removed."""

    id = "BrowserDeleteBookmark"
    apps = ("browser",)
    difficulty = "easy"
    tags = ("bookmark", "delete")
    optimal_steps = 5
    may_change = ("browser/bookmarks",)
    params_schema = {"url": str, "title": str}
    template = "Delete my Chrome bookmark \u201c{title}\u201d."
    paraphrases = {
        "train": ("Remove the bookmark \u201c{title}\u201d from Chrome.",
                  "In Chrome's bookmarks, get rid of \u201c{title}\u201d."),
        "test": ("I don't need the \u201c{title}\u201d bookmark anymore. Please delete it.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        marked = {b["url"] for b in probe.query("browser/bookmarks")}
        row = choice(rng, [r for r in pages(probe) if r["kind"] in ("story", "recipe")
                           and r["_id"] not in marked])
        return {"url": row["_id"], "title": row["title"]}

    def setup(self, device: Device) -> None:
        device.fixture("browser", "bookmark", url=self.params["url"])

    def _delete(self, device: Device, title: str) -> Iterator[Action]:
        yield from to_tab(device)
        yield tap(device, desc="More options")
        yield tap(device, text="Bookmarks")
        yield from scroll_to(device, desc=f"Delete bookmark {title}")
        yield tap(device, desc=f"Delete bookmark {title}")

    def evaluate(self, device: Device, report: AgentReport) -> float:
        bid = next(b["_id"] for b in self.before("browser/bookmarks")
                   if b["url"] == self.params["url"])
        return self.expect(removed("browser/bookmarks", bid))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._delete(device, self.params["title"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Deletes another bookmark."""
        other = next(b["title"] for b in self.before("browser/bookmarks")
                     if b["url"] != self.params["url"])
        yield from self._delete(device, other)
        yield Action("status", goal_status="complete")


@register_task
class BrowserNewsletterSignup(Task):
    """Sign someone up for The City Post's newsletter: one ``browser/forms`` row with their
    name, email and the frequency asked for."""

    id = "BrowserNewsletterSignup"
    apps = ("browser",)
    difficulty = "medium"
    split = "test"
    tags = ("form",)
    optimal_steps = 8
    may_change = ("browser/forms",)
    params_schema = {"name": str, "email": str, "frequency": str}
    template = ("Sign up for The City Post's {frequency} newsletter with the name {name} and "
                "the email {email}.")
    paraphrases = {
        "train": ("Subscribe {email} to the {frequency} City Post newsletter, under the name "
                  "{name}.",
                  "On citypost.com, sign {name} ({email}) up for the {frequency} newsletter."),
        "test": ("I want The City Post's newsletter {frequency}. Use {name} as the name and "
                 "{email} as the address when you sign up.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        rows = [r for r in probe.contacts() if r["display_name"] and r["email"]]
        row = rows[int(rng.integers(len(rows)))]
        return {"name": row["display_name"], "email": row["email"],
                "frequency": "weekly" if rng.random() < 0.5 else "daily"}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("browser/forms", {
            "form": "newsletter", "site": "citypost.com", "name": same_text(self.params["name"]),
            "email": same_text(self.params["email"]),
            "frequency": self.params["frequency"].capitalize()}))

    def _fill(self, device: Device, frequency: str, home: bool = False) -> Iterator[Action]:
        yield from open_url(device, "citypost.com", home)
        yield tap(device, text="Newsletter", rid="site_nav")
        yield type_into(device, self.params["name"], rid="field_name")
        yield type_into(device, self.params["email"], rid="field_email")
        yield tap(device, text=frequency.capitalize(), rid="frequency_option")
        yield tap(device, rid="submit")
        yield Action("status", goal_status="complete")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._fill(device, self.params["frequency"])

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Go to the site from the Home page's search box instead of the address bar."""
        yield from self._fill(device, self.params["frequency"], home=True)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Signs up with the other frequency."""
        yield from self._fill(device, "daily" if self.params["frequency"] == "weekly"
                              else "weekly")


_QUESTIONS = (
    "Do you have vegetarian options on the menu?", "Can I bring my dog to the patio?",
    "Are you open on public holidays?", "Do you host private parties for 20 people?",
    "Is there parking near the restaurant?", "Do you have gluten-free pasta?",
    "Can I buy a gift card at the restaurant?", "Do you have a children's menu?",
)


@register_task
class BrowserContactRestaurant(Task):
    """Send Olive & Thyme a question through the contact form on its website: one
    ``browser/forms`` row with the name, email and message."""

    id = "BrowserContactRestaurant"
    apps = ("browser",)
    difficulty = "hard"
    split = "test"
    tags = ("form", "search")
    optimal_steps = 8
    may_change = ("browser/forms",)
    params_schema = {"name": str, "email": str, "message": str}
    template = ("Use the contact form on Olive & Thyme's website to ask \u201c{message}\u201d "
                "Give the name {name} and the email {email}.")
    paraphrases = {
        "test": ("Message Olive & Thyme through their website's contact page: "
                 "\u201c{message}\u201d Sign it {name}, {email}.",
                 "Find the contact form on the Olive & Thyme site and send \u201c{message}\u201d "
                 "from {name} at {email}."),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        rows = [r for r in probe.contacts() if r["display_name"] and r["email"]]
        row = rows[int(rng.integers(len(rows)))]
        return {"name": row["display_name"], "email": row["email"],
                "message": _QUESTIONS[int(rng.integers(len(_QUESTIONS)))]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("browser/forms", {
            "form": "contact", "site": "oliveandthyme.com",
            "name": same_text(self.params["name"]), "email": same_text(self.params["email"]),
            "message": same_text(self.params["message"])}))

    def _fill(self, device: Device, email: str) -> Iterator[Action]:
        yield from open_url(device, "oliveandthyme.com")
        yield tap(device, text="Contact", rid="site_nav")
        yield type_into(device, self.params["name"], rid="field_name")
        yield type_into(device, email, rid="field_email")
        yield type_into(device, self.params["message"], rid="field_message")
        yield tap(device, rid="submit")
        yield Action("status", goal_status="complete")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._fill(device, self.params["email"])

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Types the email with a wrong domain."""
        user = self.params["email"].split("@")[0]
        yield from self._fill(device, f"{user}@example.com")


@register_task
class BrowserReserveTable(Task):
    """Infeasible by design: Olive & Thyme's site says it takes walk-ins only, with no
    reservation form. The right end is ``status: infeasible`` with nothing changed."""

    id = "BrowserReserveTable"
    apps = ("browser",)
    difficulty = "medium"
    feasible = False
    tags = ("form",)
    optimal_steps = 3
    params_schema = {"people": int, "day": str, "place": str}
    template = "Reserve a table for {people} at {place} for {day} evening on their website."
    paraphrases = {
        "train": ("Book {place} for {people} people on {day} night through their site.",
                  "Go to {place}'s website and make a dinner reservation for {people} on "
                  "{day}."),
        "test": ("We're {people} for dinner on {day}. Get us a table at {place} online.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        restaurant = next(r for r in pages(probe) if r["kind"] == "restaurant")
        return {"people": int(rng.integers(2, 9)), "day": DAYS[int(rng.integers(7))],
                "place": restaurant["name"]}

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_url(device, "oliveandthyme.com")  # "Walk-ins only", no booking
        yield Action("status", goal_status="infeasible")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Sends the request through the contact form and calls it booked: still no table,
        and a form was sent."""
        yield from open_url(device, "oliveandthyme.com")
        yield tap(device, text="Contact", rid="site_nav")
        yield type_into(device, "guest@example.com", rid="field_email")
        yield type_into(device, f"Table for {self.params['people']} on {self.params['day']}",
                        rid="field_message")
        yield tap(device, rid="submit")
        yield Action("status", goal_status="complete")
