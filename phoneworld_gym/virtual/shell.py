"""A small, safe command interpreter that reads ``sh`` syntax: what ``adb shell CMD`` sends.

It parses a command line the way Android's ``/system/bin/sh`` would and hands each simple
command's words to a Python function; it never starts a process and never reaches a real
shell. Supported:

- quoting: ``'single'`` (literal), ``"double"`` (``$`` expansions; ``\\`` escapes
  ``$ ` " \\`` and newline), backslash outside quotes, backslash-newline continuation;
- lists: ``;`` and newlines, ``&&``, ``||``, pipelines ``a | b`` (the left side's output is
  the right side's input), ``# comments``;
- expansions: ``$?`` (the last exit status), ``$$``, ``$NAME`` and ``${NAME}`` from a small
  environment (unset names are empty); ``NAME=value`` alone sets a variable;
- redirections: ``> file``, ``>> file``, ``< file``, ``2> file``, ``2>> file``, ``2>&1``,
  ``>&2`` (files are the phone's storage, ``/dev/null`` included);
- builtins: ``echo [-n]``, ``true``, ``false``, ``:``, ``exit [N]``.

Refused with a syntax error (exit status 2, nothing run): command substitution (``$(...)``,
backticks), arithmetic (``$((...))``), background ``&``, subshells and groups ``( )``,
``if``/``for``/``while`` and other compound commands are not recognised as keywords (they
are "not found"). Globs (``*``) are not expanded. Expanded variables are not word-split.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

#: the most bytes of script one call runs
MAX_SCRIPT = 256 * 1024
#: the most bytes a command's output may reach before it is cut off
MAX_OUTPUT = 64 << 20
SH = "/system/bin/sh"


class ShellSyntaxError(ValueError):
    """A command line the interpreter cannot (or will not) parse."""


@dataclasses.dataclass(frozen=True)
class Var:
    """A ``$NAME`` expansion inside a word, resolved when the command runs."""

    name: str


Part = str | Var


@dataclasses.dataclass
class Word:
    """One shell word: literal text and expansions, quotes already removed."""

    parts: list[Part]
    #: whether any part of it was quoted or escaped (so ``""`` is still a word)
    quoted: bool = False
    #: the plain, unquoted text it starts with (``NAME=`` of an assignment)
    head: str = ""

    def literal(self) -> str | None:
        """The word's text when it has no expansions, else ``None``."""
        if any(isinstance(p, Var) for p in self.parts):
            return None
        return "".join(p for p in self.parts if isinstance(p, str))


@dataclasses.dataclass(frozen=True)
class Op:
    """An operator token: ``; && || | & ( ) newline`` or a redirection."""

    text: str
    #: the file descriptor written before a redirection (``2>``), or ``None``
    fd: int | None = None


Token = Word | Op

_OPERATORS = ("&&", "||", ">>", ">&", ";;", ";", "|", "&", "(", ")", ">", "<", "\n")
_REDIRECTS = (">", ">>", "<", ">&")
_NAME_START = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"
_NAME_CHARS = _NAME_START + "0123456789"


def tokenize(text: str) -> list[Token]:
    """Split a command line into words and operators (:class:`ShellSyntaxError` when it is
    malformed or uses a refused feature)."""
    if len(text) > MAX_SCRIPT:
        raise ShellSyntaxError(f"command line longer than {MAX_SCRIPT} bytes")
    tokens: list[Token] = []
    parts: list[Part] = []
    buf: list[str] = []
    quoted = False
    in_word = False
    head: list[str] = []
    head_open = True
    i, n = 0, len(text)

    def flush_text() -> None:
        if buf:
            parts.append("".join(buf))
            buf.clear()

    def end_word() -> None:
        nonlocal parts, quoted, in_word, head_open
        flush_text()
        if in_word:
            tokens.append(Word(parts, quoted, "".join(head)))
        parts, quoted, in_word, head_open = [], False, False, True
        head.clear()

    def close_head() -> None:
        nonlocal head_open
        head_open = False

    def dollar(j: int) -> int:
        """Read an expansion at ``text[j] == '$'``; return the index after it."""
        nxt = text[j + 1] if j + 1 < n else ""
        if nxt == "(":
            raise ShellSyntaxError("command substitution $(...) is not supported")
        if nxt in ("?", "$", "#", "!", "@", "*") or nxt.isdigit():
            flush_text()
            parts.append(Var(nxt))
            return j + 2
        if nxt == "{":
            end = text.find("}", j + 2)
            name = text[j + 2:end] if end >= 0 else ""
            if end < 0 or not name or not (name in ("?", "$", "#") or
                                           (name[0] in _NAME_START and
                                            all(c in _NAME_CHARS for c in name))):
                raise ShellSyntaxError("bad substitution")
            flush_text()
            parts.append(Var(name))
            return end + 1
        if nxt and nxt in _NAME_START:
            k = j + 1
            while k < n and text[k] in _NAME_CHARS:
                k += 1
            flush_text()
            parts.append(Var(text[j + 1:k]))
            return k
        buf.append("$")  # a lone $ is itself
        return j + 1

    while i < n:
        c = text[i]
        if c in "\\'\"$`":
            close_head()
        if c == "\\":
            if i + 1 < n and text[i + 1] == "\n":
                i += 2  # line continuation
                continue
            if i + 1 < n:
                buf.append(text[i + 1])
            in_word = quoted = True
            i += 2
            continue
        if c == "'":
            end = text.find("'", i + 1)
            if end < 0:
                raise ShellSyntaxError("unterminated quoted string")
            buf.append(text[i + 1:end])
            in_word = quoted = True
            i = end + 1
            continue
        if c == '"':
            in_word = quoted = True
            i += 1
            while True:
                if i >= n:
                    raise ShellSyntaxError("unterminated quoted string")
                c = text[i]
                if c == '"':
                    i += 1
                    break
                if c == "\\" and i + 1 < n and text[i + 1] in '$`"\\\n':
                    if text[i + 1] != "\n":
                        buf.append(text[i + 1])
                    i += 2
                elif c == "`":
                    raise ShellSyntaxError("command substitution `...` is not supported")
                elif c == "$":
                    i = dollar(i)
                else:
                    buf.append(c)
                    i += 1
            continue
        if c == "`":
            raise ShellSyntaxError("command substitution `...` is not supported")
        if c == "$":
            in_word = True
            i = dollar(i)
            continue
        if c in " \t\r":
            end_word()
            i += 1
            continue
        if c == "#" and not in_word:
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        op = next((o for o in _OPERATORS if text.startswith(o, i)), None)
        if op is not None:
            fd = None
            if op in _REDIRECTS and in_word and not quoted and not parts and buf \
                    and "".join(buf).isdigit() and len(buf) < 3:
                fd = int("".join(buf))  # "2>": the digits are the fd, not a word
                buf.clear()
                in_word = False
            end_word()
            tokens.append(Op(op, fd))
            i += len(op)
            continue
        buf.append(c)
        if head_open:
            head.append(c)
        in_word = True
        i += 1
    end_word()
    return tokens


@dataclasses.dataclass
class Redirect:
    """``[fd]op target``: ``op`` is ``>``, ``>>``, ``<`` or ``>&`` (target ``"1"``/``"2"``)."""

    fd: int
    op: str
    target: Word


@dataclasses.dataclass
class Command:
    """One simple command: assignments, words and redirections."""

    assigns: list[tuple[str, Word]]
    words: list[Word]
    redirects: list[Redirect]


Pipeline = list[Command]
#: an and-or list: the first pipeline with "", then ("&&" | "||", pipeline) pairs
AndOr = list[tuple[str, Pipeline]]


def _is_op(token: Token | None, *texts: str) -> bool:
    """Whether ``token`` is an operator among ``texts``."""
    return isinstance(token, Op) and token.text in texts


class _Parser:
    """Recursive descent over the tokens of one command line."""

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.i = 0

    def peek(self) -> Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def skip_newlines(self) -> None:
        while _is_op(self.peek(), "\n"):
            self.i += 1

    def script(self) -> list[AndOr]:
        out: list[AndOr] = []
        while True:
            self.skip_newlines()
            if self.peek() is None:
                return out
            out.append(self.andor())
            t = self.peek()
            if t is None:
                return out
            if not _is_op(t, ";", "\n"):
                raise ShellSyntaxError(f"syntax error: {_shown(t)} unexpected")
            self.i += 1

    def andor(self) -> AndOr:
        out: AndOr = [("", self.pipeline())]
        while _is_op(self.peek(), "&&", "||"):
            op = self.peek()
            assert isinstance(op, Op)
            self.i += 1
            self.skip_newlines()
            out.append((op.text, self.pipeline()))
        return out

    def pipeline(self) -> Pipeline:
        out: Pipeline = [self.command()]
        while _is_op(self.peek(), "|"):
            self.i += 1
            self.skip_newlines()
            out.append(self.command())
        return out

    def command(self) -> Command:
        cmd = Command([], [], [])
        while True:
            t = self.peek()
            if t is None:
                break
            if isinstance(t, Op):
                if t.text in _REDIRECTS:
                    cmd.redirects.append(self.redirect(t))
                    continue
                if t.text in ("&", "(", ")", ";;"):
                    what = {"&": "background jobs (&) are", "(": "subshells ( ) are",
                            ")": "subshells ( ) are", ";;": "';;' is"}[t.text]
                    raise ShellSyntaxError(f"syntax error: {what} not supported")
                break
            self.i += 1
            if not cmd.words and _assignment(t.head) and t.parts \
                    and isinstance(t.parts[0], str):
                name = t.head.partition("=")[0]
                value = Word([t.parts[0][len(name) + 1:], *t.parts[1:]], True)
                cmd.assigns.append((name, value))
            else:
                cmd.words.append(t)
        if not (cmd.words or cmd.assigns or cmd.redirects):
            raise ShellSyntaxError(f"syntax error: {_shown(self.peek())} unexpected")
        return cmd

    def redirect(self, op: Op) -> Redirect:
        self.i += 1
        target = self.peek()
        if not isinstance(target, Word):
            raise ShellSyntaxError(f"syntax error: {_shown(target)} unexpected after "
                                   f"{op.text!r}")
        self.i += 1
        fd = op.fd if op.fd is not None else (0 if op.text == "<" else 1)
        if op.text == ">&" and target.literal() not in ("1", "2"):
            raise ShellSyntaxError("only >&1 and >&2 are supported")
        if fd not in (0, 1, 2):
            raise ShellSyntaxError(f"file descriptor {fd} is not supported")
        return Redirect(fd, op.text, target)


def _shown(token: Token | None) -> str:
    """A token as a syntax error names it."""
    if token is None:
        return "end of line"
    if isinstance(token, Op):
        return "newline" if token.text == "\n" else repr(token.text)
    return "word"


def parse(text: str) -> list[AndOr]:
    """Parse a command line into and-or lists (:class:`ShellSyntaxError` when malformed)."""
    return _Parser(tokenize(text)).script()


def _assignment(text: str) -> bool:
    """Whether ``text`` starts ``NAME=``."""
    name, eq, _ = text.partition("=")
    return bool(eq) and bool(name) and name[0] in _NAME_START and \
        all(c in _NAME_CHARS for c in name)


# -- running -------------------------------------------------------------------------------
class OutputLimit(RuntimeError):
    """A command produced more than :data:`MAX_OUTPUT` bytes."""


class Sink:
    """Where a command's output goes: a growing buffer with a size limit."""

    def __init__(self, limit: int = MAX_OUTPUT) -> None:
        self.data = bytearray()
        self.limit = limit

    def write(self, data: bytes) -> None:
        """Append ``data`` (:class:`OutputLimit` past the limit)."""
        if len(self.data) + len(data) > self.limit:
            raise OutputLimit(f"output over {self.limit} bytes")
        self.data += data


class IO:
    """A command's standard streams: ``stdin`` bytes, ``out`` and ``err`` writers."""

    def __init__(self, stdin: bytes, out: Sink, err: Sink) -> None:
        self.stdin = stdin
        self._out = out
        self._err = err

    def out(self, data: bytes | str) -> None:
        """Write to standard output (str is UTF-8 encoded)."""
        self._out.write(data.encode() if isinstance(data, str) else data)

    def err(self, data: bytes | str) -> None:
        """Write to standard error (str is UTF-8 encoded)."""
        self._err.write(data.encode() if isinstance(data, str) else data)


@dataclasses.dataclass
class Env:
    """The shell's state across commands: variables, working folder and last status."""

    vars: dict[str, str] = dataclasses.field(default_factory=dict)
    cwd: str = "/"
    status: int = 0
    pid: int = 4242

    def get(self, name: str) -> str:
        """A variable's value (``$?``, ``$$``, ``$#`` included); unset names are empty."""
        if name == "?":
            return str(self.status)
        if name == "$":
            return str(self.pid)
        if name == "#":
            return "0"
        return self.vars.get(name, "")


#: runs one command: (argv, io, env) -> exit status
CommandRunner = Callable[[list[str], IO, Env], int]
#: redirection files: read(path, env) -> bytes (``OSError`` with a message when missing),
#: write(path, data, append, env)
FileReader = Callable[[str, Env], bytes]
FileWriter = Callable[[str, bytes, bool, Env], None]


class _Exit(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class Shell:
    """Runs command lines against ``run_command`` (the device's commands).

    ``read_file`` and ``write_file`` serve redirections; without them a redirection to
    anything but ``/dev/null`` fails."""

    def __init__(self, run_command: CommandRunner, read_file: FileReader | None = None,
                 write_file: FileWriter | None = None, env: Env | None = None) -> None:
        self.run_command = run_command
        self.read_file = read_file
        self.write_file = write_file
        self.env = env if env is not None else Env()
        #: set once a command line ran ``exit`` (an interactive session ends then)
        self.exited = False

    def run(self, text: str, stdin: bytes = b"") -> tuple[bytes, int]:
        """Run a command line; returns (output with stderr merged in, exit status)."""
        term = Sink()
        code = self.run_into(text, term, term, stdin)
        return bytes(term.data), code

    def run_into(self, text: str, out: Sink, err: Sink, stdin: bytes = b"") -> int:
        """Run a command line writing to ``out`` and ``err``; returns the exit status."""
        try:
            script = parse(text)
        except ShellSyntaxError as e:
            err.write(f"{SH}: {e}\n".encode())
            self.env.status = 2
            return 2
        try:
            for andor in script:
                self._andor(andor, out, err, stdin)
        except _Exit as e:
            self.env.status = e.code
            self.exited = True
        except OutputLimit as e:
            try:
                err.write(f"{SH}: {e}\n".encode())
            except OutputLimit:
                pass
            self.env.status = 1
        return self.env.status

    def _andor(self, andor: AndOr, out: Sink, err: Sink, stdin: bytes) -> None:
        for joiner, pipeline in andor:
            if joiner == "&&" and self.env.status != 0:
                continue
            if joiner == "||" and self.env.status == 0:
                continue
            self.env.status = self._pipeline(pipeline, out, err, stdin)

    def _pipeline(self, pipeline: Pipeline, out: Sink, err: Sink, stdin: bytes) -> int:
        data = stdin
        code = 0
        for k, cmd in enumerate(pipeline):
            last = k == len(pipeline) - 1
            sink = out if last else Sink()
            try:
                code = self._command(cmd, sink, err, data)
            except _Exit as e:
                if last and len(pipeline) == 1:
                    raise
                code = e.code  # exit inside a pipeline leaves only its own subshell
            data = bytes(sink.data) if not last else b""
        return code

    def _command(self, cmd: Command, out: Sink, err: Sink, stdin: bytes) -> int:
        env = self.env
        argv = [self._expand(w) for w in cmd.words]
        if not argv:
            for name, word in cmd.assigns:
                env.vars[name] = self._expand(word)
            if not cmd.redirects:
                return 0
        streams = {0: stdin, 1: out, 2: err}
        pending: list[tuple[str, Sink, bool]] = []
        for r in cmd.redirects:
            target = self._expand(r.target)
            if r.op == "<":
                try:
                    streams[0] = self._read(target)
                except OSError as e:
                    err.write(f"{SH}: {e}\n".encode())
                    return 1
            elif r.op == ">&":
                streams[r.fd] = streams[int(target)]
            else:
                sink = Sink()
                streams[r.fd] = sink
                pending.append((target, sink, r.op == ">>"))
        io_out, io_err = streams.get(1, out), streams.get(2, err)
        assert isinstance(io_out, Sink) and isinstance(io_err, Sink)
        stdin_bytes = streams[0]
        assert isinstance(stdin_bytes, bytes)
        code = 0
        if argv:
            code = self._builtin(argv, IO(stdin_bytes, io_out, io_err))
        for target, sink, append in pending:
            try:
                self._write(target, bytes(sink.data), append)
            except OSError as e:
                err.write(f"{SH}: {e}\n".encode())
                code = 1
        return code

    def _builtin(self, argv: list[str], io: IO) -> int:
        name = argv[0]
        if name == "echo":
            args = argv[1:]
            newline = True
            if args and args[0] == "-n":
                newline, args = False, args[1:]
            io.out(" ".join(args) + ("\n" if newline else ""))
            return 0
        if name in ("true", ":"):
            return 0
        if name == "false":
            return 1
        if name == "exit":
            if len(argv) == 1:
                raise _Exit(self.env.status)
            try:
                raise _Exit(int(argv[1]) & 0xFF)
            except ValueError:
                io.err(f"{SH}: exit: Illegal number: {argv[1]}\n")
                raise _Exit(2) from None
        return self.run_command(argv, io, self.env)

    def _expand(self, word: Word) -> str:
        return "".join(p if isinstance(p, str) else self.env.get(p.name) for p in word.parts)

    def _read(self, path: str) -> bytes:
        if path == "/dev/null":
            return b""
        if self.read_file is None:
            raise OSError(f"{path}: No such file or directory")
        return self.read_file(path, self.env)

    def _write(self, path: str, data: bytes, append: bool) -> None:
        if path == "/dev/null":
            return
        if self.write_file is None:
            raise OSError(f"can't create {path}: Read-only file system")
        self.write_file(path, data, append, self.env)
