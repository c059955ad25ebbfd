"""The ``pybridge`` command line. Each subcommand lives in its own module."""

from __future__ import annotations

import importlib
import os
import sys

import click

from pybridge import __version__
from pybridge.errors import EXIT_INTERNAL, BridgeError, one_line
from pybridge.exact.pages import NUMPY_HUGEPAGE_VARIABLE

#: Each command's module, imported only when that command runs or help lists it: a graph
#: query then answers without loading numpy, sympy and z3.
_COMMANDS = {
    "prove": ("prove", "prove_cmd"),
    "graph": ("graph", "graph_cmd"),
    "check": ("check", "check_cmd"),
    "scan": ("check", "scan_cmd"),
    "generate": ("check", "generate_cmd"),
}


class _LazyGroup(click.Group):
    """A group whose commands are imported on use (a failing import: exit 3, one line)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(_COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in _COMMANDS:
            return None
        module, attr = _COMMANDS[cmd_name]
        command = getattr(importlib.import_module(f"{__package__}.{module}"), attr)
        assert isinstance(command, click.Command)
        return command


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="pybridge",
                      message="%(prog)s %(version)s (distribution absorb-bridge)")
def main_group() -> None:
    """Machine-checked answers to: can this MLP block absorb its skip connection?

    The Coq library is found by the backend (PYBRIDGE_ROOT, this checkout, or the copy a
    wheel carries, built in ~/.cache/pybridge the first time Coq is needed).
    """


def main(argv: list[str] | None = None) -> None:
    """Entry point: usage errors and input problems become one line on stderr."""
    # Before NumPy loads (lazily, per command): large arrays on ordinary pages, here and in
    # the scan's workers (pybridge.exact.pages says why).
    os.environ.setdefault(NUMPY_HUGEPAGE_VARIABLE, "0")
    try:
        rc = main_group.main(args=argv, prog_name="pybridge", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as exc:
        click.echo(exc.ctx.get_help() if exc.ctx else str(exc))
        sys.exit(0)
    except click.UsageError as exc:
        click.echo(f"pybridge: error: {exc.format_message()}", err=True)
        sys.exit(2)
    except click.ClickException as exc:
        click.echo(f"pybridge: error: {one_line(exc.format_message())}", err=True)
        sys.exit(2)
    except click.exceptions.Abort:
        click.echo("pybridge: aborted", err=True)
        sys.exit(130)
    except BridgeError as exc:
        kind = "internal error" if exc.exit_code == EXIT_INTERNAL else "error"
        click.echo(f"pybridge: {kind}: {one_line(exc)}", err=True)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        click.echo("pybridge: interrupted", err=True)
        sys.exit(130)
    except RecursionError:
        click.echo("pybridge: error: input nested too deeply", err=True)
        sys.exit(2)
    except OSError as exc:  # the environment the user controls: disk full, permissions
        where = f"{exc.filename}: " if exc.filename else ""
        click.echo(f"pybridge: error: {where}{exc.strerror or one_line(exc)}", err=True)
        sys.exit(2)
    except MemoryError:
        click.echo("pybridge: error: out of memory (input too large for this machine)", err=True)
        sys.exit(2)
    except Exception as exc:  # a bug: one line, its own exit code, never a traceback
        click.echo(f"pybridge: internal error: {type(exc).__name__}: {one_line(exc)}", err=True)
        sys.exit(EXIT_INTERNAL)
    sys.exit(rc if isinstance(rc, int) else 0)


if __name__ == "__main__":
    main()
