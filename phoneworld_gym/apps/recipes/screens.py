"""Recipes screens, like a cooking app (Tasty, NYT Cooking): Discover (search by name,
ingredient or cuisine, with filter chips), a recipe (servings stepper that rescales the
ingredients, the method, save to favourites, share, add to the shopping list), cook mode one
step at a time, the saved recipes and the shopping list (tick off, swipe away, clear ticked).
"""

from __future__ import annotations

from typing import Any

from phoneworld_gym.app import Page
from phoneworld_gym.apps.recipes import store as rs
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import controls
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.scaffold import tab_nav
from phoneworld_gym.ui.sheets import swipe_to_dismiss
from phoneworld_gym.ui.view import Column, Icon, Image, Row, Scroll, Text, View, dp

ORANGE = (232, 112, 28)
#: a tint and glyph per cuisine for the recipe pictures
LOOKS: dict[str, tuple[tuple[int, int, int], str]] = {
    "American": ((255, 224, 178), "burger"), "French": ((255, 236, 179), "bread"),
    "Indian": ((255, 204, 128), "bowl_rice"), "Italian": ((255, 205, 210), "pizza_slice"),
    "Japanese": ((178, 235, 242), "fish"), "Mediterranean": ((220, 237, 200), "lemon"),
    "Mexican": ((255, 224, 130), "pepper_hot"), "Thai": ((200, 230, 201), "bowl_food"),
}


def _look(r: dict[str, Any]) -> tuple[tuple[int, int, int], str]:
    tint, glyph = LOOKS.get(r["cuisine"], ((224, 224, 224), "utensils"))
    return tint, glyph if glyph != "pepper_hot" else "carrot"


def nav(ctx: Ctx, current: str) -> View:
    """The bottom navigation: Discover, Saved, Shopping list."""
    left = sum(1 for it in ctx.store["shopping"] if not it["checked"])
    return tab_nav(ctx, [("search", "Discover", "main"), ("heart", "Saved", "favorites"),
                         ("basket_shopping", "Shopping list", "shopping")], current,
                   badges={"Shopping list": str(left)} if left else None)


def meta_line(ctx: Ctx, r: dict[str, Any], *, reviews: bool = False, rid: str) -> Row:
    """"Italian · 25 min · (star) 4.3" (with the number of ratings on a recipe's page); the
    text reads "Italian · 25 min · 4.3 stars"."""
    th = ctx.theme
    stars, count = rs.rating(ctx.store, r["id"])
    tail = f" ({count:,} ratings)" if reviews else ""
    return Row([Text(f"{r['cuisine']} · {r['minutes']} min ·", size=14,
                     color=th.on_surface_variant, in_dump=False),
                Icon("star", size=13, box=18, color=ORANGE, in_dump=False),
                Text(f"{stars:.1f}{tail}", size=14, color=th.on_surface_variant,
                     in_dump=False)],
               gap=dp(4), rid=rid, text=f"{r['cuisine']} · {r['minutes']} min · {stars:.1f} "
               f"stars{tail}", cls="android.widget.TextView")


def recipe_row(ctx: Ctx, r: dict[str, Any]) -> View:
    """A recipe in a list: its picture, name, cuisine, time and rating, a leaf when it is
    vegetarian; a tap opens it."""
    th = ctx.theme
    tint, glyph = _look(r)
    meta: list[View] = [meta_line(ctx, r, rid="recipe_meta")]
    if r["vegetarian"]:
        meta.append(Row([Icon("leaf", size=12, box=16, color=th.primary, in_dump=False),
                         Text("Vegetarian", size=13, color=th.primary, rid="veg_badge")],
                        gap=dp(4)))
    return Row([Image(tint=tint, glyph=glyph, width=dp(72), height=dp(72), radius=dp(12),
                      in_dump=False),
                Column([Text(r["name"], size=17, weight="medium", color=th.on_surface,
                             max_lines=1, rid="recipe_name"), *meta], gap=dp(4), flex=1)],
               gap=dp(16), padding=(w.MARGIN, dp(8), w.MARGIN, dp(8)),
               on_click=ctx.go("recipe", id=r["id"]), desc=r["name"], rid="recipe_row",
               cls="android.widget.LinearLayout")


# -- Discover --------------------------------------------------------------------------------
def main(ctx: Ctx) -> View | Page:
    """Search field, filter chips (Vegetarian, Under 30 min, one per cuisine) and the
    recipes they keep."""
    th = ctx.theme
    query, on_query = ctx.field("q")
    veg = bool(ctx.state.get("veg"))
    quick = bool(ctx.state.get("quick"))
    cuisine = str(ctx.state.get("cuisine", ""))
    hits = rs.search(query, vegetarian=veg, quick=quick, cuisine=cuisine)
    offset, on_scroll = ctx.scroll()
    chips = [w.chip("Vegetarian", selected=veg, on_click=ctx.setter("veg", not veg),
                    rid="filter_vegetarian", theme=th),
             w.chip(f"Under {rs.QUICK_MINUTES} min", selected=quick,
                    on_click=ctx.setter("quick", not quick), rid="filter_quick", theme=th)]
    chips += [w.chip(c, selected=c == cuisine,
                     on_click=ctx.setter("cuisine", "" if c == cuisine else c),
                     rid="filter_cuisine", theme=th) for c in rs.CUISINES]
    rows: list[View] = [w.wrap_row(chips, 1080 - 2 * w.MARGIN)]
    rows[0].padding = (w.MARGIN, dp(4), w.MARGIN, dp(8))
    count = f"{len(hits)} recipe{'s' if len(hits) != 1 else ''}"
    rows.append(Text(count, size=14, weight="medium", color=th.on_surface_variant,
                     padding=(w.MARGIN, dp(4), 0, dp(4)), rid="results_count"))
    if hits:
        rows += [recipe_row(ctx, r) for r in hits]
    else:
        rows.append(Column([
            Icon("bowl_food", size=48, box=88, color=th.primary_container, in_dump=False),
            Text("No recipes found", size=18, align="center", color=th.on_surface,
                 rid="empty_title"),
            Text("Try another ingredient or clear the filters", size=14, align="center",
                 color=th.on_surface_variant)], gap=dp(8), padding=(0, dp(40), 0, dp(24))))
    field = w.text_field("q", query, on_text=on_query, hint="Search recipes, ingredients, "
                         "cuisines", rid="search_src_text", outlined=False, flex=1)
    search_bar = Row([Icon("search", size=20, box=40, color=th.on_surface_variant,
                           in_dump=False), field], gap=dp(4))
    body = Column([
        Row([Icon("kitchen_set", size=24, box=40, color=ORANGE, in_dump=False),
             Text("Recipes", size=22, weight="medium", color=th.on_surface, flex=1,
                  rid="title")], gap=dp(8), height=dp(64), padding=(w.MARGIN, 0, w.MARGIN, 0),
            rid="toolbar"),
        Column([search_bar], padding=(w.MARGIN, 0, w.MARGIN, dp(8))),
        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="recipe_list", flex=1),
        nav(ctx, "main"),
    ], bg=th.surface)
    return Page(body)


# -- a recipe --------------------------------------------------------------------------------
def servings_of(ctx: Ctx, r: dict[str, Any]) -> int:
    return int(ctx.state.get("servings", r["servings"]))


def share_text(r: dict[str, Any], servings: int) -> str:
    """What "Share" sends: the name, the servings and one line per ingredient."""
    lines = [f"{r['name']} ({servings} servings)"]
    lines += [f"- {rs.fmt_ingredient(rs.scaled(i['qty'], r['servings'], servings), i['unit'], i['item'])}"  # noqa: E501
              for i in r["ingredients"]]
    return "\n".join(lines)


def recipe(ctx: Ctx) -> View | Page:
    """A recipe: picture, name and facts, the servings stepper and the ingredients for that
    many servings, "Add to shopping list", the method and "Start cooking"."""
    th = ctx.theme
    try:
        r = rs.recipe(int(ctx.args.get("id", 0)))
    except KeyError:
        return Page(Column([w.app_bar("Recipe", on_back=ctx.pop, theme=th),
                            w.text("This recipe is not available.",
                                   padding=(w.MARGIN,) * 4)], bg=th.surface))
    n = servings_of(ctx, r)
    fav = rs.is_favorite(ctx.store, r["id"])

    def toggle_fav() -> None:
        now = rs.toggle_favorite(ctx.store, r["id"])
        ctx.toast("Saved to favourites" if now else "Removed from favourites")

    def add() -> None:
        rs.add_to_list(ctx.store, r, n)
        ctx.toast(f"{len(r['ingredients'])} ingredients added to your shopping list")

    tint, glyph = _look(r)
    facts: list[View] = [meta_line(ctx, r, reviews=True, rid="recipe_facts")]
    if r["vegetarian"]:
        facts.append(Text("Vegetarian", size=13, weight="medium", color=th.on_primary_container,
                          bg=th.primary_container, radius=dp(8),
                          padding=(dp(8), dp(3), dp(8), dp(3)), rid="veg_badge"))
    stepper = Row([
        Column([Text("Servings", size=16, weight="medium", color=th.on_surface),
                Text(f"Recipe makes {r['servings']}", size=13, color=th.on_surface_variant)],
               flex=1),
        Icon("minus", size=18, box=40, radius=dp(20), border=th.outline, border_width=3,
             desc="Decrease servings", rid="servings_minus", cls="android.widget.ImageButton",
             color=th.on_surface, enabled=n > rs.MIN_SERVINGS,
             on_click=ctx.setter("servings", n - 1) if n > rs.MIN_SERVINGS else None),
        Text(str(n), size=20, weight="medium", align="center", width=dp(44),
             color=th.on_surface, rid="servings_count", desc=f"{n} servings"),
        Icon("plus", size=18, box=40, radius=dp(20), border=th.outline, border_width=3,
             desc="Increase servings", rid="servings_plus", cls="android.widget.ImageButton",
             color=th.on_surface, enabled=n < rs.MAX_SERVINGS,
             on_click=ctx.setter("servings", n + 1) if n < rs.MAX_SERVINGS else None),
    ], gap=dp(8), padding=(dp(16), dp(12), dp(12), dp(12)), radius=dp(16),
        bg=th.surface_container, rid="servings_stepper")
    ingredients: list[View] = [
        Row([View(width=dp(6), height=dp(6), radius=dp(3), bg=ORANGE, in_dump=False),
             Text(rs.fmt_ingredient(rs.scaled(i["qty"], r["servings"], n), i["unit"],
                                    i["item"]), size=16, color=th.on_surface, flex=1,
                  rid="ingredient")], gap=dp(12), padding=(dp(4), dp(6), 0, dp(6)))
        for i in r["ingredients"]]
    steps: list[View] = [
        Row([Text(str(k + 1), size=14, weight="bold", color=th.on_primary, bg=th.primary,
                  align="center", width=dp(28), height=dp(28), radius=dp(14),
                  line_height=1.5, in_dump=False),
             Text(s, size=15, color=th.on_surface, flex=1, rid="step_text")],
            gap=dp(12), padding=(0, dp(6), 0, dp(6)))
        for k, s in enumerate(r["steps"])]
    content: list[View] = [
        Image(tint=tint, glyph=glyph, height=dp(180), radius=dp(16), in_dump=False),
        Text(r["name"], size=26, color=th.on_surface, rid="recipe_name"),
        Row(facts, gap=dp(12)),
        stepper,
        Text("Ingredients", size=18, weight="medium", color=th.on_surface,
             padding=(0, dp(8), 0, 0)),
        *ingredients,
        w.button("Add to shopping list", add, style="tonal", rid="add_to_list", theme=th),
        Text("Method", size=18, weight="medium", color=th.on_surface, padding=(0, dp(8), 0, 0)),
        *steps,
        w.button("Start cooking", ctx.go("steps", id=r["id"]), rid="start_cooking", theme=th),
        w.spacer(dp(16)),
    ]
    offset, on_scroll = ctx.scroll()
    bar = w.app_bar("", on_back=ctx.pop, theme=th, actions=[
        w.icon_button("share", "Share ingredients", ctx.share(text=share_text(r, n),
                                                               subject=r["name"]),
                      rid="share", theme=th),
        w.icon_button("heart", "Remove from favourites" if fav else "Save to favourites",
                      toggle_fav, rid="favorite", theme=th, selected=fav,
                      color=(211, 47, 47) if fav else None),
    ])
    body = Column([bar, Scroll(content, gap=dp(8), offset=offset, on_scroll=on_scroll,
                               padding=(w.MARGIN, 0, w.MARGIN, 0), rid="recipe_detail",
                               flex=1)], bg=th.surface)
    return Page(body)


# -- cook mode -------------------------------------------------------------------------------
def steps(ctx: Ctx) -> View | Page:
    """Cook mode: one step at a time, large, with Previous and Next (Done on the last)."""
    th = ctx.theme
    r = rs.recipe(int(ctx.args["id"]))
    k = min(int(ctx.state.get("step", 0)), len(r["steps"]) - 1)
    last = k == len(r["steps"]) - 1
    bar = Row([View(flex=1, height=dp(6), radius=dp(3), in_dump=False,
                    bg=th.primary if j <= k else th.surface_high)
               for j in range(len(r["steps"]))], gap=dp(6))
    body = Column([
        w.app_bar(r["name"], on_back=ctx.pop, theme=th, subtitle="Cook mode"),
        Column([bar,
                Text(f"Step {k + 1} of {len(r['steps'])}", size=16, weight="medium",
                     color=th.primary, rid="step_counter"),
                Text(r["steps"][k], size=26, color=th.on_surface, rid="step_body")],
               gap=dp(24), padding=(dp(24), dp(16), dp(24), 0), flex=1),
        Row([w.button("Previous", ctx.setter("step", k - 1), style="outlined", rid="previous",
                      theme=th, enabled=k > 0, flex=1, height=dp(48)),
             w.button("Done" if last else "Next", ctx.pop if last else ctx.setter("step", k + 1),
                      rid="done" if last else "next", theme=th, flex=1, height=dp(48))],
            gap=dp(16), padding=(dp(24), dp(16), dp(24), dp(24))),
    ], bg=th.surface)
    return Page(body)


# -- saved -----------------------------------------------------------------------------------
def favorites(ctx: Ctx) -> View | Page:
    """The saved recipes, most recently saved first (an empty state when there are none)."""
    th = ctx.theme
    offset, on_scroll = ctx.scroll()
    saved = [rs.recipe(i) for i in reversed(ctx.store["favorites"])]
    rows: list[View]
    if saved:
        rows = [Text(f"{len(saved)} saved recipe{'s' if len(saved) != 1 else ''}", size=14,
                     color=th.on_surface_variant, padding=(w.MARGIN, dp(8), 0, dp(4)),
                     rid="saved_count")]
        rows += [recipe_row(ctx, r) for r in saved]
    else:
        rows = [Column([
            Icon("heart", size=48, box=88, color=th.primary_container, in_dump=False),
            Text("No saved recipes yet", size=18, align="center", color=th.on_surface,
                 rid="empty_title"),
            Text("Tap the heart on a recipe to keep it here", size=14, align="center",
                 color=th.on_surface_variant)], gap=dp(8), padding=(0, dp(64), 0, 0))]
    body = Column([w.app_bar("Saved", theme=th),
                   Scroll(rows, offset=offset, on_scroll=on_scroll, rid="saved_list", flex=1),
                   nav(ctx, "favorites")], bg=th.surface)
    return Page(body)


# -- shopping list ---------------------------------------------------------------------------
def shopping(ctx: Ctx) -> View | Page:
    """The shopping list by recipe: tick items off, swipe one away, clear the ticked ones."""
    th = ctx.theme
    items = ctx.store["shopping"]
    offset, on_scroll = ctx.scroll()
    ticked = sum(1 for it in items if it["checked"])

    def clear() -> None:
        n = rs.clear_checked(ctx.store)
        ctx.toast(f"{n} item{'s' if n != 1 else ''} removed")

    def item_row(it: dict[str, Any]) -> View:
        def toggle() -> None:
            it["checked"] = not it["checked"]

        def dismiss() -> None:
            rs.remove_item(ctx.store, it["id"])
            ctx.toast(f"Removed {it['item']}")

        label = rs.fmt_ingredient(it["qty"], it["unit"], it["item"])
        row = controls.checkbox(label, it["checked"], toggle, rid="shopping_item", theme=th)
        row.padding = (dp(8), 0, w.MARGIN, 0)
        return swipe_to_dismiss(row, dismiss)

    rows: list[View] = []
    if items:
        rows.append(Text(f"{len(items)} items · {ticked} ticked", size=14,
                         color=th.on_surface_variant, padding=(w.MARGIN, dp(8), 0, dp(4)),
                         rid="list_summary"))
        order: list[int] = []
        for it in items:
            if it["recipe_id"] not in order:
                order.append(it["recipe_id"])
        for rid in order:
            rows.append(Text(rs.recipe(rid)["name"], size=15, weight="medium",
                             color=th.primary, padding=(w.MARGIN, dp(12), 0, dp(2)),
                             rid="list_recipe"))
            rows += [item_row(it) for it in items if it["recipe_id"] == rid]
    else:
        rows = [Column([
            Icon("basket_shopping", size=48, box=88, color=th.primary_container,
                 in_dump=False),
            Text("Your shopping list is empty", size=18, align="center", color=th.on_surface,
                 rid="empty_title"),
            Text("Add a recipe's ingredients from its page", size=14, align="center",
                 color=th.on_surface_variant)], gap=dp(8), padding=(0, dp(64), 0, 0))]
    actions: list[View] = []
    if ticked:
        actions.append(w.button("Clear ticked", clear, style="text", rid="clear_checked",
                                theme=th))
    body = Column([w.app_bar("Shopping list", theme=th, actions=actions),
                   Scroll(rows, offset=offset, on_scroll=on_scroll, rid="shopping_list",
                          flex=1),
                   nav(ctx, "shopping")], bg=th.surface)
    return Page(body)
