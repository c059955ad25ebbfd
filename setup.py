"""Build hook: the wheel carries the Coq library's sources as package data.

``pyproject.toml`` holds the metadata; this adds one step to ``build_py``: copy
``coq/_CoqProject``, ``coq/Makefile``, ``coq/results.toml`` and every ``.v`` file
``_CoqProject`` lists into ``pybridge/_library/coq`` of the build (never build
outputs). At run time :mod:`pybridge.coq.library_home` builds them on first use.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


def library_files(coq: Path) -> list[Path]:
    """The files of the library a user needs to build it (relative to ``coq``)."""
    files = [Path("_CoqProject"), Path("Makefile"), Path("results.toml")]
    for line in (coq / "_CoqProject").read_text().splitlines():
        line = line.strip()
        if line.endswith(".v") and not line.startswith("-"):
            files.append(Path(line))
    files += [p.relative_to(coq) for p in coq.glob("*.opam")]
    return files


class BuildWithLibrary(build_py):
    def run(self) -> None:
        super().run()
        coq = HERE / "coq"
        if not (coq / "_CoqProject").is_file():
            return  # building from an sdist without the library: nothing to add
        target = Path(self.build_lib) / "pybridge" / "_library" / "coq"
        shutil.rmtree(target, ignore_errors=True)
        for rel in library_files(coq):
            dest = target / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(coq / rel, dest)


setup(cmdclass={"build_py": BuildWithLibrary})
