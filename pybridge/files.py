"""Writing files atomically: a temporary file in the same directory, then a rename.

Readers never see a partial file, and a failed write leaves no stray temporary.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Optional, Union


def atomic_write_bytes(path: Union[str, Path], data: bytes, *, prefix: str = ".pybridge-",
                       mode: Optional[int] = None) -> None:
    """Write ``data`` to ``path`` atomically (``mode``: its permissions); OSError when it cannot."""
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(path: Union[str, Path], text: str, *, prefix: str = ".pybridge-",
                      mode: Optional[int] = None) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically; OSError when it cannot be written."""
    atomic_write_bytes(path, text.encode("utf-8"), prefix=prefix, mode=mode)
