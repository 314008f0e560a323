"""Third-party adb clients from the package registry against the virtual adb phone.

- ``adb-shell`` (``AdbDeviceTcp``) speaks the device transport itself (CNXN, OPEN, WRTE,
  OKAY, CLSE) straight to the phone's port, as the adb server would: shell, push, pull, stat
  and list, each of which waits for the phone's CLSE before it returns.
- ``pure-python-adb`` (``ppadb``) speaks the host protocol to an adb server (Debian's
  ``adb``, private to the module: the ``adb_port`` fixture of ``conftest.py``), which has
  ``adb connect``-ed the phone; its helpers run toybox commands and parse what they print
  (``wm density | cut -d ' ' -f 3``, ``ps | grep PKG`` then ``ps -A | grep PKG``,
  ``dumpsys battery``, ``dumpsys activity top | grep ACTIVITY``, ``pm list packages``,
  ``getprop``).

Then those commands on their own (no network): ``cut``, ``ps``, ``pidof``, ``dumpsys
battery`` and the boot id, with the exact text a phone prints.

The client tests skip when their client is not installed (``pip install
'phoneworld[dev]'`` installs both) or, for ``ppadb``, without the ``adb`` client.
"""

from __future__ import annotations

import hashlib
import io
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from phoneworld_gym.contract import Action
from phoneworld_gym.system.settings import BATTERY_LEVEL
from phoneworld_gym.virtual.adb_server import VirtualPhone, free_port
from phoneworld_gym.virtual.commands import BOOT_ID_PATH

CONTACTS = "com.phoneworld.contacts"
LAUNCHER = "com.google.android.apps.nexuslauncher"
SYSTEMUI = "com.android.systemui"
#: more than one sync DATA chunk (64 KiB) and one adb packet, every byte value
PAYLOAD = bytes(range(256)) + random.Random(25).randbytes(200_000)


# -- fixtures ------------------------------------------------------------------------------
# ``phone`` and ``fresh``: the virtual phone fixtures of conftest


@pytest.fixture(scope="module")
def tcp(phone: VirtualPhone) -> Iterator[Any]:
    """adb-shell's ``AdbDeviceTcp`` connected straight to the phone (no adb server)."""
    adb_shell = pytest.importorskip("adb_shell.adb_device")
    dev = adb_shell.AdbDeviceTcp("127.0.0.1", phone.port, default_transport_timeout_s=10.0)
    assert dev.connect(rsa_keys=None, auth_timeout_s=5.0)
    try:
        yield dev
    finally:
        dev.close()


@pytest.fixture(scope="module")
def ppadb(phone: VirtualPhone, adb_port: int) -> Iterator[Any]:
    """pure-python-adb's device for the phone, through the module's private adb server."""
    client_mod = pytest.importorskip("ppadb.client")
    client = client_mod.Client(host="127.0.0.1", port=adb_port)
    assert client.remote_connect("127.0.0.1", phone.port)
    deadline = time.monotonic() + 15
    while client.devices(state="device") == [] and time.monotonic() < deadline:
        time.sleep(0.05)
    device = client.device(phone.serial)
    assert device is not None, [d.serial for d in client.devices()]
    try:
        yield device
    finally:
        client.remote_disconnect("127.0.0.1", phone.port)


def sh(phone: VirtualPhone, command: str) -> tuple[str, int]:
    """A command line on the phone without any network: (output, exit status)."""
    out, code = phone.shell(command)
    return out.decode(), code


# -- adb-shell: the device transport ---------------------------------------------------------
def test_adb_shell_runs_commands(tcp: Any, phone: VirtualPhone) -> None:
    assert tcp.shell("echo hi") == "hi\n"
    assert tcp.shell("getprop ro.product.model") == "PhoneWorld\n"
    assert tcp.shell("getprop ro.serialno") == f"phoneworld-{phone.port}\n"
    assert tcp.shell(f"cat {BOOT_ID_PATH}") == phone.boot_id + "\n"
    assert tcp.shell("wm density | cut -d ' ' -f 3") == "420\n"
    assert tcp.shell("nosuchtool; echo $?") == "/system/bin/sh: nosuchtool: not found\n127\n"
    # exec-out: raw bytes, no terminal in between
    assert tcp.exec_out("printf 'a\\nb'", decode=False) == b"a\nb"


def test_adb_shell_push_pull_stat_and_list(tcp: Any, fresh: VirtualPhone) -> None:
    """Bytes pushed come back equal; stat and list tell what the phone holds. Every call
    ends with the client's CLSE and waits for the phone's: none may hang."""
    t0 = time.monotonic()
    tcp.push(io.BytesIO(PAYLOAD), "/sdcard/Download/clients.bin", st_mode=0o100644)
    pulled = io.BytesIO()
    tcp.pull("/sdcard/Download/clients.bin", pulled)
    assert pulled.getvalue() == PAYLOAD
    assert fresh.storage.read("/sdcard/Download/clients.bin") == PAYLOAD

    mode, size, mtime = tcp.stat("/sdcard/Download/clients.bin")
    assert (mode, size) == (0o100660, len(PAYLOAD))
    assert mtime == fresh.storage.stat("/sdcard/Download/clients.bin")[2] > 0  # type: ignore[index]
    assert tcp.stat("/sdcard/Download") == (0o40771, 4096, mtime)
    assert tcp.stat("/sdcard/no-such-file") == (0, 0, 0)

    listed = {bytes(f.filename): (f.mode, f.size) for f in tcp.list("/sdcard/Download")}
    expected = {b".": (0o40771, 4096), b"..": (0o40771, 4096)}
    expected.update({name.encode(): (0o40771, 4096) if is_dir else (0o100660, n)
                     for name, is_dir, n in fresh.storage.listdir("/sdcard/Download")})
    assert listed == expected
    assert listed[b"clients.bin"] == (0o100660, len(PAYLOAD))
    assert b"recipe_lasagna.txt" in listed  # one of the phone's own files

    # scratch space, and a pull of a file that is not there
    tcp.push(io.BytesIO(b"scratch\x00\xff"), "/data/local/tmp/s.bin")
    again = io.BytesIO()
    tcp.pull("/data/local/tmp/s.bin", again)
    assert again.getvalue() == b"scratch\x00\xff"
    assert tcp.shell("ls /data/local/tmp") == "s.bin\n"
    # nine sync and shell streams, each closed both ways, well inside one read timeout
    assert time.monotonic() - t0 < 8


def test_adb_shell_sees_a_refused_push(tcp: Any, fresh: VirtualPhone) -> None:
    from adb_shell.exceptions import PushFailedError

    with pytest.raises(PushFailedError, match="Read-only file system"):
        tcp.push(io.BytesIO(b"x"), "/system/bin/evil")
    assert tcp.shell("echo still here") == "still here\n"  # the connection lives on


# -- pure-python-adb: the host protocol, through the adb server ------------------------------
def test_ppadb_shell_and_properties(ppadb: Any, fresh: VirtualPhone) -> None:
    assert ppadb.shell("echo hi") == "hi\n"
    props = ppadb.get_properties()
    assert props["ro.product.model"] == "PhoneWorld" == fresh.props["ro.product.model"]
    assert props["ro.build.fingerprint"] == fresh.props["ro.build.fingerprint"]
    assert ppadb.shell("getprop ro.product.model") == "PhoneWorld\n"
    packages = ppadb.list_packages()
    assert packages == sorted(packages) and CONTACTS in packages and LAUNCHER in packages
    assert packages == [ln.split(":", 1)[1] for ln in sh(fresh, "pm list packages")[0]
                        .splitlines()]
    assert ppadb.is_installed(CONTACTS) and not ppadb.is_installed("com.example.nothing")


def test_ppadb_helpers_that_parse_toybox_output(ppadb: Any, fresh: VirtualPhone) -> None:
    """``wm_density`` (``cut``), ``get_battery_level`` (``dumpsys battery``), ``get_pid``
    (``ps``, then ``ps -A``), ``get_top_activity`` (``dumpsys activity top``)."""
    assert ppadb.wm_density() == 420 // 160
    assert tuple(ppadb.wm_size()) == (1080, 2400)
    assert ppadb.get_battery_level() == BATTERY_LEVEL == 87
    assert ppadb.get_pid(CONTACTS) is None  # not running yet
    launcher_pid = ppadb.get_pid(LAUNCHER)
    assert launcher_pid == sh(fresh, f"pidof {LAUNCHER}")[0].strip()

    assert "Events injected: 1" in ppadb.shell(
        f"monkey -p {CONTACTS} -c android.intent.category.LAUNCHER 1")
    assert fresh.device.probe.foreground_app() == CONTACTS
    pid = ppadb.get_pid(CONTACTS)
    assert pid is not None and pid.isdigit()
    assert ppadb.shell(f"pidof {CONTACTS}") == f"{pid}\n"
    top = ppadb.get_top_activity()
    assert (top.package, top.activity, top.pid) == (CONTACTS, ".MainActivity", int(pid))
    # the app keeps its process (and pid) behind the launcher until it is force-stopped
    ppadb.input_keyevent(3)
    assert fresh.device.probe.foreground_app() == LAUNCHER
    assert ppadb.get_pid(CONTACTS) == pid
    ppadb.shell(f"am force-stop {CONTACTS}")
    assert ppadb.get_pid(CONTACTS) is None


def test_ppadb_push_and_pull(ppadb: Any, fresh: VirtualPhone, tmp_path: Path) -> None:
    src, back = tmp_path / "payload.bin", tmp_path / "back.bin"
    src.write_bytes(PAYLOAD)
    ppadb.push(str(src), "/sdcard/Documents/payload.bin")
    assert fresh.storage.read("/sdcard/Documents/payload.bin") == PAYLOAD
    ppadb.pull("/sdcard/Documents/payload.bin", str(back))
    assert back.read_bytes() == PAYLOAD
    names = [name for name, _, _ in fresh.storage.listdir("/sdcard/Documents")]
    assert "payload.bin" in names and len(names) > 1  # beside the phone's own documents
    assert ppadb.shell("ls /sdcard/Documents") == "".join(n + "\n" for n in names)
    assert ppadb.shell("sha256sum /sdcard/Documents/payload.bin") == \
        f"{hashlib.sha256(PAYLOAD).hexdigest()}  /sdcard/Documents/payload.bin\n"


# -- the commands on their own -----------------------------------------------------------------
def test_cut_fields_characters_and_bytes(fresh: VirtualPhone) -> None:
    assert sh(fresh, "wm density | cut -d ' ' -f 3") == ("420\n", 0)
    assert sh(fresh, "echo a:b:c:d | cut -d: -f3,1") == ("a:c\n", 0)
    assert sh(fresh, "echo a:b:c:d | cut -d : -f 2-") == ("b:c:d\n", 0)
    assert sh(fresh, "echo a:b:c:d | cut -d: -f-2 -O /") == ("a/b\n", 0)
    assert sh(fresh, "echo a:b:c:d | cut -d: -f2 --output-delimiter=+") == ("b\n", 0)
    assert sh(fresh, "printf 'x\\ty\\nno tab\\n' | cut -f2") == ("y\nno tab\n", 0)
    assert sh(fresh, "printf 'x\\ty\\nno tab\\n' | cut -s -f2") == ("y\n", 0)
    assert sh(fresh, "echo abcdef | cut -c 2-3,5-") == ("bcef\n", 0)
    assert sh(fresh, "echo héllo | cut -c 2") == ("é\n", 0)
    assert sh(fresh, "echo héllo | cut -b 1,4-") == ("hllo\n", 0)
    fresh.storage.write("/data/local/tmp/t.csv", b"id,name\n1,Ada\n2,Grace\n")
    assert sh(fresh, "cut -d, -f2 /data/local/tmp/t.csv") == ("name\nAda\nGrace\n", 0)
    assert sh(fresh, "cut") == ("cut: Needs -b, -c or -f\n", 1)
    assert sh(fresh, "echo a | cut -f 0") == ("cut: bad list '0'\n", 1)
    assert sh(fresh, "echo a | cut -d ab -f 1") == \
        ("cut: the delimiter must be a single character\n", 1)
    assert sh(fresh, "cut -f1 /sdcard/nope") == \
        ("cut: /sdcard/nope: No such file or directory\n", 1)


PS_HEAD = "USER           PID  PPID     VSZ    RSS WCHAN            ADDR S NAME\n"


def test_ps_lists_the_shell_then_every_process(fresh: VirtualPhone) -> None:
    assert sh(fresh, "ps") == (
        PS_HEAD
        + "shell         4242   571 10787100  3772 do_wait             0 S sh\n"
        + "shell         4243  4242 10803496  4088 0                   0 R ps\n", 0)
    ids = fresh.commands.app_ids()
    out, code = sh(fresh, "ps -A")
    lines = out.splitlines()
    assert code == 0 and lines[0] + "\n" == PS_HEAD
    assert lines[1] == "root             1     0 10904596 12088 do_epoll_wait       0 S init"
    assert lines[2] == "root             2     0       0      0 kthreadd            0 S [kthreadd]"
    # a VSZ wider than its column pushes the line along; the next column takes it back
    assert lines[7] == \
        "root           612     1 15047876 139044 do_sys_poll        0 S zygote64"
    names = [ln.split()[-1] for ln in lines[1:]]
    assert names == ["init", "[kthreadd]", "ueventd", "logd", "servicemanager", "adbd",
                     "zygote64", "system_server",
                     *sorted((SYSTEMUI, LAUNCHER), key=lambda p: ids[p][1]), "sh", "ps"]
    pids = [int(ln.split()[1]) for ln in lines[1:]]
    assert pids == sorted(pids)
    row = next(ln.split() for ln in lines if ln.endswith(" " + LAUNCHER))
    uid, pid = ids[LAUNCHER]
    assert row[:3] == [f"u0_a{uid - 10000}", str(pid), "612"]

    fresh.device.execute(Action("open_app", app_name="Contacts"))
    out, _ = sh(fresh, f"ps -A | grep {CONTACTS}")
    uid, pid = ids[CONTACTS]
    assert out.split()[:3] == [f"u0_a{uid - 10000}", str(pid), "612"]
    assert out.split()[-2:] == ["S", CONTACTS]
    assert sh(fresh, f"ps | grep {CONTACTS}") == ("", 1)  # not this shell's
    assert sh(fresh, "ps -o PID,NAME -p 1,4242") == \
        ("  PID NAME\n    1 init\n 4242 sh\n", 0)
    assert sh(fresh, "ps -A -o pid=,name= | head -2") == ("    1 init\n    2 [kthreadd]\n", 0)
    assert sh(fresh, f"ps -A {CONTACTS}")[0] == PS_HEAD + out
    assert sh(fresh, "ps -x") == ("ps: Unknown option 'x' (see \"ps --help\")\n", 1)
    assert sh(fresh, "ps -o BOGUS") == ("ps: bad -o BOGUS\n", 1)


def test_pidof(fresh: VirtualPhone) -> None:
    ids = fresh.commands.app_ids()
    assert sh(fresh, f"pidof {LAUNCHER}") == (f"{ids[LAUNCHER][1]}\n", 0)
    assert sh(fresh, "pidof init zygote64 sh") == ("1 612 4242\n", 0)
    assert sh(fresh, "pidof -s sh init") == ("4242\n", 0)
    assert sh(fresh, "pidof -o 1 init zygote64") == ("612\n", 0)
    assert sh(fresh, f"pidof {CONTACTS}; echo $?") == ("1\n", 0)
    assert sh(fresh, "pidof") == ("pidof: Need 1 argument\n", 1)
    fresh.device.execute(Action("open_app", app_name="Contacts"))
    pid = ids[CONTACTS][1]
    assert sh(fresh, f"pidof {CONTACTS}") == (f"{pid}\n", 0)
    assert sh(fresh, "dumpsys activity top | grep ACTIVITY") == \
        (f"  ACTIVITY {CONTACTS}/.MainActivity 4f1d2a0 pid={pid}\n", 0)


def test_app_pids_and_uids_are_stable_and_distinct(fresh: VirtualPhone) -> None:
    ids = fresh.commands.app_ids()
    assert len({pid for _, pid in ids.values()}) == len(ids)
    assert all(1100 <= pid < 4000 for _, pid in ids.values())
    assert ids["com.android.settings"][0] == 1000  # Settings runs as the system user
    other = VirtualPhone(seed=5).commands.app_ids()
    assert other == ids


def test_dumpsys_battery(fresh: VirtualPhone) -> None:
    assert sh(fresh, "dumpsys battery") == (
        "Current Battery Service state:\n"
        "  AC powered: false\n"
        "  USB powered: false\n"
        "  Wireless powered: false\n"
        "  Dock powered: false\n"
        "  Max charging current: 0\n"
        "  Max charging voltage: 0\n"
        "  Charging counter: 3894000\n"
        "  status: 3\n"
        "  health: 2\n"
        "  present: true\n"
        "  level: 87\n"
        "  scale: 100\n"
        "  voltage: 4172\n"
        "  temperature: 280\n"
        "  technology: Li-ion\n"
        "  Charging state: 1\n"
        "  Charging policy: 1\n"
        "  Capacity level: 3\n", 0)
    assert sh(fresh, "dumpsys battery | grep level | cut -d: -f2") == (" 87\n 3\n", 0)
    assert sh(fresh, "dumpsys battery set level 5") == \
        ("Error: dumpsys battery set is not supported on the virtual phone (the battery "
         "state is fixed)\n", 1)


def test_boot_id_is_new_at_every_start() -> None:
    phone = VirtualPhone(port=free_port(), seed=0)
    seen = []
    for _ in range(2):
        with phone:
            out, code = phone.shell(f"cat {BOOT_ID_PATH}")
            assert code == 0 and out.decode() == phone.boot_id + "\n"
            assert phone.shell(f"cat < {BOOT_ID_PATH}")[0] == out
            seen.append(phone.boot_id)
    assert len(set(seen)) == 2 and all(len(b) == 36 and b.count("-") == 4 for b in seen)
    assert phone.shell(f"echo x > {BOOT_ID_PATH}") == \
        (f"/system/bin/sh: can't create {BOOT_ID_PATH}: Read-only file system\n".encode(), 1)
