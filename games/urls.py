from django.urls import path

from games import api, views

urlpatterns = [
    path("", views.home, name="home"),
    path("g/<str:code>/", views.room, name="room"),
    path("rules/", views.rules_page, name="rules"),
    path("health/", views.health, name="health"),
    path("api/games/", api.create_game, name="api-create-game"),
    path("api/games/<str:code>/", api.game, name="api-game"),
]
