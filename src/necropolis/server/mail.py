"""Mail to a player whose turn has waited: the operator's SMTP settings, the message in
the player's language, and sending it.

Mail is optional twice: the operator configures an SMTP server (``necropolis serve
--smtp-host …``), and a player gives an address in their account's settings. A turn that
has waited :attr:`MailSettings.after` seconds is mailed once (see
:mod:`necropolis.server.turns` for how "once" holds across processes and restarts). The
message names the game and links to the table; the link's token opens the seat only
together with the account's session, so a mail read by someone else opens nothing.
Sending is blocking :mod:`smtplib`, run in a worker thread.
"""

from __future__ import annotations

import re
import smtplib
import ssl
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Literal
from urllib.parse import quote

from necropolis.engine.errors import UnknownGameError
from necropolis.games import game_class
from necropolis.server.turns import Due

Security = Literal["starttls", "tls", "none"]

#: Seconds an SMTP conversation may take before it is given up (and tried again later).
SMTP_TIMEOUT = 20.0
#: The longest address (RFC 5321's path limit, less the angle brackets).
MAX_ADDRESS = 254

#: An address as people type it: something@domain.tld, no spaces, no quoting, none of the
#: characters that would make it two addresses or a header of its own.
_ADDRESS = re.compile(r"[^@\s<>()\[\],;:\"\\]+@[^@\s<>()\[\],;:\"\\.]+(\.[^@\s<>()\[\],;:\"\\.]+)+")


def valid_address(text: str) -> str | None:
    """``text`` as an address (trimmed), or None when it is not one."""
    address = text.strip()
    if len(address) > MAX_ADDRESS or not _ADDRESS.fullmatch(address):
        return None
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in address):
        return None
    return address


@dataclass
class MailSettings:
    """The operator's SMTP server and when to mail."""

    host: str
    sender: str
    port: int = 587
    security: Security = "starttls"
    user: str | None = None
    password: str | None = None
    #: Seconds a turn waits before its player is mailed.
    after: float = 3600.0
    #: The address people reach the page at (for the mail's link), e.g.
    #: ``https://necropolis.example``; None: the server's own host and port.
    public_url: str | None = None

    @property
    def sweep(self) -> float:
        """Seconds between looks for turns that waited long enough: a tenth of the wait,
        within half a second and a minute."""
        return max(0.5, min(60.0, self.after / 10))


#: The mail's texts, per language: the subject and the body's lines.
TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "subject": "necropolis: your turn at {game}",
        "body": (
            "Hello {player},\n\n"
            "it is your turn at {game}, and the table has waited for you since {since} (UTC).\n\n"
            "Open the table (signed in as {player}):\n{link}\n\n"
            "You get this mail once per turn. To get no more, remove your e-mail address "
            "in your account's settings on necropolis.\n"
        ),
    },
    "nl": {
        "subject": "necropolis: jij bent aan de beurt bij {game}",
        "body": (
            "Hallo {player},\n\n"
            "je bent aan de beurt bij {game}, en de tafel wacht sinds {since} (UTC) op je.\n\n"
            "Open de tafel (aangemeld als {player}):\n{link}\n\n"
            "Je krijgt deze mail één keer per beurt. Wil je geen mail meer, haal dan je "
            "e-mailadres weg in de instellingen van je account op necropolis.\n"
        ),
    },
    "it": {
        "subject": "necropolis: tocca a te a {game}",
        "body": (
            "Ciao {player},\n\n"
            "tocca a te a {game}, e il tavolo ti aspetta dalle {since} (UTC).\n\n"
            "Apri il tavolo (con l'accesso come {player}):\n{link}\n\n"
            "Ricevi questa mail una volta per turno. Per non riceverne più, togli il tuo "
            "indirizzo e-mail nelle impostazioni del tuo account su necropolis.\n"
        ),
    },
}


def game_title(game: str) -> str:
    try:
        return game_class(game).title
    except UnknownGameError:
        return game


def compose(settings: MailSettings, due: Due, base_url: str) -> EmailMessage:
    """The mail for ``due``, in its player's language (English if it has none here)."""
    texts = TEXTS.get(due.lang, TEXTS["en"])
    base = (settings.public_url or base_url).rstrip("/")
    link = f"{base}/t/{quote(due.table_id, safe='')}#{due.token}"
    values = {
        "game": game_title(due.game),
        "player": due.player,
        "since": due.since.strftime("%Y-%m-%d %H:%M"),
        "link": link,
    }
    # Headers unfolded (RFC 5322 allows 998 characters): Python folds a long subject by
    # moving all of it to a line of its own, which readers then show with a leading space.
    message = EmailMessage(policy=policy.SMTP.clone(max_line_length=998))
    message["From"] = settings.sender
    message["To"] = due.email
    message["Subject"] = texts["subject"].format(**values)
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid(domain=settings.sender.rpartition("@")[2] or None)
    message["Auto-Submitted"] = "auto-generated"
    message.set_content(texts["body"].format(**values))
    return message


def send(settings: MailSettings, message: EmailMessage) -> None:
    """Hand ``message`` to the operator's SMTP server (blocking; raises on failure)."""
    client: smtplib.SMTP
    if settings.security == "tls":
        client = smtplib.SMTP_SSL(
            settings.host,
            settings.port,
            timeout=SMTP_TIMEOUT,
            context=ssl.create_default_context(),
        )
    else:
        client = smtplib.SMTP(settings.host, settings.port, timeout=SMTP_TIMEOUT)
    with client:
        if settings.security == "starttls":
            client.starttls(context=ssl.create_default_context())
        if settings.user:
            client.login(settings.user, settings.password or "")
        client.send_message(message)
