"""Errors a user can cause through the store (one line each, exit code 2)."""

from companion.errors import InputError, UnknownNameError


class StoreError(InputError):
    """The data directory or database cannot be opened or used."""


class StoreVersionError(StoreError):
    """The database was written by a newer companion; it is left untouched."""


class NotFoundError(UnknownNameError):
    """No night, player, play, photo or reading with that id or name."""


class StoreBusyError(StoreError):
    """Another process (or another page) held the store longer than the caller waits."""


class StoreFullError(StoreError):
    """The disk holding the store is full; nothing of the change was kept."""
