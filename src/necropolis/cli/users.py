"""``necropolis user reset NAME``: the operator's reset of a player's password.

No e-mail is assumed, so a player who forgot their password asks the operator, who runs
this on the server's database: it sets a new random password, ends the account's
sessions, and prints the password once for the operator to hand over.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Annotated

import typer

from necropolis.cli.common import App, fail
from necropolis.cli.serve import DATA_HELP, DB_HELP, _db_url

user_app = App(help="The table server's player accounts.", no_args_is_help=True)


@user_app.command("reset")
def reset(
    name: Annotated[str, typer.Argument(help="the player's name (any case)")],
    db: Annotated[str | None, typer.Option(help=DB_HELP)] = None,
    data_dir: Annotated[Path, typer.Option(help=DATA_HELP)] = Path("data"),
) -> None:
    """Give a player a new random password (printed once) and sign them out everywhere."""
    from necropolis.server.accounts import Accounts
    from necropolis.server.db import make_engine, upgrade

    url = _db_url(db, data_dir)
    upgrade(url)
    engine = make_engine(url)
    try:
        accounts = Accounts(engine)
        found = accounts.by_name(name)
        if found is None:
            raise fail(f"there is no player called {name!r}")
        password = secrets.token_urlsafe(12)
        accounts.set_password(found[0].id, password)
    finally:
        engine.dispose()
    print(f"new password of {found[0].name}: {password}")
