"""The mock sites, rendered as native views (the way Chrome's WebView exposes a page to
uiautomator: ``android.webkit.WebView`` holding TextViews, links as clickable views with their
text, fields as EditTexts). :func:`render` maps a URL to the page's views; links navigate the
current tab, phone numbers and addresses fire ``tel:`` and ``geo:`` intents."""

from __future__ import annotations

import dataclasses
import urllib.parse
from collections.abc import Callable
from typing import Any

from phoneworld_gym.apps.browser import store as bs
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.system import intents
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.controls import radio_group
from phoneworld_gym.ui.view import Column, Divider, Handler, Icon, Image, Row, Text, View, dp


@dataclasses.dataclass(frozen=True)
class Nav:
    """What a page's links do: ``nav.go(url)`` opens it (a tap), ``hold(url)`` shows the link's
    long-press menu (None where pages have no such menu)."""

    go: Callable[[str], Handler]
    hold: Callable[[str], Handler] | None = None

PAD = (w.MARGIN, 0, w.MARGIN, 0)
LINK = (26, 13, 171)
INK = (32, 33, 36)
DIM = (95, 99, 104)


def h1(text: str, rid: str = "page_title", size: float = 26) -> Text:
    return Text(text, size=size, weight="medium", color=INK, rid=rid, padding=PAD)


def p(text: str, rid: str = "", color: tuple[int, int, int] = INK, size: float = 16) -> Text:
    return Text(text, size=size, color=color, rid=rid, padding=PAD)


def link(text: str, on_click: Handler, rid: str = "link", size: float = 16,
         on_long_click: Handler | None = None) -> Text:
    """A hyperlink: blue text, clickable (and long-clickable for its menu), its text its
    label."""
    return Text(text, size=size, color=LINK, rid=rid, on_click=on_click,
                on_long_click=on_long_click,
                padding=(w.MARGIN, dp(10), w.MARGIN, dp(10)), cls="android.widget.TextView")


def _hold(nav: Nav, url: str) -> Handler | None:
    return nav.hold(url) if nav.hold is not None else None


def anchor(text: str, url: str, nav: Nav, rid: str = "link") -> Text:
    """A link to ``url`` in a page: a tap opens it, a long press shows its menu."""
    return link(text, nav.go(url), rid=rid, on_long_click=_hold(nav, url))


def site_header(name: str, tint: tuple[int, int, int], nav: Nav, home: str,
                links: tuple[tuple[str, str], ...] = ()) -> Column:
    items: list[View] = [Text(label, size=14, color=(255, 255, 255), on_click=nav.go(url),
                            rid="site_nav", padding=(dp(10), dp(12), dp(10), dp(12)),
                            cls="android.widget.TextView")
                       for label, url in links]
    return Column([Row([Text(name, size=22, weight="bold", color=(255, 255, 255),
                             on_click=nav.go(home), rid="site_name",
                             padding=(0, dp(8), 0, dp(8)), cls="android.widget.TextView")],
                       padding=(w.MARGIN, 0, w.MARGIN, 0)),
                   Row(items, padding=(dp(6), 0, dp(6), 0))] if items else
                  [Row([Text(name, size=22, weight="bold", color=(255, 255, 255),
                             on_click=nav.go(home), rid="site_name",
                             padding=(0, dp(8), 0, dp(8)), cls="android.widget.TextView")],
                       padding=(w.MARGIN, 0, w.MARGIN, 0))],
                  bg=tint, padding=(0, dp(8), 0, dp(4)))


def render(ctx: Ctx, url: str, nav: Nav) -> list[View]:
    """The views of the page at ``url``."""
    s = ctx.store
    if url == bs.NEWTAB:
        return newtab(ctx, nav)
    parts = urllib.parse.urlsplit(url)
    host, path = parts.netloc, parts.path
    if host not in bs.SITE_NAMES:
        return not_reachable(host)
    if host == bs.SEARCH_HOST:
        q = urllib.parse.parse_qs(parts.query).get("q", [""])[0]
        return results(ctx, q, nav) if path == "/search" else findit_home(ctx, nav)
    if host == "citypost.com":
        return citypost(ctx, path, nav)
    if host == "forkandspoon.com":
        return forkandspoon(ctx, path, nav)
    if host == "oliveandthyme.com":
        return business(ctx, s["restaurant"], host, path, nav)
    return business(ctx, s["bookshop"], host, path, nav)


def not_reachable(host: str) -> list[View]:
    return [w.spacer(dp(48)),
            Icon("file", size=40, box=72, color=DIM),
            h1("This site can\u2019t be reached", rid="error_title", size=22),
            p(f"Check if there is a typo in {host}.", color=DIM),
            p("DNS_PROBE_FINISHED_NXDOMAIN", rid="error_code", color=DIM, size=13)]


def not_found(host: str) -> list[View]:
    return [w.spacer(dp(24)), h1("404 \u2014 Page not found", rid="error_title", size=22),
            p(f"{host} has no page at this address.", color=DIM)]


def newtab(ctx: Ctx, nav: Nav) -> list[View]:
    """Chrome's new tab page: the search engine's logo, a search box, shortcut tiles."""
    q, on_q = ctx.field("ntp_search")

    def submit() -> None:
        if q.strip():
            nav.go(bs.resolve(q))()

    tiles: list[View] = []
    for host in ("citypost.com", "forkandspoon.com", "oliveandthyme.com",
                 "paperlanternbooks.com"):
        name = bs.SITE_NAMES[host]
        tiles.append(Column([
            Row([View(flex=1, in_dump=False),
                 Image(tint=(232, 240, 254), initials=name[0], circle=True, width=dp(48),
                       height=dp(48), in_dump=False),
                 View(flex=1, in_dump=False)], in_dump=False),
            Text(name, size=12, align="center", max_lines=1, color=INK, in_dump=False)],
            gap=dp(6), flex=1, on_click=nav.go(f"https://{host}"), desc=name, text=name,
            cls="android.widget.TextView", rid="shortcut", padding=(0, dp(8), 0, dp(8))))
    return [w.spacer(dp(40)),
            Text("Findit", size=44, weight="bold", align="center", color=(66, 133, 244),
                 rid="logo"),
            w.spacer(dp(16)),
            Row([w.text_field("ntp_search", q, on_text=on_q, on_submit=submit,
                              hint="Search or type URL", rid="search_box", flex=1)],
                padding=PAD),
            w.spacer(dp(16)),
            Row(tiles, padding=(dp(8), 0, dp(8), 0))]


def findit_home(ctx: Ctx, nav: Nav) -> list[View]:
    return newtab(ctx, nav)


def results(ctx: Ctx, q: str, nav: Nav) -> list[View]:
    """A results page: each hit's site, title (a link) and snippet."""
    hits = bs.search(ctx.store, q)
    out: list[View] = [Text("Findit", size=22, weight="bold", color=(66, 133, 244),
                            padding=(w.MARGIN, dp(8), w.MARGIN, dp(4))),
                       p(f"About {len(hits)} result{'s' if len(hits) != 1 else ''}" if hits else
                         f"Your search \u2014 {q} \u2014 did not match any pages.",
                         rid="result_count", color=DIM, size=13)]
    for url, title, snippet in hits:
        out.append(Column([
            Text(bs.display(url), size=12, color=DIM, max_lines=1, in_dump=False),
            Text(title, size=18, color=LINK, max_lines=2, rid="result_title"),
            Text(snippet.capitalize(), size=14, color=DIM, max_lines=2, in_dump=False)],
            gap=dp(2), padding=(w.MARGIN, dp(10), w.MARGIN, dp(10)), on_click=nav.go(url),
            on_long_click=_hold(nav, url),
            rid="search_result", cls="android.view.View"))
        out.append(Divider(inset=w.MARGIN))
    return out


def citypost(ctx: Ctx, path: str, nav: Nav) -> list[View]:
    s = ctx.store
    head = site_header("The City Post", (18, 50, 92), nav, "https://citypost.com",
                       (("News", "https://citypost.com"),
                        ("Newsletter", "https://citypost.com/newsletter")))
    if path == "":
        out: list[View] = [head, p("Today's stories", rid="section", color=DIM, size=14)]
        for k, st in enumerate(s["stories"]):
            out.append(Column([
                Text(st["section"].upper(), size=12, weight="medium", color=(179, 38, 30),
                     in_dump=False),
                Text(st["headline"], size=22 if k == 0 else 18, weight="medium", color=INK,
                     rid="top_story" if k == 0 else "headline"),
                Text(st["summary"], size=14, color=DIM, max_lines=2, in_dump=False),
                Text(f"{st['hours_ago']}h ago", size=12, color=DIM, in_dump=False)],
                gap=dp(4), padding=(w.MARGIN, dp(12), w.MARGIN, dp(12)),
                on_click=nav.go(f"https://citypost.com/article/{st['slug']}"), rid="story",
                on_long_click=_hold(nav, f"https://citypost.com/article/{st['slug']}"),
                cls="android.view.View"))
            out.append(Divider(inset=w.MARGIN))
        return out
    if path.startswith("/article/"):
        st = bs.story(s, path[len("/article/"):])
        if st is None:
            return [head, *not_found("citypost.com")]
        i = s["stories"].index(st)
        nxt = s["stories"][(i + 1) % len(s["stories"])]
        return [head, Text(st["section"].upper(), size=12, weight="medium",
                           color=(179, 38, 30), padding=(w.MARGIN, dp(12), w.MARGIN, 0)),
                h1(st["headline"], rid="headline", size=24),
                p(f"By {st['author']} \u00b7 {st['hours_ago']} hours ago", color=DIM, size=13),
                Image(tint=(214, 226, 240), glyph="image", height=dp(180), in_dump=False),
                p(st["summary"], rid="article_body"),
                p("Residents can share their views at the next public meeting. "
                  "The City Post will follow the story as it develops.", color=INK),
                Divider(inset=w.MARGIN),
                p("Read next", color=DIM, size=13),
                anchor(nxt["headline"], f"https://citypost.com/article/{nxt['slug']}", nav,
                       rid="read_next"),
                anchor("Sign up for our newsletter", "https://citypost.com/newsletter", nav)]
    if path == "/newsletter":
        return [head, *newsletter(ctx)]
    return [head, *not_found("citypost.com")]


def newsletter(ctx: Ctx) -> list[View]:
    """The signup form: name, email, how often; the submission is recorded."""
    name, on_name = ctx.field("nl_name")
    email, on_email = ctx.field("nl_email")
    freq = str(ctx.state.get("nl_freq", "Daily"))
    done = ctx.state.get("nl_done")
    if done:
        return [h1("You're subscribed!", rid="form_done", size=22),
                p(f"We'll send the {freq.lower()} newsletter to {done}.")]

    def submit() -> None:
        e = email.strip()
        if "@" not in e or "." not in e.split("@")[-1]:
            ctx.state["nl_error"] = "Enter a valid email address"
            return
        bs.submit_form(ctx.store, "newsletter", "citypost.com",
                       {"name": name, "email": e, "frequency": freq})
        ctx.state["nl_done"] = e
        ctx.state.pop("nl_error", None)

    out: list[View] = [
        h1("Get The City Post in your inbox", size=22),
        p("Top stories every morning, free.", color=DIM),
        Column([w.text_field("nl_name", name, on_text=on_name, label="Name", rid="field_name"),
                w.text_field("nl_email", email, on_text=on_email, label="Email",
                             rid="field_email"),
                Text("How often?", size=14, color=DIM),
                radio_group(("Daily", "Weekly"), freq,
                            lambda v: ctx.setter("nl_freq", v), rid="frequency")],
               gap=dp(12), padding=(w.MARGIN, dp(8), w.MARGIN, 0)),
    ]
    if ctx.state.get("nl_error"):
        out.append(p(str(ctx.state["nl_error"]), rid="form_error", color=(179, 38, 30),
                     size=14))
    out.append(Row([w.button("Subscribe", submit, rid="submit")],
                   padding=(w.MARGIN, dp(8), w.MARGIN, 0)))
    return out


def forkandspoon(ctx: Ctx, path: str, nav: Nav) -> list[View]:
    s = ctx.store
    head = site_header("Fork & Spoon", (46, 125, 50), nav, "https://forkandspoon.com")
    if path == "":
        out: list[View] = [head, h1("Recipes", size=22)]
        for rc in s["recipes"]:
            out.append(w.list_item(rc["dish"], subtitle=f"{rc['minutes']} min \u00b7 "
                                   f"{rc['rating']:.1f} stars",
                                   leading=Icon("utensils", size=20, box=40,
                                                color=(46, 125, 50), in_dump=False),
                                   on_click=nav.go(f"https://forkandspoon.com/recipe/{rc['slug']}"),
                                   rid="recipe"))
        return out
    if path.startswith("/recipe/"):
        rc = bs.recipe(s, path[len("/recipe/"):])
        if rc is None:
            return [head, *not_found("forkandspoon.com")]
        out = [head, h1(rc["dish"], rid="recipe_title"),
               p(f"Serves {rc['servings']} \u00b7 {rc['minutes']} min \u00b7 "
                 f"{rc['rating']:.1f} stars", rid="recipe_meta", color=DIM, size=14),
               Text("Ingredients", size=18, weight="medium", color=INK,
                    padding=(w.MARGIN, dp(12), w.MARGIN, dp(4)))]
        for i in rc["ingredients"]:
            amount = f"{i['amount']} {i['unit']}".strip()
            out.append(p(f"\u2022 {amount} {i['name']}", rid="ingredient"))
        out.append(Text("Method", size=18, weight="medium", color=INK,
                        padding=(w.MARGIN, dp(12), w.MARGIN, dp(4))))
        for n, step in enumerate(rc["steps"], 1):
            out.append(p(f"{n}. {step}", rid="step"))
        out.append(anchor("More recipes", "https://forkandspoon.com", nav))
        return out
    return [head, *not_found("forkandspoon.com")]


def business(ctx: Ctx, b: dict[str, Any], host: str, path: str, nav: Nav) -> list[View]:
    """A restaurant's or shop's site: about, hours, phone (``tel:``), address (``geo:``),
    then its menu, events or contact form."""
    restaurant = host == "oliveandthyme.com"
    tint = (121, 85, 72) if restaurant else (69, 90, 100)
    links = (("Menu", f"https://{host}/menu"), ("Contact", f"https://{host}/contact")) \
        if restaurant else (("Events", f"https://{host}/events"),)
    head = site_header(b["name"], tint, nav, f"https://{host}", links)
    if path == "":
        blurb = ("Seasonal Mediterranean cooking. Walk-ins only \u2014 we don't take "
                 "reservations." if restaurant else
                 "An independent bookshop with new and used books, and events every week.")
        out: list[View] = [head, h1(b["name"]), p(blurb, rid="about", color=DIM),
                           Text("Opening hours", size=18, weight="medium", color=INK,
                                padding=(w.MARGIN, dp(12), w.MARGIN, dp(4)))]
        for d, day in enumerate(bs.DAYS):
            out.append(Row([Text(day, size=15, width=dp(140), color=INK, in_dump=False),
                            Text(bs.hours_text(b["hours"][d]), size=15, flex=1, color=INK,
                                 in_dump=False)],
                           padding=(w.MARGIN, dp(4), w.MARGIN, dp(4)),
                           text=f"{day}: {bs.hours_text(b['hours'][d])}",
                           cls="android.widget.TextView", rid=f"hours_{day.lower()}"))
        out.append(Divider(inset=w.MARGIN))
        out.append(link(f"Call {b['phone']}", ctx.open_uri(intents.uri_for("tel", b["phone"])),
                        rid="phone_link"))
        out.append(link(b["address"], ctx.open_uri(intents.uri_for("geo", b["address"])),
                        rid="address_link"))
        return out
    if restaurant and path == "/menu":
        out = [head, h1("Menu", size=22)]
        for m in b["menu"]:
            out.append(Row([Text(m["dish"], size=16, flex=1, color=INK, in_dump=False),
                            Text(f"${m['price']}", size=16, color=INK, in_dump=False)],
                           padding=(w.MARGIN, dp(8), w.MARGIN, dp(8)),
                           text=f"{m['dish']} ${m['price']}", cls="android.widget.TextView",
                           rid="menu_item"))
        return out
    if restaurant and path == "/contact":
        return [head, *contact_form(ctx, host)]
    if not restaurant and path == "/events":
        out = [head, h1("Events", size=22)]
        for e in b["events"]:
            out.append(p(f"{e['day']}: {e['title']}", rid="event"))
        return out
    return [head, *not_found(host)]


def contact_form(ctx: Ctx, host: str) -> list[View]:
    name, on_name = ctx.field("cf_name")
    email, on_email = ctx.field("cf_email")
    message, on_message = ctx.field("cf_message")
    if ctx.state.get("cf_done"):
        return [h1("Thanks! We'll get back to you soon.", rid="form_done", size=20)]

    def submit() -> None:
        e = email.strip()
        if "@" not in e or not message.strip():
            ctx.state["cf_error"] = "Enter your email address and a message"
            return
        bs.submit_form(ctx.store, "contact", host,
                       {"name": name, "email": e, "message": message})
        ctx.state["cf_done"] = True
        ctx.state.pop("cf_error", None)

    out: list[View] = [
        h1("Contact us", size=22),
        Column([w.text_field("cf_name", name, on_text=on_name, label="Name",
                             rid="field_name"),
                w.text_field("cf_email", email, on_text=on_email, label="Email",
                             rid="field_email"),
                w.text_field("cf_message", message, on_text=on_message, label="Message",
                             rid="field_message")],
               gap=dp(12), padding=(w.MARGIN, dp(8), w.MARGIN, 0))]
    if ctx.state.get("cf_error"):
        out.append(p(str(ctx.state["cf_error"]), rid="form_error", color=(179, 38, 30),
                     size=14))
    out.append(Row([w.button("Send", submit, rid="submit")],
                   padding=(w.MARGIN, dp(8), w.MARGIN, 0)))
    return out
