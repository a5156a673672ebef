"""The project's exception types.

Everything a user can cause derives from ``CompanionError`` so the command line can turn
it into one clear line and exit code 2 (``InputError``) instead of a traceback.
"""


class CompanionError(Exception):
    """Base of all errors a user can cause."""

    exit_code = 2


class InputError(CompanionError, ValueError):
    """Unreadable or malformed input: a bad file, field map, spec or option value."""


class UnknownNameError(InputError, KeyError):
    """An unknown sheet, variant, field id, value or similar name."""

    def __str__(self) -> str:  # KeyError would otherwise quote the message
        return str(self.args[0]) if self.args else ""


class ImageError(InputError):
    """A photo that cannot be loaded or registered."""


class IllegalMoveError(CompanionError, ValueError):
    """A move or cut the rules do not allow; the message says why."""

    exit_code = 1


class MissingToolError(CompanionError):
    """A program or optional package a chosen option needs is not installed."""
