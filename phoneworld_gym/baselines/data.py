"""Trajectory datasets on disk: one Parquet shard per episode, a manifest, and loading and
mixing as Hugging Face ``datasets``.

Layout of a collection folder::

    out_dir/
        dataset.json          what every shard holds (the columns; screenshots or not)
        manifest.jsonl        one line per committed episode: key, shard, rows, sha256, result
        episodes/<id>.parquet one episode, one row per step

**Commit protocol.** An episode is written to ``episodes/<id>.parquet.tmp``, renamed to its
final name, and only then recorded by a line appended to the manifest: an episode is in the
dataset exactly when its manifest line is there and its shard matches the line's size and
SHA-256. What a crash leaves behind is found by :meth:`EpisodeStore.recover`: a ``.tmp`` file
(a half-written shard), a shard without a manifest line (the crash fell between rename and
record), a shard that is missing, truncated or altered, or a torn last manifest line. Each is
removed with a message naming it, so that the episode is collected again; nothing committed
and intact is ever lost or written twice. Nothing is fsynced by default: a killed process
loses nothing it wrote, and what a power cut could tear the size and checksum catch;
``EpisodeStore(durable=True)`` syncs each write.

Rows (see :data:`COLUMNS`): the observation before the action (goal, tree, element list,
optionally the screenshot), the action as AndroidWorld JSON, and what the step returned
(reward, done, the error sentence of a meaningless action). The reward is the verifier's
score on the episode's last step and 0 before, so an episode's rewards sum to its score.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import math
import os
import socket
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import datasets
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

log = logging.getLogger(__name__)

SOURCES = ("mock", "device", "human")
FORMAT_VERSION = 1
MANIFEST = "manifest.jsonl"
INFO = "dataset.json"
SHARDS = "episodes"
LOCK = ".lock"

#: The columns of a trajectory dataset and what each holds (``screenshot`` only when the
#: collection was made with screenshots).
COLUMNS: dict[str, tuple[datasets.Value | datasets.Image, str]] = {
    "episode_id": (datasets.Value("string"), "a stable id of the episode (from its key)"),
    "step": (datasets.Value("int32"), "index of the step in the episode, from 0"),
    "source": (datasets.Value("string"), "mock, device or human"),
    "agent": (datasets.Value("string"), "the agent's name (oracle, random, ...)"),
    "env_id": (datasets.Value("string"), "the Gymnasium id played"),
    "task": (datasets.Value("string"), "the task id"),
    "category": (datasets.Value("string"), "the task's category"),
    "task_split": (datasets.Value("string"), "train or test: the task's held-out split"),
    "template": (datasets.Value("string"), "the goal wording the episode got"),
    "params": (datasets.Value("string"), "the task's parameters as JSON"),
    "seed": (datasets.Value("int64"), "the reset seed"),
    "goal": (datasets.Value("string"), "the instruction, as in the observation"),
    "tree": (datasets.Value("string"), "the accessibility tree (uiautomator XML) before the "
                                       "action"),
    "elements": (datasets.Value("string"), "the indexed element list as text, one line per "
                                           "element (phoneworld_gym.wrappers."
                                           "describe_elements)"),
    "action": (datasets.Value("string"), "the action taken, as AndroidWorld JSON"),
    "action_type": (datasets.Value("string"), "the action's type"),
    "action_error": (datasets.Value("string"), "why the action was meaningless on screen, "
                                               "else ''"),
    "reward": (datasets.Value("float64"), "the step's reward (the verifier's score on the "
                                          "last step, else 0)"),
    "done": (datasets.Value("bool"), "the episode ended at this step"),
    "terminated": (datasets.Value("bool"), "ended by the agent (status or answer)"),
    "truncated": (datasets.Value("bool"), "ended by the step budget"),
    "success": (datasets.Value("bool"), "the episode succeeded (set on its last step)"),
    "screenshot": (datasets.Image(), "the screen before the action (PNG)"),
}


def features(screenshots: bool) -> datasets.Features:
    """The dataset's features, with or without the ``screenshot`` column."""
    return datasets.Features({k: v for k, (v, _) in COLUMNS.items()
                              if screenshots or k != "screenshot"})


@dataclasses.dataclass(frozen=True)
class EpisodeKey:
    """What identifies an episode in a collection: a rerun skips the keys already there."""

    source: str
    agent: str
    env_id: str
    task: str
    seed: int
    split: str | None = None
    max_steps: int | None = None
    #: which of several attempts at the same instance (``eval --attempts k``); 0 is left out
    #: of the stored key and the id, so keys made before attempts existed are unchanged
    attempt: int = 0

    @property
    def episode_id(self) -> str:
        """A file-safe id: the task, the seed and a digest of the whole key."""
        text = json.dumps(self.as_dict(), sort_keys=True)
        digest = hashlib.sha256(text.encode()).hexdigest()[:12]
        return f"{self.task}-s{self.seed}-{digest}"

    def as_dict(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        if not self.attempt:
            del out["attempt"]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EpisodeKey:
        source, agent, env_id, task = (str(data[k]) for k in ("source", "agent", "env_id",
                                                               "task"))
        seed, split, max_steps = data["seed"], data.get("split"), data.get("max_steps")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"seed must be an int, got {seed!r}")
        attempt = data.get("attempt", 0)
        if isinstance(attempt, bool) or not isinstance(attempt, int) or attempt < 0:
            raise TypeError(f"attempt must be an int >= 0, got {attempt!r}")
        return cls(source, agent, env_id, task, seed, split, max_steps, attempt)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _fsync_dir(path: Path) -> None:
    """Make a rename in ``path`` durable (a no-op where directories cannot be opened)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class EpisodeStore:
    """A collection folder (see the module docstring), opened for writing.

    ``screenshots`` fixes the columns of every shard: a folder made with screenshots only
    takes episodes with screenshots, and the other way round (``ValueError`` otherwise), so
    that the shards always concatenate. Use as a context manager: it holds a lock file so that
    two collections never write to one folder at once."""

    def __init__(self, out_dir: str | os.PathLike[str], *, screenshots: bool,
                 durable: bool = False):
        self.root = Path(out_dir)
        #: fsync each shard, the folder and the manifest (slower; for power cuts)
        self.durable = bool(durable)
        self.screenshots = bool(screenshots)
        self.features = features(self.screenshots)
        self.schema = self.features.arrow_schema
        #: messages about what recovery removed (also logged as warnings)
        self.messages: list[str] = []
        self.entries: dict[EpisodeKey, dict[str, Any]] = {}
        self._locked = False

    # -- opening -------------------------------------------------------------------------
    def __enter__(self) -> EpisodeStore:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def open(self) -> None:
        """Create or check the folder, take the lock, and recover from any crash."""
        if self.root.exists() and not self.root.is_dir():
            raise ValueError(f"out_dir {str(self.root)!r} exists and is not a folder")
        if self.root.is_dir() and not (self.root / INFO).exists():
            other = sorted(p.name for p in self.root.iterdir()
                           if p.name not in (LOCK, INFO + ".tmp"))
            if other:
                raise ValueError(f"out_dir {str(self.root)!r} is not empty and not a trajectory "
                                 f"collection (no {INFO}; it holds {other[:5]}); use a new or "
                                 f"empty folder")
        self.root.mkdir(parents=True, exist_ok=True)
        self._lock()
        try:
            self._check_info()
            (self.root / SHARDS).mkdir(exist_ok=True)
            self.recover()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Release the lock."""
        if self._locked:
            (self.root / LOCK).unlink(missing_ok=True)
            self._locked = False

    def _lock(self) -> None:
        path = self.root / LOCK
        me = f"{os.getpid()} {socket.gethostname()}"
        for _ in range(2):
            try:
                fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                holder = path.read_text().split()
                pid = int(holder[0]) if holder and holder[0].isdigit() else -1
                host = holder[1] if len(holder) > 1 else ""
                if pid > 0 and host == socket.gethostname() and _pid_alive(pid):
                    raise RuntimeError(
                        f"another collection (pid {pid}) is writing to {self.root}; wait for "
                        f"it or use another out_dir") from None
                if host and host != socket.gethostname():
                    raise RuntimeError(
                        f"{path} says process {pid} on {host} is writing to {self.root}; this "
                        f"machine cannot tell whether it still runs: delete the lock once it "
                        f"has stopped") from None
                self._note(f"removed a stale lock of process {' '.join(holder) or '?'} (it "
                           f"ended without releasing {path})")
                path.unlink(missing_ok=True)
                continue
            with os.fdopen(fd, "w") as f:
                f.write(me)
            self._locked = True
            return
        raise RuntimeError(f"could not take the lock {path}")

    def _check_info(self) -> None:
        path = self.root / INFO
        info = {"format": FORMAT_VERSION, "screenshots": self.screenshots,
                "columns": {k: doc for k, (_, doc) in COLUMNS.items()
                            if self.screenshots or k != "screenshot"}}
        if path.exists():
            try:
                have = json.loads(path.read_text())
            except ValueError as e:
                raise ValueError(f"{path} is not valid JSON ({e}); is {self.root} a "
                                 f"trajectory collection?") from None
            if have.get("format") != FORMAT_VERSION:
                raise ValueError(f"{path}: format {have.get('format')!r}, this code writes "
                                 f"format {FORMAT_VERSION}")
            if bool(have.get("screenshots")) != self.screenshots:
                raise ValueError(
                    f"{self.root} was collected with screenshots={have.get('screenshots')}; "
                    f"collect with the same setting (got screenshots={self.screenshots}) or "
                    f"into another out_dir, so that every shard has the same columns")
            return
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(info, indent=1) + "\n")
        os.replace(tmp, path)

    def _note(self, message: str) -> None:
        log.warning(message)
        self.messages.append(message)

    # -- recovery ------------------------------------------------------------------------
    def recover(self) -> None:
        """Read the manifest and bring the folder back to exactly its intact episodes."""
        shards = self.root / SHARDS
        for tmp in sorted(shards.glob("*.tmp")):
            tmp.unlink()
            self._note(f"removed the half-written shard {tmp.name} (a collection was "
                       f"interrupted while writing it); its episode will be collected again")
        entries, rewrite = read_manifest(self.root, on_problem=self._note)
        path = self.root / MANIFEST
        if path.exists() and path.stat().st_size and not path.read_bytes().endswith(b"\n"):
            rewrite = True  # a record without its newline: the next one must not join it
        kept: dict[EpisodeKey, dict[str, Any]] = {}
        for key, entry in entries.items():
            problem = check_shard(self.root, entry)
            if problem:
                (shards / entry["file"]).unlink(missing_ok=True)
                self._note(f"episode {entry['episode_id']}: {problem}; removed, it will be "
                           f"collected again")
                rewrite = True
                continue
            kept[key] = entry
        listed = {e["file"] for e in kept.values()}
        for path in sorted(shards.glob("*.parquet")):
            if path.name not in listed:
                path.unlink()
                self._note(f"removed the shard {path.name}, which the manifest does not list "
                           f"(a collection stopped between writing and recording it); its "
                           f"episode will be collected again")
        self.entries = kept
        if rewrite:
            self._write_manifest()

    def _write_manifest(self) -> None:
        path = self.root / MANIFEST
        tmp = path.with_suffix(".jsonl.tmp")
        with open(tmp, "w") as f:
            for entry in self.entries.values():
                f.write(json.dumps(entry, sort_keys=True) + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        _fsync_dir(self.root)

    # -- writing -------------------------------------------------------------------------
    def has(self, key: EpisodeKey) -> bool:
        """Whether the episode is committed."""
        return key in self.entries

    def commit(self, key: EpisodeKey, rows: Sequence[Mapping[str, Any]],
               summary: Mapping[str, Any]) -> dict[str, Any]:
        """Write one episode atomically (see the module docstring); its manifest entry."""
        if not self._locked:
            raise RuntimeError("open the store (a with block) before committing")
        if key in self.entries:
            raise ValueError(f"episode {key.episode_id} is already in {self.root}")
        if not rows:
            raise ValueError(f"episode {key.episode_id} has no steps")
        columns = {name: [r[name] for r in rows] for name in self.schema.names}
        table = pa.Table.from_pydict(columns, schema=self.schema)
        name = f"{key.episode_id}.parquet"
        final = self.root / SHARDS / name
        tmp = final.with_name(name + ".tmp")
        pq.write_table(table, tmp, compression="zstd")
        if self.durable:
            with open(tmp, "rb+") as f:
                os.fsync(f.fileno())
        os.replace(tmp, final)
        if self.durable:
            _fsync_dir(final.parent)
        entry = {"key": key.as_dict(), "episode_id": key.episode_id, "file": name,
                 "rows": len(rows), "bytes": final.stat().st_size, "sha256": _sha256(final),
                 **dict(summary)}
        with open(self.root / MANIFEST, "a") as f:
            f.write(json.dumps(entry, sort_keys=True) + "\n")
            if self.durable:
                f.flush()
                os.fsync(f.fileno())
        self.entries[key] = entry
        return entry


# -- reading ---------------------------------------------------------------------------------
def read_manifest(root: Path, on_problem: Any = None
                  ) -> tuple[dict[EpisodeKey, dict[str, Any]], bool]:
    """The manifest's entries by key, and whether a line had to be dropped (a torn or
    repeated line); ``on_problem(message)`` hears about each."""
    path = root / MANIFEST
    entries: dict[EpisodeKey, dict[str, Any]] = {}
    dropped = False
    if not path.exists():
        return entries, False
    for n, raw in enumerate(path.read_bytes().splitlines(), 1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            # the manifest is ASCII JSON, so an interrupted append (a torn line) is still
            # text: bytes that are not are damage, and guessing which episode they held could
            # delete a committed shard. Nothing is changed; the person decides.
            raise ValueError(
                f"{path} line {n} is not text (byte 0x{raw[e.start]:02x} at column "
                f"{e.start + 1}): the manifest is damaged, not torn by an interrupted "
                f"collection. Nothing was changed. Restore {path.name} from a copy, or delete "
                f"line {n} to collect that episode again (its shard is then removed as "
                f"unlisted on the next run)") from None
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
            key = EpisodeKey.from_dict(entry["key"])
            entry["file"], entry["rows"], entry["sha256"]  # noqa: B018 (must be present)
        except (ValueError, KeyError, TypeError) as e:
            dropped = True
            if on_problem is not None:
                on_problem(f"{path.name} line {n} is unreadable ({type(e).__name__}: {e}); "
                           f"dropped (a collection was interrupted while recording)")
            continue
        if key in entries:
            dropped = True
            if on_problem is not None:
                on_problem(f"{path.name} line {n} repeats episode {entry['episode_id']}; "
                           f"dropped")
            continue
        entries[key] = entry
    return entries, dropped


def check_shard(root: Path, entry: Mapping[str, Any], *, verify: bool = True) -> str:
    """Why the entry's shard is not intact ("" when it is): missing, another size, another
    SHA-256 (with ``verify``), or not the rows the manifest says."""
    path = root / SHARDS / str(entry["file"])
    if not path.is_file():
        return f"its shard {path.name} is missing"
    size = path.stat().st_size
    if "bytes" in entry and size != entry["bytes"]:
        return f"its shard {path.name} has {size} bytes, the manifest says {entry['bytes']} " \
               f"(truncated or overwritten)"
    if verify and _sha256(path) != entry["sha256"]:
        return f"its shard {path.name} does not match its SHA-256 (corrupt)"
    try:
        rows = pq.ParquetFile(path).metadata.num_rows
    except (pa.ArrowException, OSError) as e:
        return f"its shard {path.name} is not readable Parquet ({e})"
    if rows != entry["rows"]:
        return f"its shard {path.name} has {rows} rows, the manifest says {entry['rows']}"
    return ""


def manifest(out_dir: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The committed episodes' entries (key, file, rows, result), in key order."""
    root = Path(out_dir)
    if not (root / INFO).exists():
        raise ValueError(f"{str(root)!r} is not a trajectory collection (no {INFO}); make one "
                         f"with phoneworld_gym.baselines.collect")
    entries, _ = read_manifest(root)
    return [entries[k] for k in sorted(entries, key=_order)]


def _order(key: EpisodeKey) -> tuple[Any, ...]:
    return (key.source, key.agent, key.env_id, key.split or "", key.max_steps or 0, key.task,
            key.seed)


def shard_files(out_dir: str | os.PathLike[str], *, verify: bool = True) -> list[Path]:
    """The committed shards, in key order (for ``datasets.load_dataset("parquet",
    data_files=...)`` on collections too big for memory). ``ValueError`` names a shard that
    is not intact (rerun the collection to recollect it)."""
    root = Path(out_dir)
    out = []
    for entry in manifest(root):
        problem = check_shard(root, entry, verify=verify)
        if problem:
            raise ValueError(f"{root}: episode {entry['episode_id']}: {problem}; run the "
                             f"collection again to recollect it")
        out.append(root / SHARDS / entry["file"])
    return out


def load(out_dir: str | os.PathLike[str], *, verify: bool = True) -> datasets.Dataset:
    """Every committed episode of a collection as one in-memory ``datasets.Dataset`` (rows in
    key order, then step order). Half-written shards are never read; a committed shard that
    is not intact raises ``ValueError`` naming it."""
    root = Path(out_dir)
    files = shard_files(root, verify=verify)
    if not files:
        raise ValueError(f"{str(root)!r} holds no finished episode yet")
    try:
        info = json.loads((root / INFO).read_text())
    except ValueError as e:  # not UTF-8, or not JSON
        raise ValueError(f"{root / INFO} is not valid JSON ({e}); restore it from a copy or "
                         f"collect into a new folder") from None
    feats = features(bool(info.get("screenshots")))
    table = pa.concat_tables([pq.read_table(f, schema=feats.arrow_schema) for f in files])
    return datasets.Dataset(table, info=datasets.DatasetInfo(features=feats))


def load_by(out_dir: str | os.PathLike[str], column: str = "task_split", *,
            verify: bool = True) -> datasets.DatasetDict:
    """A collection as a ``DatasetDict`` keyed by the values of ``column`` (``task_split``:
    train and test tasks; ``source``; ``agent``; ...)."""
    ds = load(out_dir, verify=verify)
    if column not in ds.column_names:
        raise ValueError(f"no column {column!r}; columns: {ds.column_names}")
    values = ds[column]
    groups: dict[str, list[int]] = {}
    for i, v in enumerate(values):
        groups.setdefault(str(v), []).append(i)
    return datasets.DatasetDict({k: ds.select(idx) for k, idx in sorted(groups.items())})


# -- mixing ----------------------------------------------------------------------------------
def episodes_of(ds: datasets.Dataset) -> dict[str, list[int]]:
    """Row indices of each episode (in step order), episodes in order of first appearance."""
    for col in ("episode_id", "step"):
        if col not in ds.column_names:
            raise ValueError(f"a trajectory dataset needs the column {col!r}; got "
                             f"{ds.column_names}")
    ids = list(ds["episode_id"])
    steps = list(ds["step"])
    out: dict[str, list[int]] = {}
    for i, e in enumerate(ids):
        out.setdefault(e, []).append(i)
    for rows in out.values():
        rows.sort(key=lambda i: steps[i])
    return out


def quotas(sizes: Mapping[str, int], ratios: Mapping[str, float], total: int | None,
           replace: bool) -> dict[str, int]:
    """Episodes to draw from each source: proportional to ``ratios`` (largest remainders),
    ``total`` in all, or, without ``total``, as many as fit without drawing an episode twice."""
    weights = {s: float(ratios[s]) for s in sizes}
    norm = sum(weights.values())
    share = {s: w / norm for s, w in weights.items()}
    if total is None:
        total = min(math.floor(sizes[s] / p + 1e-9) for s, p in share.items() if p > 0)
    exact = {s: total * p for s, p in share.items()}
    out = {s: math.floor(v) for s, v in exact.items()}
    rest = total - sum(out.values())
    for s in sorted(exact, key=lambda s: (-(exact[s] - out[s]), s))[:rest]:
        out[s] += 1
    if not replace:
        short = {s: (q, sizes[s]) for s, q in out.items() if q > sizes[s]}
        if short:
            raise ValueError("not enough episodes for the ratio without repeating any: "
                             + ", ".join(f"{s} needs {q}, has {n}"
                                         for s, (q, n) in sorted(short.items()))
                             + " (pass replace=True to repeat episodes, or fewer n_episodes)")
    return out


def _draw(rng: np.random.Generator, n: int, q: int) -> list[int]:
    """``q`` of ``n`` episodes: whole passes over all of them, then a sample without repeats."""
    whole, part = divmod(q, n)
    picks = [i for _ in range(whole) for i in range(n)]
    return picks + [int(i) for i in rng.choice(n, size=part, replace=False)]


def mix(datasets_by_source: Mapping[str, datasets.Dataset], ratios: Mapping[str, float],
        seed: int = 0, *, n_episodes: int | None = None, replace: bool = False
        ) -> datasets.Dataset:
    """An SFT mixture drawn by *episode*, not by step, so that long episodes do not outweigh
    short ones and every episode stays whole.

    ``ratios`` weighs the sources (``{"device": 1, "mock": 3}``: a quarter of the episodes
    from the phone); its keys must be those of ``datasets_by_source``. The mixture holds
    ``n_episodes`` episodes, or by default the most that fit the ratio without repeating an
    episode. With ``replace=True`` a scarce source is upsampled: its episodes are repeated in
    whole passes (then a sample of it), and each repeat gets its own ``episode_id``
    (``<id>#r1``, ...). Episodes come in a seeded random order, each one's steps together and
    in order. ``ValueError`` names what is wrong: sources without a ratio, a negative ratio,
    sources whose columns differ, a source too small for its share without ``replace``.
    """
    names = set(datasets_by_source)
    if set(ratios) != names:
        raise ValueError(f"ratios and datasets_by_source must name the same sources: ratios "
                         f"{sorted(ratios)}, datasets {sorted(names)}")
    if not names:
        raise ValueError("no sources to mix")
    for s, r in ratios.items():
        if not (isinstance(r, (int, float)) and math.isfinite(r) and r >= 0):
            raise ValueError(f"ratio of {s!r} must be a finite number >= 0, got {r!r}")
    if sum(ratios.values()) <= 0:
        raise ValueError(f"the ratios sum to 0: {dict(ratios)}")
    if n_episodes is not None and (isinstance(n_episodes, bool) or not isinstance(
            n_episodes, int) or n_episodes < 1):
        raise ValueError(f"n_episodes must be a positive int or None, got {n_episodes!r}")
    order = sorted(names)
    first = datasets_by_source[order[0]].features
    for s in order[1:]:
        if datasets_by_source[s].features != first:
            a, b = set(first), set(datasets_by_source[s].features)
            diff = (f"only in {order[0]}: {sorted(a - b)}, only in {s}: {sorted(b - a)}"
                    if a != b else "the same names with other types")
            raise ValueError(f"sources {order[0]!r} and {s!r} have different columns ({diff});"
                             f" collect them alike (screenshots or not) to mix them")
    groups = {s: episodes_of(datasets_by_source[s]) for s in order}
    for s in order:
        if not groups[s] and ratios[s] > 0:
            raise ValueError(f"source {s!r} has no episodes but a ratio of {ratios[s]}")
    owner: dict[str, str] = {}
    for s in order:
        for e in groups[s]:
            if e in owner:
                raise ValueError(f"episode {e!r} is in both {owner[e]!r} and {s!r}; a mixture "
                                 f"draws each episode from one source")
            owner[e] = s
    sizes = {s: len(groups[s]) for s in order}
    want = quotas(sizes, ratios, n_episodes, replace)
    rng = np.random.default_rng(seed)
    drawn: list[tuple[str, str, int]] = []  # (source, episode id, repeat)
    for s in order:
        ids = list(groups[s])
        seen: dict[str, int] = {}
        for i in _draw(rng, len(ids), want[s]) if want[s] else []:
            e = ids[i]
            drawn.append((s, e, seen.get(e, 0)))
            seen[e] = seen.get(e, 0) + 1
    offsets = dict(zip(order, np.cumsum([0] + [len(datasets_by_source[s]) for s in order])))
    indices: list[int] = []
    new_ids: list[str] = []
    for j in rng.permutation(len(drawn)):
        s, e, repeat = drawn[int(j)]
        rows = groups[s][e]
        indices += [int(offsets[s]) + r for r in rows]
        new_ids += [e if repeat == 0 else f"{e}#r{repeat}"] * len(rows)
    if not indices:
        raise ValueError(f"the mixture is empty (quotas {want})")
    everything = datasets.concatenate_datasets([datasets_by_source[s] for s in order])
    out = everything.select(indices)
    if all(r == 0 for _, _, r in drawn):
        return out
    quiet = datasets.utils.are_progress_bars_disabled()
    datasets.utils.disable_progress_bars()  # the new column flattens the selection
    try:
        out = out.remove_columns("episode_id").add_column("episode_id", new_ids)
    finally:
        if not quiet:
            datasets.utils.enable_progress_bars()
    return out.select_columns(list(first))
