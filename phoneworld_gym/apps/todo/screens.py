"""To-do screens, like Google Tasks: the lists as tabs with their open tasks and a collapsible
"Completed (n)" section, a sort sheet, search across every list, a new-list screen and the
task editor (title, notes, list, due date through the date picker, priority, star, done,
delete). A swipe sideways on a task row deletes it."""

from __future__ import annotations

import datetime as dt
from typing import Any

from phoneworld_gym.app import Page
from phoneworld_gym.apps.todo import store as ts
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import controls, pickers
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.sheets import bottom_sheet, swipe_to_dismiss
from phoneworld_gym.ui.view import Column, Handler, Icon, Row, Scroll, Stack, Text, View, dp

SORT_LABELS = {"my order": "My order", "date": "Date", "priority": "Priority"}
RED = (179, 38, 30)


def today(ctx: Ctx) -> dt.date:
    return dt.datetime.fromisoformat(ctx.now).date()


# -- a task row ------------------------------------------------------------------------------
def task_row(ctx: Ctx, t: dict[str, Any], *, show_list: bool = False) -> View:
    """A task: the done circle, the title (struck through when done), notes, due date and
    priority, the star; a tap opens the editor, a sideways swipe deletes it."""
    th = ctx.theme

    def toggle() -> None:
        t["done"] = not t["done"]
        ctx.toast("1 task completed" if t["done"] else "Task marked incomplete")

    def star() -> None:
        t["starred"] = not t["starred"]

    def dismiss() -> None:
        ts.delete(ctx.store, t["id"])
        ctx.toast("Task deleted")

    ring: View = (Icon("check", size=14, box=22, radius=dp(11), color=th.on_primary,
                       bg=th.primary, in_dump=False) if t["done"] else
                  View(width=dp(22), height=dp(22), radius=dp(11), border=th.on_surface_variant,
                       border_width=5, in_dump=False))
    check = Row([ring], width=dp(48), height=dp(48), padding=(dp(13), 0, 0, 0),
                desc=f"Mark {'incomplete' if t['done'] else 'complete'}: {t['title']}",
                on_click=toggle, rid="task_done", cls="android.widget.CheckBox",
                checkable=True, checked=t["done"])
    lines: list[View] = [Text(t["title"], size=16, max_lines=2, rid="task_title",
                              color=th.on_surface_variant if t["done"] else th.on_surface,
                              strike=t["done"])]
    if t["notes"] and not t["done"]:
        lines.append(Text(t["notes"], size=14, color=th.on_surface_variant, max_lines=1,
                          rid="task_notes"))
    meta: list[View] = []
    if t["due"] and not t["done"]:
        late = dt.date.fromisoformat(t["due"]) < today(ctx)
        meta.append(Text(ts.due_label(t["due"], today(ctx)), size=13, weight="medium",
                         color=RED if late else th.primary, radius=dp(8),
                         border=th.outline_variant, border_width=3,
                         padding=(dp(8), dp(3), dp(8), dp(3)), rid="task_due"))
    if t["priority"] and not t["done"]:
        meta.append(Row([Icon("flag", size=13, box=18, color=_flag(t["priority"]),
                              in_dump=False),
                         Text(ts.PRIORITIES[t["priority"]], size=13,
                              color=th.on_surface_variant, rid="task_priority")], gap=dp(2)))
    if show_list:
        lst = ts.find_list(ctx.store, t["list_id"])
        meta.append(Text(lst["name"] if lst else "", size=13, color=th.on_surface_variant,
                         rid="task_list"))
    if meta:
        lines.append(Row(meta, gap=dp(8), padding=(0, dp(4), 0, 0)))
    star_btn = w.icon_button("star", "Remove star" if t["starred"] else "Add star", star,
                             rid="task_star", theme=th, selected=t["starred"],
                             color=th.primary if t["starred"] else th.outline_variant)
    row = Row([check, Column(lines, flex=1, gap=dp(2)), star_btn], gap=dp(4),
              padding=(dp(4), dp(8), dp(4), dp(8)), on_click=ctx.go("edit", id=t["id"]),
              desc=t["title"], rid="task_row", cls="android.widget.LinearLayout")
    return swipe_to_dismiss(row, dismiss)


def _flag(priority: int) -> tuple[int, int, int]:
    return ((120, 120, 120), (36, 111, 224), (235, 137, 9), (209, 69, 59))[priority]


# -- main ------------------------------------------------------------------------------------
def current_list(ctx: Ctx) -> dict[str, Any]:
    lid = ctx.state.get("list", ctx.args.get("list", 0))
    lst = ts.find_list(ctx.store, lid)
    return lst if lst is not None else ctx.store["lists"][0]


def main(ctx: Ctx) -> View | Page:
    """The list tabs, the open tasks of the chosen list, "Completed (n)" (a tap folds or
    unfolds it), the sort and search actions and the new-task button."""
    th = ctx.theme
    if not ctx.store["lists"]:
        return Page(Column([w.app_bar("Tasks", theme=th),
                            w.text("No lists", padding=(w.MARGIN,) * 4, theme=th)],
                           bg=th.surface))
    lst = current_list(ctx)
    offset, on_scroll = ctx.scroll(f"list{lst['id']}")
    open_tasks = ts.in_list(ctx.store, lst["id"])
    done = ts.completed(ctx.store, lst["id"])
    rows: list[View] = [Row([Text(lst["name"], size=22, color=th.on_surface, flex=1,
                                  rid="list_title"),
                             Text(f"Sorted by {SORT_LABELS[lst['sort']].lower()}", size=13,
                                  color=th.on_surface_variant, rid="sort_label")],
                            padding=(w.MARGIN, dp(12), w.MARGIN, dp(8)))]
    if open_tasks:
        rows += [task_row(ctx, t) for t in open_tasks]
    else:
        rows.append(Column([
            Icon("square_check", size=56, box=96, color=th.primary_container, in_dump=False),
            Text("All tasks complete" if done else "No tasks yet", size=18, align="center",
                 color=th.on_surface, rid="empty_title"),
            Text("Add a task with the + button", size=14, align="center",
                 color=th.on_surface_variant),
        ], gap=dp(8), padding=(0, dp(48), 0, dp(24))))
    if done:
        expanded = bool(ctx.state.get("show_done"))
        rows.append(Row([Text(f"Completed ({len(done)})", size=16, weight="medium",
                              color=th.on_surface, flex=1, in_dump=False),
                         Icon("chevron_down" if not expanded else "arrow_up", size=18,
                              box=40, color=th.on_surface_variant, in_dump=False)],
                        height=dp(56), padding=(w.MARGIN, 0, w.MARGIN, 0),
                        on_click=ctx.setter("show_done", not expanded), rid="completed_header",
                        text=f"Completed ({len(done)})", selected=expanded,
                        cls="android.widget.Button"))
        if expanded:
            rows += [task_row(ctx, t) for t in done]
    rows.append(w.spacer(dp(96)))
    tab_items = [(x["name"], x["id"] == lst["id"], ctx.setter("list", x["id"]))
                 for x in ctx.store["lists"]]
    bar = w.app_bar("Tasks", theme=th, actions=[
        w.icon_button("search", "Search tasks", ctx.go("search"), rid="menu_search", theme=th),
        w.icon_button("sort", "Sort", ctx.show_dialog("sort"), rid="menu_sort", theme=th),
        w.icon_button("plus", "New list", ctx.go("new_list"), rid="menu_new_list", theme=th),
    ])
    fab = w.fab("plus", "Create new task", ctx.go("edit", id=0, list=lst["id"]), theme=th,
                rid="new_task_button")
    body = Column([
        bar,
        pickers.tabs(tab_items, theme=th, rid="list_tabs"),
        Stack([Scroll(rows, offset=offset, on_scroll=on_scroll, rid="task_list"), fab],
              flex=1, padding=(0, 0, w.MARGIN, w.MARGIN)),
    ], bg=th.surface)
    dlg = sort_sheet(ctx, lst) if ctx.dialog == "sort" else None
    return Page(body, dialog=dlg)


def sort_sheet(ctx: Ctx, lst: dict[str, Any]) -> View:
    """The bottom sheet that sorts the list: my order, date or priority (the chosen one
    checked)."""
    def pick(sort: str) -> Handler:
        def h() -> None:
            lst["sort"] = sort
            ctx.close_dialog()
        return h

    items: list[Any] = []
    for sort in ts.SORTS:
        glyph = {"my order": "list", "date": "calendar", "priority": "flag"}[sort]
        items.append(("check" if lst["sort"] == sort else glyph, SORT_LABELS[sort],
                      pick(sort)))
    return bottom_sheet("Sort by", items, theme=ctx.theme)


# -- search ----------------------------------------------------------------------------------
def search(ctx: Ctx) -> View | Page:
    """A search field and the tasks of every list whose title or notes match."""
    th = ctx.theme
    query, on_query = ctx.field("q")
    offset, on_scroll = ctx.scroll()
    q = query.strip().lower()
    hits = [t for t in ctx.store["tasks"] if q and ts.matches(t, q)]
    rows: list[View] = []
    if q:
        rows.append(Text(f"{len(hits)} result{'s' if len(hits) != 1 else ''}" if hits
                         else "No matching tasks", size=14, color=th.on_surface_variant,
                         padding=(dp(24), dp(12), 0, dp(8)), rid="results_header"))
        rows += [task_row(ctx, t, show_list=True) for t in hits]
    else:
        rows.append(Text("Search tasks by title or notes", size=14, align="center",
                         color=th.on_surface_variant, padding=(0, dp(48), 0, 0),
                         rid="empty_text"))
    field = w.text_field("q", query, on_text=on_query, hint="Search tasks",
                         rid="search_src_text", outlined=False, flex=1)
    body = Column([
        Row([w.icon_button("back", "Navigate up", ctx.pop, theme=th), field], gap=dp(4),
            height=dp(64), padding=(dp(4), 0, w.MARGIN, 0), bg=th.surface_container),
        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="search_results"),
    ], bg=th.surface)
    return Page(body)


# -- a new list ------------------------------------------------------------------------------
def new_list(ctx: Ctx) -> View | Page:
    """Name a new list; Done creates it (a name already in use is refused)."""
    th = ctx.theme
    name, on_name = ctx.field("name")
    err = str(ctx.state.get("error", ""))

    def done() -> None:
        n = name.strip()
        if not n:
            return
        if any(x["name"].lower() == n.lower() for x in ctx.store["lists"]):
            ctx.state["error"] = "A list with this name already exists"
            return
        lst = ts.add_list(ctx.store, n)
        ctx.reset_to("main", list=lst["id"])

    kids: list[View] = [w.text_field("name", name, on_text=on_name, label="Enter list title",
                                     rid="list_name", on_submit=done)]
    if err:
        kids.append(Text(err, size=13, color=th.error, rid="error_text"))
    body = Column([
        w.app_bar("Create new list", on_back=ctx.pop, theme=th,
                  actions=[w.button("Done", done, style="text", rid="done", theme=th,
                                    enabled=bool(name.strip()))]),
        Column(kids, gap=dp(8), padding=(w.MARGIN, dp(8), w.MARGIN, 0)),
    ], bg=th.surface)
    return Page(body)


# -- the editor ------------------------------------------------------------------------------
def edit(ctx: Ctx) -> View | Page:
    """A task's editor (``id`` 0: a new task in list ``list``). Nothing is written until Save;
    Delete removes the task; the due date comes from the date picker."""
    th = ctx.theme
    tid = int(ctx.args.get("id", 0))
    t = ts.find(ctx.store, tid) if tid else None
    if tid and t is None:
        return Page(Column([w.app_bar("Task", on_back=ctx.pop, theme=th),
                            w.text("This task no longer exists.", padding=(w.MARGIN,) * 4)],
                           bg=th.surface))
    base: dict[str, Any] = t if t is not None else {
        "title": "", "notes": "", "due": "", "priority": 0, "starred": False, "done": False,
        "list_id": int(ctx.args.get("list", ctx.store["lists"][0]["id"] if ctx.store["lists"]
                                    else 0))}
    title, on_title = ctx.field("title", base["title"])
    notes, on_notes = ctx.field("notes", base["notes"])
    due = str(ctx.state.get("due", base["due"]))
    priority = int(ctx.state.get("priority", base["priority"]))
    starred = bool(ctx.state.get("starred", base["starred"]))
    done = bool(ctx.state.get("done", base["done"]))
    list_id = int(ctx.state.get("list_id", base["list_id"]))

    def save() -> None:
        if not title.strip():
            ctx.toast("Enter a title")
            return
        if t is None:
            ts.add_task(ctx.store, list_id, title.strip(), notes=notes, due=due,
                        priority=priority, starred=starred, done=done)
        else:
            t.update(title=title.strip(), notes=notes, due=due, priority=priority,
                     starred=starred, done=done, list_id=list_id)
        ctx.pop()

    def delete() -> None:
        if t is not None:
            ts.delete(ctx.store, t["id"])
            ctx.toast("Task deleted")
        ctx.pop()

    def set_priority(label: str) -> Handler:
        return ctx.setter("priority", ts.PRIORITIES.index(label))

    due_text = ts.full_label(due) if due else "Add date"
    date_row = Row([Icon("calendar", size=20, box=40, color=th.on_surface_variant,
                         in_dump=False),
                    Text(due_text, size=16, color=th.on_surface if due else
                         th.on_surface_variant, flex=1, in_dump=False)],
                   gap=dp(12), height=dp(56), on_click=ctx.show_dialog("date"),
                   text=due_text, desc="Due date", rid="due_date",
                   cls="android.widget.Button")
    date_line: list[View] = [date_row]
    if due:
        date_line.append(w.icon_button("close", "Clear date", ctx.setter("due", ""),
                                       rid="clear_date", theme=th))
    list_chips = w.wrap_row([w.chip(x["name"], selected=x["id"] == list_id,
                                    on_click=ctx.setter("list_id", x["id"]),
                                    rid="list_chip", theme=th)
                             for x in ctx.store["lists"]], 1080 - 2 * w.MARGIN)
    fields: list[View] = [
        w.text_field("title", title, on_text=on_title, hint="Enter title", rid="task_title_edit",
                     outlined=False),
        w.text_field("notes", notes, on_text=on_notes, hint="Add details", rid="task_notes_edit",
                     outlined=False),
        Row(date_line, gap=dp(4)),
        Text("List", size=14, weight="medium", color=th.on_surface_variant),
        list_chips,
        Text("Priority", size=14, weight="medium", color=th.on_surface_variant),
        controls.radio_group(ts.PRIORITIES, ts.PRIORITIES[priority], set_priority,
                             rid="priority", theme=th),
        controls.checkbox("Completed", done, ctx.setter("done", not done), rid="done_box",
                          theme=th),
    ]
    actions: list[View] = [
        w.icon_button("star", "Remove star" if starred else "Add star",
                      ctx.setter("starred", not starred), rid="star", theme=th,
                      selected=starred, color=th.primary if starred else None),
    ]
    if t is not None:
        actions.append(w.icon_button("trash", "Delete task", delete, rid="delete", theme=th))
    actions.append(w.button("Save", save, rid="save", theme=th))
    offset, on_scroll = ctx.scroll()
    body = Column([
        w.app_bar("Edit task" if t is not None else "New task", on_back=ctx.pop, theme=th,
                  actions=actions),
        Scroll(fields, gap=dp(8), offset=offset, on_scroll=on_scroll,
               padding=(w.MARGIN, dp(8), w.MARGIN, dp(24)), rid="editor"),
    ], bg=th.surface)
    dlg = None
    if ctx.dialog == "date":
        now = today(ctx)
        shown = dt.date.fromisoformat(due) if due else now
        py, pm = ctx.state.get("pick_ym", (shown.year, shown.month))
        picked = ctx.state.get("pick_day", due or now.isoformat())

        def on_pick(d: dt.date) -> Handler:
            return ctx.setter("pick_day", d.isoformat())

        def on_month(y: int, m: int) -> Handler:
            return ctx.setter("pick_ym", (y, m))

        def ok() -> None:
            ctx.state["due"] = ctx.state.get("pick_day", due or now.isoformat())
            ctx.state.pop("pick_day", None)
            ctx.state.pop("pick_ym", None)
            ctx.close_dialog()

        def cancel() -> None:
            ctx.state.pop("pick_day", None)
            ctx.state.pop("pick_ym", None)
            ctx.close_dialog()

        dlg = pickers.date_picker(year=py, month=pm, selected=dt.date.fromisoformat(picked),
                                  on_pick=on_pick, on_month=on_month, on_ok=ok,
                                  on_cancel=cancel, today=now, title="Due date", theme=th)
    return Page(body, dialog=dlg)
