"""Files data: what the app keeps of its own, the documents a phone starts with, and the
listing helpers its screens use over shared storage.

The files themselves live in the phone's common ``files`` table (``/sdcard/...``), read and
changed through ``Ctx.files/read_file/write_file/move_file/delete_file``; tasks over them run on
a real phone. Shared storage has no empty folders (a folder is implied by the files in it), so
"New folder" keeps the new folder in the app's own store (served as ``files/folders``) until
something is moved or copied into it; from then on the files imply it and the entry is dropped.
A real phone would keep the empty directory; its ``files`` listing would not show it either.

About half the phones have an SD card in (drawn per seed; the ``sd_card`` fixture inserts or
takes it out at setup). It is mounted at ``/storage/<volume id>`` (``sd_card`` in the store:
``{"uuid", "inserted"}``), starts empty, and its files are rows of the same ``files`` table;
Files lists it under Storage devices and offers it in Move to / Copy to. The volumes are the
static ``files/volumes`` table (``_id`` "primary" or the card's id, ``path``,
``description``, ``removable``).

A file's modified date is not in the ``files`` table (``_id``, ``size``, ``sha256``), so the app
shows one derived from the content hash: stable across renames and moves, different for
different content.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np

from phoneworld_gym.life import Life

ROOT = "/sdcard"
#: the standard folders of a phone's shared storage, shown even when empty
STANDARD = ("Alarms", "DCIM", "Documents", "Download", "Movies", "Music", "Pictures",
            "Recordings")
_NAME_BAD = set('/\\:*?"<>|')


def check_name(name: str) -> str:
    """A file or folder name, stripped; ``ValueError`` for an empty one or one with ``/``."""
    n = " ".join(str(name).split())
    if not n or n in (".", "..") or _NAME_BAD & set(n) or len(n) > 120:
        raise ValueError(f"a name can't be empty or contain / \\ : * ? \" < > |, got {name!r}")
    return n


def modified(sha256: str, now: dt.datetime) -> dt.datetime:
    """The shown modification time of a file: derived from its content hash, within the 60
    days before ``now`` (the phone's clock; see the module docstring)."""
    minutes = int(sha256[:8], 16) % (60 * 24 * 60)
    return now - dt.timedelta(minutes=minutes)


def size_text(n: int) -> str:
    """"812 B", "2.4 kB", "1.2 MB" (decimal units, as Android shows them)."""
    if n < 1000:
        return f"{n} B"
    if n < 1_000_000:
        return f"{n / 1000:.1f} kB"
    return f"{n / 1_000_000:.1f} MB"


KINDS: dict[str, tuple[str, ...]] = {
    "images": ("jpg", "jpeg", "png", "gif", "webp"),
    "videos": ("mp4", "mkv", "webm", "3gp"),
    "audio": ("mp3", "m4a", "ogg", "wav", "aac"),
    "documents": ("pdf", "txt", "csv", "doc", "docx", "xls", "xlsx", "md", "ics", "json"),
}


def ext(name: str) -> str:
    return name.rsplit(".", 1)[-1].lower() if "." in name else ""


def kind_of(name: str) -> str:
    e = ext(name)
    return next((k for k, exts in KINDS.items() if e in exts), "other")


_MIMES = {"pdf": "application/pdf", "txt": "text/plain", "csv": "text/csv",
          "md": "text/markdown", "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png",
          "gif": "image/gif", "webp": "image/webp", "mp3": "audio/mpeg", "m4a": "audio/mp4",
          "mp4": "video/mp4", "ics": "text/calendar", "json": "application/json"}


def mime_of(name: str) -> str:
    return _MIMES.get(ext(name), "application/octet-stream")


def icon_of(name: str) -> str:
    return {"images": "image", "videos": "film", "audio": "music",
            "documents": "file_lines"}.get(kind_of(name), "file")


# -- listing -------------------------------------------------------------------------------------
def listing(files: list[dict[str, Any]], pending: list[str], folder: str
            ) -> tuple[dict[str, int], list[dict[str, Any]]]:
    """The direct children of ``folder``: ({subfolder name: number of files under it},
    [files directly in it]). Pending (new, empty) folders and, at the root, the standard
    folders count as subfolders too."""
    prefix = folder.rstrip("/") + "/"
    subs: dict[str, int] = {}
    direct = []
    for f in files:
        if not f["path"].startswith(prefix):
            continue
        rest = f["path"][len(prefix):]
        if "/" in rest:
            head = rest.split("/", 1)[0]
            subs[head] = subs.get(head, 0) + 1
        else:
            direct.append(f)
    extra = [p for p in pending if p.startswith(prefix) and "/" not in p[len(prefix):]]
    if folder.rstrip("/") == ROOT:
        extra += [f"{ROOT}/{s}" for s in STANDARD]
    for p in extra:
        subs.setdefault(p[len(prefix):], 0)
    return subs, direct


def sort_files(files: list[dict[str, Any]], order: str) -> list[dict[str, Any]]:
    """Files sorted by ``order``: name, name_desc, size (largest first), date (newest
    first: the :func:`modified` time, the same order whatever the clock)."""
    def name(f: dict[str, Any]) -> str:
        return f["path"].rsplit("/", 1)[-1].lower()

    if order == "name_desc":
        return sorted(files, key=name, reverse=True)
    if order == "size":
        return sorted(files, key=lambda f: (-f["size"], name(f)))
    if order == "date":
        return sorted(files, key=lambda f: (int(f["sha256"][:8], 16) % (60 * 24 * 60),
                                            name(f)))
    return sorted(files, key=name)


def drop_filled(store: dict[str, Any], files: list[dict[str, Any]]) -> None:
    """Forget pending folders that now hold files (the files imply them)."""
    paths = [f["path"] for f in files]
    store["folders"] = [p for p in store["folders"]
                        if not any(x.startswith(p + "/") for x in paths)]


def provider_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    """``files/folders``: the folders made with "New folder" that are still empty."""
    return [{"_id": p} for p in sorted(store["folders"])]


def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """No folders of its own yet; an SD card (its volume id drawn even when there is none,
    so the ``sd_card`` fixture can put it in) in about half the phones."""
    uuid = f"{int(rng.integers(1 << 16)):04X}-{int(rng.integers(1 << 16)):04X}"
    return {"folders": [], "sd_card": {"uuid": uuid, "inserted": bool(rng.random() < 0.5)}}


def card_root(store: dict[str, Any]) -> str | None:
    """The SD card's mount point (``/storage/XXXX-XXXX``), None when no card is in."""
    card = store.get("sd_card") or {}
    return f"/storage/{card['uuid']}" if card.get("inserted") else None


def volume_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    """``files/volumes`` (static): internal storage, and the SD card when one is in."""
    rows = [{"_id": "primary", "path": ROOT, "description": "Internal storage",
             "removable": 0}]
    root = card_root(store)
    if root is not None:
        rows.append({"_id": store["sd_card"]["uuid"], "path": root, "description": "SD card",
                     "removable": 1})
    return rows


def fixture_sd_card(store: dict[str, Any], *, inserted: Any = None) -> dict[str, Any]:
    """Setup: put the SD card in (``inserted=True``) or take it out. The card starts empty
    (a taken-out card has no files to hide). Returns the card's ``files/volumes`` row, or
    ``{}`` when it is out."""
    if not isinstance(inserted, bool):
        raise ValueError(f"sd_card: inserted must be true or false, got {inserted!r}")
    store["sd_card"]["inserted"] = inserted
    return next((r for r in volume_rows(store) if r["removable"]), {})


# -- the documents a phone starts with ------------------------------------------------------------
def _pdf(title: str, lines: list[str]) -> bytes:
    """A small, well-formed one-page PDF with the lines as text."""
    text = " ".join(f"({ln.replace('(', '[').replace(')', ']')}) Tj T*" for ln in lines)
    stream = f"BT /F1 12 Tf 14 TL 72 720 Td ({title}) Tj T* {text} ET".encode("latin-1",
                                                                            "replace")
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
            b"/Resources << /Font << /F1 5 0 R >> >> >>",
            b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream
            + b"\nendstream",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    out = b"%PDF-1.4\n"
    offsets = []
    for i, o in enumerate(objs):
        offsets.append(len(out))
        out += f"{i + 1} 0 obj\n".encode() + o + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n" \
        .encode()
    return out


def starting_files(rng: np.random.Generator, life: Life) -> dict[str, bytes]:
    """Downloads, documents and a voice memo with content from the life: receipts, a resume,
    a budget of the last three months, notes, a boarding pass and a voice memo named by
    their months and day before the phone's start day (``life.today``). Six to nine files,
    a few kB in all."""
    today = life.today
    # the three months up to the start day's, oldest first ("Jan", "Feb", "Mar" in March)
    months = [dt.date(today.year + (today.month - k - 1) // 12, (today.month - k - 1) % 12 + 1,
                      1).strftime("%b") for k in (2, 1, 0)]
    memo_day = today - dt.timedelta(days=2)
    me = life.owner
    people = list(life.people)
    friend = people[int(rng.integers(len(people)))]
    n = int(rng.integers(1000, 9999))
    month = months[int(rng.integers(3))]
    amounts = [round(float(rng.uniform(8, 120)), 2) for _ in range(6)]
    candidates: dict[str, bytes] = {
        f"{ROOT}/Download/receipt_{n}.pdf": _pdf(f"Receipt #{n}", [
            f"Billed to: {me.name}", f"{me.home.one_line() if me.home else ''}",
            f"Item: Wireless earbuds  ${amounts[0]:.2f}", f"Total: ${amounts[0] + 4.99:.2f}"]),
        f"{ROOT}/Download/Resume_{me.first}_{me.last}.pdf": _pdf(f"{me.name}", [
            me.email, me.phone, f"Experience: {me.company or 'Freelance'}, 2019-present",
            "Skills: planning, writing, spreadsheets"]),
        f"{ROOT}/Download/boarding_pass_{month}.pdf": _pdf("Boarding pass", [
            f"Passenger: {me.name}", f"Flight PW{int(rng.integers(100, 999))}",
            f"Seat {int(rng.integers(1, 40))}{'ABCDEF'[int(rng.integers(6))]}"]),
        f"{ROOT}/Download/concert_tickets.pdf": _pdf("2 tickets", [
            f"For {me.name} and {friend.name}", "Doors 7 PM"]),
        f"{ROOT}/Download/recipe_lasagna.txt": (
            b"Lasagna\n- 12 sheets pasta\n- 500 g ragu\n- 250 g ricotta\n- mozzarella\n"
            b"Bake 45 min at 190 C.\n"),
        f"{ROOT}/Documents/budget_{today.year}.csv": (
            "month,rent,groceries,transport\n" + "".join(
                f"{m},{1200 + 10 * i},{amounts[i]:.2f},{amounts[i + 1]:.2f}\n"
                for i, m in enumerate(months))).encode(),
        f"{ROOT}/Documents/Meeting notes.txt": (
            f"Meeting with {friend.name}\n- review the plan\n- send the draft by Friday\n"
            ).encode(),
        f"{ROOT}/Documents/Packing list.txt": (
            b"Passport\nCharger\nToothbrush\nRain jacket\nBook\n"),
        f"{ROOT}/Documents/lease_agreement.pdf": _pdf("Lease agreement", [
            f"Tenant: {me.name}",
            f"Premises: {me.home.one_line() if me.home else 'see page 2'}",
            f"Monthly rent: ${1200 + 50 * int(rng.integers(0, 10))}"]),
        f"{ROOT}/Music/voice_memo_{memo_day:%m%d}.m4a": b"\x00\x00\x00\x18ftypM4A " + bytes(
            int(x) for x in rng.integers(0, 256, size=int(rng.integers(300, 900)))),
    }
    keys = sorted(candidates)
    keep = sorted(int(i) for i in rng.choice(len(keys), size=int(rng.integers(7, 10)),
                                             replace=False))
    return {keys[i]: candidates[keys[i]] for i in keep}
