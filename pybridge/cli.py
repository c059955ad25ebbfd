"""The ``pybridge`` command line. Each subcommand lives in its own module."""

from __future__ import annotations

import sys

import click

from .errors import EXIT_INTERNAL, BridgeError, one_line
from .cli_prove import prove_cmd
from .cli_graph import graph_cmd
from .cli_check import check_cmd, generate_cmd, scan_cmd


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main_group() -> None:
    """Machine-checked answers to: can this MLP block absorb its skip connection?"""


main_group.add_command(prove_cmd)
main_group.add_command(graph_cmd)
main_group.add_command(check_cmd)
main_group.add_command(scan_cmd)
main_group.add_command(generate_cmd)


def main(argv: list[str] | None = None) -> None:
    """Entry point: usage errors and input problems become one line on stderr."""
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
