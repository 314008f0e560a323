"""Figures for the hardening work (issue 25), printed: how long text lays out, and how the
virtual adb phone holds up against clients that misbehave.

- **text**: CPU seconds to wrap an unbroken run of 1,000, 4,000 and 10,000 characters (16 sp
  Roboto, a full-width 1,080 px line, caches cleared); and one step of the phone (the action,
  the tree and a 540 x 1200 screenshot) that saves a contact whose first name was typed as ten
  ``input_text`` actions of 1,000 characters each (a field holds 5,000: Android's cap for a
  single-line ``EditText``), then the step back to the list that shows it.
- **adb**: the virtual adb phone with 70 connections held open in silence (half sent CNXN):
  whether a new client still connects and runs ``echo ok``, and how many silent ones were
  closed to let it in; then (with Debian's ``adb``) six pushes of 15 MiB to ``/sdcard``: which
  succeed under the 64 MiB quota, what the refused ones print, and the server's resident
  memory before and after.

    python examples/hardening_bench.py [text] [adb]
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable

from phoneworld_gym import Action
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.ui.view import _wrap, dp, text_width, wrap
from phoneworld_gym.virtual.adb_protocol import (
    A_CLSE,
    A_CNXN,
    A_OKAY,
    A_OPEN,
    A_VERSION,
    A_WRTE,
    Packet,
    PacketReader,
)
from phoneworld_gym.virtual.adb_server import VirtualPhone, free_port


def cpu(fn: Callable[[], object]) -> float:
    """CPU seconds ``fn`` takes."""
    t = time.process_time()
    fn()
    return time.process_time() - t


def text_figures() -> None:
    """Wrapping long runs, and a step with a long name on screen."""
    for n in (1_000, 4_000, 10_000):
        _wrap.cache_clear()
        text_width.cache_clear()
        secs = cpu(lambda n=n: wrap("a" * n, dp(16), "regular", 1080))
        print(f"wrap an unbroken run of {n:>6,} characters: {secs:8.3f} s CPU", flush=True)

    device = PhoneWorldDevice(screenshot_size=(540, 1200))
    device.reset(0)

    def step(action: Action) -> float:
        def run() -> None:
            err = device.execute(action)
            assert not err, err
            device.a11y_xml()
            device.screenshot()
        return cpu(run)

    step(Action("open_app", app_name="Contacts"))
    ids = [e.resource_id or "" for e in device.ui_elements()]
    step(Action("click", index=ids.index("com.phoneworld.contacts:id/fab")))
    ids = [e.resource_id or "" for e in device.ui_elements()]
    first = ids.index("com.phoneworld.contacts:id/field_first")
    typing = max(step(Action("input_text", index=first if k == 0 else None, text="a" * 1000))
                 for k in range(10))
    held = len(device.screen.element_views[first].text)
    step(Action("input_text", index=ids.index("com.phoneworld.contacts:id/field_phone"),
                text="5551234"))
    save = step(Action("click", index=ids.index("com.phoneworld.contacts:id/save")))
    back = step(Action("navigate_back"))
    print(f"typing 10 x 1,000 characters into a name: slowest step {typing:.3f} s CPU; "
          f"the field holds {held:,}")
    print(f"the step that saves that contact: {save:.3f} s CPU; back to the list: {back:.3f} s")


def rss_mib() -> int:
    """This process's resident memory in MiB (the server runs in it)."""
    with open("/proc/self/status") as f:
        return next(int(ln.split()[1]) // 1024 for ln in f if ln.startswith("VmRSS"))


def raw_shell(port: int, command: str) -> bytes:
    """Connect as an adb host would, run one ``shell:`` command, return its output."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        reader = PacketReader()
        s.sendall(Packet(A_CNXN, A_VERSION, 1 << 18, b"host::\0").encode())
        s.sendall(Packet(A_OPEN, 1, 0, f"shell:{command}\0".encode()).encode())
        out = b""
        while True:
            data = s.recv(65536)
            if not data:
                raise ConnectionError("the phone closed the connection")
            for p in reader.feed(data):
                if p.command == A_WRTE:
                    out += p.data
                    s.sendall(Packet(A_OKAY, 1, p.arg0).encode())
                elif p.command == A_CLSE:
                    return out


def adb_figures() -> None:
    """Silent connections against a newcomer; pushes against the storage quota."""
    with VirtualPhone(port=free_port()) as phone:
        silent = []
        for k in range(70):
            s = socket.create_connection(("127.0.0.1", phone.port), timeout=10)
            if k % 2:
                s.sendall(Packet(A_CNXN, A_VERSION, 4096, b"host::\0").encode())
            silent.append(s)
        try:
            ok = raw_shell(phone.port, "echo ok") == b"ok\n"
        except OSError as e:
            ok = False
            print(f"a new client behind 70 silent connections: {e}")
        print(f"a new client behind 70 silent connections runs `echo ok`: {ok} "
              f"({phone.stats['evicted']} silent ones closed to let clients in)")
        for s in silent:
            s.close()
        if shutil.which("adb") is None:
            print("(no adb client: the push figures need Debian's adb)")
            return
        home = tempfile.mkdtemp()
        env = {**os.environ, "ANDROID_ADB_SERVER_PORT": str(free_port()), "HOME": home,
               "ANDROID_USER_HOME": os.path.join(home, ".android")}

        def adb(*args: str) -> tuple[int, str]:
            proc = subprocess.run(["adb", *args], capture_output=True, env=env, timeout=300,
                                  text=True)
            return proc.returncode, "".join((proc.stdout + proc.stderr).strip().splitlines()[:1])

        try:
            adb("start-server")
            adb("connect", phone.serial)
            blob = os.path.join(home, "15mib.bin")
            with open(blob, "wb") as f:
                f.write(os.urandom(15 << 20))
            before = rss_mib()
            for k in range(6):
                code, line = adb("-s", phone.serial, "push", blob, f"/sdcard/f{k}.bin")
                print(f"push {k + 1} of 15 MiB: {'ok' if code == 0 else line}")
            print(f"server memory: {before} MiB before the pushes, {rss_mib()} MiB after")
        finally:
            adb("kill-server")
            shutil.rmtree(home, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sections", nargs="*", metavar="{text,adb}",
                    help="which figures to print (all by default)")
    sections = ap.parse_args().sections or ["text", "adb"]
    if set(sections) - {"text", "adb"}:
        ap.error(f"unknown sections {sorted(set(sections) - {'text', 'adb'})}; "
                 "known: text, adb")
    if "text" in sections:
        text_figures()
    if "adb" in sections:
        adb_figures()


if __name__ == "__main__":
    main()
