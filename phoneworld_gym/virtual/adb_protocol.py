"""The adb wire format between the adb server and a device: 24-byte packets, the banner and
the sync sub-protocol's framing.

Everything here is pure data handling (no sockets), so both the virtual phone's server and
the tests' minimal client share it. Facts from AOSP's ``protocol.txt``: a packet is six
little-endian u32 (``command, arg0, arg1, data_length, data_check, magic``) with
``magic == command ^ 0xFFFFFFFF``, then ``data_length`` bytes of payload; ``data_check`` is
the byte sum of the payload, which adb 29 never checks (we send it and ignore it).
"""

from __future__ import annotations

import dataclasses
import struct

A_CNXN = 0x4E584E43
A_AUTH = 0x48545541
A_OPEN = 0x4E45504F
A_OKAY = 0x59414B4F
A_CLSE = 0x45534C43
A_WRTE = 0x45545257
A_STLS = 0x534C5453

#: the protocol version that lets a sender leave ``data_check`` at 0
A_VERSION = 0x01000001
#: the largest payload we accept and advertise (what adb 29's host offers)
MAX_PAYLOAD = 1 << 20
#: CNXN payloads stay this small on both sides
MAX_CNXN_PAYLOAD = 4096
HEADER = struct.Struct("<6I")
HEADER_SIZE = HEADER.size  # 24

COMMAND_NAMES: dict[int, str] = {
    A_CNXN: "CNXN", A_AUTH: "AUTH", A_OPEN: "OPEN", A_OKAY: "OKAY", A_CLSE: "CLSE",
    A_WRTE: "WRTE", A_STLS: "STLS",
}


class ProtocolError(ValueError):
    """Bytes that are not a well-formed adb packet: the connection they came on is closed."""


@dataclasses.dataclass(frozen=True)
class Packet:
    """One adb packet: a command, two arguments and a payload."""

    command: int
    arg0: int
    arg1: int
    data: bytes = b""

    @property
    def name(self) -> str:
        """The command's four letters (``"WRTE"``), or its number in hex when unknown."""
        return COMMAND_NAMES.get(self.command, f"0x{self.command:08x}")

    def encode(self) -> bytes:
        """The packet as bytes on the wire (header with checksum and magic, then payload)."""
        return HEADER.pack(self.command, self.arg0 & 0xFFFFFFFF, self.arg1 & 0xFFFFFFFF,
                           len(self.data), checksum(self.data),
                           self.command ^ 0xFFFFFFFF) + self.data

    def __repr__(self) -> str:
        shown = self.data[:40]
        more = "..." if len(self.data) > 40 else ""
        return f"Packet({self.name}, {self.arg0}, {self.arg1}, {shown!r}{more})"


def checksum(data: bytes) -> int:
    """``data_check``: the unsigned byte sum of the payload, modulo 2**32."""
    return sum(data) & 0xFFFFFFFF


def parse_header(header: bytes, max_payload: int = MAX_PAYLOAD) -> tuple[int, int, int, int]:
    """Check a 24-byte header; returns ``(command, arg0, arg1, data_length)``.

    :class:`ProtocolError` for a short header, a magic that does not match, an unknown
    command or a payload longer than ``max_payload`` (a CNXN longer than
    :data:`MAX_CNXN_PAYLOAD`)."""
    if len(header) != HEADER_SIZE:
        raise ProtocolError(f"truncated header: {len(header)} of {HEADER_SIZE} bytes")
    command, arg0, arg1, length, _check, magic = HEADER.unpack(header)
    if magic != command ^ 0xFFFFFFFF:
        raise ProtocolError(f"bad magic 0x{magic:08x} for command 0x{command:08x}")
    if command not in COMMAND_NAMES:
        raise ProtocolError(f"unknown command 0x{command:08x}")
    limit = MAX_CNXN_PAYLOAD if command == A_CNXN else max_payload
    if length > limit:
        raise ProtocolError(f"{COMMAND_NAMES[command]} payload of {length} bytes is over "
                            f"the {limit}-byte limit")
    return command, arg0, arg1, length


class PacketReader:
    """Turns a byte stream into packets, however it is split: ``feed`` bytes, get packets.

    Raises :class:`ProtocolError` as soon as a header is malformed."""

    def __init__(self, max_payload: int = MAX_PAYLOAD) -> None:
        self.max_payload = max_payload
        self._buf = bytearray()
        self._head: tuple[int, int, int, int] | None = None

    def feed(self, data: bytes) -> list[Packet]:
        """Add bytes; return every packet now complete, in order."""
        self._buf += data
        out: list[Packet] = []
        while True:
            if self._head is None:
                if len(self._buf) < HEADER_SIZE:
                    return out
                self._head = parse_header(bytes(self._buf[:HEADER_SIZE]), self.max_payload)
                del self._buf[:HEADER_SIZE]
            command, arg0, arg1, length = self._head
            if len(self._buf) < length:
                return out
            payload = bytes(self._buf[:length])
            del self._buf[:length]
            self._head = None
            out.append(Packet(command, arg0, arg1, payload))

    @property
    def pending(self) -> int:
        """Bytes received that do not yet make a whole packet."""
        return len(self._buf) + (HEADER_SIZE if self._head is not None else 0)


# -- the banner --------------------------------------------------------------------------
_BANNER_BAD = str.maketrans({":": "_", ";": "_", "=": "_"})


def device_banner(props: dict[str, str], features: tuple[str, ...] = ("cmd",)) -> bytes:
    """The device's CNXN payload: ``device::ro.product.name=N;ro.product.model=M;...;
    features=cmd``. Characters the banner cannot carry (``:;=``) become ``_``."""
    keys = ("ro.product.name", "ro.product.model", "ro.product.device")
    parts = [f"{k}={str(props.get(k, '')).translate(_BANNER_BAD)}" for k in keys]
    parts.append("features=" + ",".join(features))
    return ("device::" + ";".join(parts)).encode()


def service_name(payload: bytes) -> str:
    """An OPEN's service string, trailing NULs stripped (``b"shell:ls\\0"`` -> ``"shell:ls"``).
    Undecodable bytes become U+FFFD."""
    return payload.rstrip(b"\0").decode("utf-8", "replace")


# -- sync framing --------------------------------------------------------------------------
SYNC_ID = struct.Struct("<4sI")
#: the largest path a sync request may carry
SYNC_MAX_PATH = 1024
#: the largest DATA chunk in either direction
SYNC_MAX_DATA = 64 * 1024


def sync_message(ident: bytes, value: int, payload: bytes = b"") -> bytes:
    """A sync frame: 4-byte id, u32, then ``payload`` (``DATA``/``FAIL`` carry ``value`` =
    ``len(payload)``)."""
    return SYNC_ID.pack(ident, value & 0xFFFFFFFF) + payload


def sync_stat(mode: int, size: int, mtime: int) -> bytes:
    """A ``STAT`` reply: mode, size and mtime (all zero: the path does not exist)."""
    return b"STAT" + struct.pack("<3I", mode & 0xFFFFFFFF, size & 0xFFFFFFFF,
                                 mtime & 0xFFFFFFFF)


def sync_dent(mode: int, size: int, mtime: int, name: bytes) -> bytes:
    """One ``DENT`` of a ``LIST`` reply."""
    return b"DENT" + struct.pack("<4I", mode & 0xFFFFFFFF, size & 0xFFFFFFFF,
                                 mtime & 0xFFFFFFFF, len(name)) + name


def sync_fail(message: str) -> bytes:
    """A ``FAIL`` frame with its message."""
    data = message.encode("utf-8", "replace")
    return sync_message(b"FAIL", len(data), data)
