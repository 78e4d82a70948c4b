"""Writing files safely: :func:`write_atomic`, the one way every command of the project
writes an output file (pictures, pages, graphs, summaries, the reglib ratchet).

The data goes to a temporary file in the target's folder, which is renamed over the target
only once it is complete: a command that fails half-way (bad input found late, a full disk,
Ctrl-C) leaves an existing file as it was, never truncated.

>>> import os, tempfile
>>> d = tempfile.mkdtemp()
>>> path = os.path.join(d, "out.txt")
>>> write_atomic(path, "one\\n")
>>> write_atomic(path, b"two\\n")
>>> open(path).read(), sorted(os.listdir(d))
('two\\n', ['out.txt'])
"""
from __future__ import annotations

import contextlib
import os
import stat
import uuid


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` (text is encoded as UTF-8; a character UTF-8 cannot hold, a lone
    surrogate, is written as its ``\\udXXX`` escape) to ``path`` through a temporary file in
    the same folder renamed over it, so a failure leaves the old file untouched and no
    temporary file behind.

    A symbolic link is followed (the file it points to is replaced, the link stays); the
    permissions of a replaced file are kept (a new file gets the usual ones: 0o666 less the
    umask). Something that is not a regular file (``/dev/stdout``, a named pipe) is written
    directly: it cannot be replaced. An :class:`OSError` names ``path``, not the temporary
    file.
    """
    raw = data.encode("utf-8", "backslashreplace") if isinstance(data, str) else bytes(data)
    target = os.path.realpath(os.fspath(path))
    try:
        st: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise OSError(e.errno, e.strerror, os.fspath(path)) from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        with open(target, "wb") as f:
            f.write(raw)
        return
    folder, name = os.path.split(target)
    tmp = os.path.join(folder, f".{name}.{uuid.uuid4().hex[:12]}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as e:
        raise OSError(e.errno, e.strerror, os.fspath(path)) from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
        if st is not None:
            os.chmod(tmp, stat.S_IMODE(st.st_mode))
        os.replace(tmp, target)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(e, OSError):
            raise OSError(e.errno, e.strerror, os.fspath(path)) from None
        raise
