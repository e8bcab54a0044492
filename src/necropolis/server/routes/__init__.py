"""The table server's HTTP and WebSocket routes, one FastAPI router per resource, which
:func:`necropolis.server.app.create_app` mounts: games, tables, the table's WebSocket
(socket), accounts, chat, ratings, clocks and the page (front); common holds what they share."""
