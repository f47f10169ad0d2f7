"""Shared helpers every app may use: text checks at each write path, size limits, people's
Markdown made safe, stored English text shown in the reader's language, CSP and input guards.

- ``validation``, ``limits``: text checks and the documented size limits;
- ``markdown``: Markdown sanitised for the reports' three renderings;
- ``messages``: texts services store as a key and parameters, rendered in the reader's
  language; ``stored_text`` shows those and older English rows; ``french_typography``:
  French spacing;
- ``csp``, ``middleware``: Content-Security-Policy helpers, guards before any view (and
  the refusals' 403 and 404 pages);
- ``refusals``: the one refusal (``Refused``); ``api_errors``: the API's one error body
  (``ErrorOut``);
- ``actors``: the named system actor (``SYSTEM``) of the scheduler and the commands.

Imports: Django and libraries only, nothing of the project (only the pure engines lie below
it); every other layer may import it (import-linter, pyproject.toml).
"""
