"""How static files are stored for a deployed site."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):  # type: ignore[misc]
    """Hashed, compressed static files, with JavaScript module imports hashed too.

    The room's script is ES modules (``import ... from "./state.js"``). Without
    this, a page served the new hashed ``room.js`` could import an old cached
    ``state.js``; with it, each import names the hashed file it was built with.
    """

    support_js_module_import_aggregation = True
