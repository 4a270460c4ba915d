from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic.base import RedirectView

urlpatterns = [
    path("", include("games.urls")),
    path("admin/", admin.site.urls),
    # Pages that name no icon (the admin's, a JSON file opened in a tab) make browsers ask
    # for /favicon.ico: the site's icon, rather than a 404 on every such page.
    path("favicon.ico", RedirectView.as_view(url=static("img/favicon.svg"), permanent=True)),
]

# An exception no view handled: 503 while the database is away, else 500 (yahtzee_site/errors.py).
handler500 = "yahtzee_site.errors.server_error"
