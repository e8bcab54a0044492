"""The ``necropolis`` command line: the Typer application and its subcommands.

Each subcommand lives in its own module and is registered here; every one of them speaks
only the engine protocol, so it works for every game.
"""

from __future__ import annotations

from rich.table import Table

from necropolis.cli import (
    analyse,
    balance,
    bench,
    play,
    replay,
    serve,
    simulate,
    strength,
    tournament,
    train,
    users,
)
from necropolis.cli.common import BOT_NAMES, App, console
from necropolis.games import game_class, game_ids

app = App(
    name="necropolis",
    help="Three Egyptian tomb board games: play, replay, simulate, rate bots, balance, "
    f"benchmark.\n\nGames: {', '.join(game_ids())} (necropolis games lists their options)."
    f"\n\nBots: {BOT_NAMES}; in play, human for a person.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command("play")(play.play)
app.command("replay")(replay.replay)
app.command("analyse")(analyse.analyse)
app.command("simulate")(simulate.simulate)
app.command("tournament")(tournament.tournament)
app.add_typer(strength.strength_app, name="strength")
app.command("bench")(bench.bench)
app.command("train")(train.train)
app.command("balance")(balance.balance)
app.command("serve")(serve.serve)
app.add_typer(serve.db_app, name="db")
app.add_typer(users.user_app, name="user")


@app.command("games")
def games() -> None:
    """List the games and the options each one takes."""
    table = Table(title="necropolis games")
    table.add_column("game")
    table.add_column("title")
    table.add_column("options (name=default: meaning)")
    for game_id in game_ids():
        cls = game_class(game_id)
        opts = "\n".join(f"{o.name}={o.default}: {o.help}" for o in cls.declared_options())
        table.add_row(game_id, cls.title, opts)
    console.print(table)
    console.print(
        "Component figures that the rulebooks' lost pictures held are documented"
        " reconstructions where no public source gives them: see docs/rules/<game>.md"
        " and each game's data file."
    )


if __name__ == "__main__":
    app()
