from django.contrib import admin
from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """Pages that name no icon (the admin's, a JSON file opened in a tab) make browsers ask
    for /favicon.ico: the site's icon, rather than a 404 on every such page. Its hashed
    name is looked up per request, since the manifest may not exist at import."""
    return HttpResponsePermanentRedirect(static("img/favicon.svg"))


urlpatterns = [
    path("", include("games.web.urls")),
    path("admin/", admin.site.urls),
    # set_language: the footer's language switcher posts here (a form: no script needed).
    path("i18n/", include("django.conf.urls.i18n")),
    path("favicon.ico", favicon),
]

# An exception no view handled: 503 while the database is away, else 500 (yahtzee_site/errors.py).
handler500 = "yahtzee_site.errors.server_error"
