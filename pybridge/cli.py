"""The ``pybridge`` command line. Each subcommand lives in its own module."""

from __future__ import annotations

import sys

import click

from .errors import BridgeError
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
    except click.exceptions.Abort:
        click.echo("pybridge: aborted", err=True)
        sys.exit(130)
    except BridgeError as exc:
        click.echo(f"pybridge: error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        click.echo("pybridge: interrupted", err=True)
        sys.exit(130)
    sys.exit(rc if isinstance(rc, int) else 0)


if __name__ == "__main__":
    main()
