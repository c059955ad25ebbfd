"""The ``pybridge`` command line. Each subcommand lives in its own module."""

from __future__ import annotations

import sys

import click

from . import __version__
from .errors import EXIT_INTERNAL, BridgeError, one_line
from .library_home import use_packaged_library

#: Commands that ask Coq: outside a checkout they use the wheel's library (built on first use).
_NEEDS_LIBRARY = frozenset({"check", "scan", "prove", "graph"})


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="pybridge",
                      message="%(prog)s %(version)s (distribution absorb-bridge)")
@click.pass_context
def main_group(ctx: click.Context) -> None:
    """Machine-checked answers to: can this MLP block absorb its skip connection?"""
    if ctx.invoked_subcommand in _NEEDS_LIBRARY:
        use_packaged_library()


def _add_commands() -> None:
    from .cli_check import check_cmd, generate_cmd, scan_cmd
    from .cli_graph import graph_cmd
    from .cli_prove import prove_cmd

    for cmd in (prove_cmd, graph_cmd, check_cmd, scan_cmd, generate_cmd):
        main_group.add_command(cmd)


#: A broken installation (a module failing to import) is reported by :func:`main` in one line.
_IMPORT_PROBLEM: Exception | None = None
try:
    _add_commands()
except Exception as _exc:  # noqa: BLE001 - reported, exit 3
    _IMPORT_PROBLEM = _exc


def main(argv: list[str] | None = None) -> None:
    """Entry point: usage errors and input problems become one line on stderr."""
    if _IMPORT_PROBLEM is not None:
        exc = _IMPORT_PROBLEM
        click.echo(f"pybridge: internal error: {type(exc).__name__}: {one_line(exc)}", err=True)
        sys.exit(EXIT_INTERNAL)
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
