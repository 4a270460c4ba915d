from django.contrib.auth import views as auth_views
from django.urls import path

from games.web import accounts, api, app, daily, views

urlpatterns = [
    path("", views.home, name="home"),
    path("games/", views.history_page, name="history"),
    path("g/<str:code>/", views.room, name="room"),
    path("g/<str:code>/review/", views.review, name="review"),
    path("g/<str:code>/export.json", views.export, name="export"),
    path("g/<str:code>/rematch/", views.rematch, name="rematch"),
    path("g/<str:code>/play-my-dice/", views.play_my_dice, name="play-my-dice"),
    path("g/<str:code>/daily/", daily.game_result, name="daily-result"),
    path("rules/", views.rules_page, name="rules"),
    path("my-games/", app.my_games, name="my_games"),
    path("manifest.webmanifest", app.manifest, name="manifest"),
    path("sw.js", app.service_worker, name="service_worker"),
    path("offline/", app.offline, name="offline"),
    path("push/subscription/", app.push_subscription, name="push_subscription"),
    path("daily/", daily.today_page, name="daily"),
    path("daily/play/", daily.play_today, name="daily-play"),
    path("daily/<str:day>/", daily.day_page, name="daily-day"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("players/<str:username>/", accounts.profile, name="profile"),
    path("health/", views.health, name="health"),
    path("api/games/", api.create_game, name="api-create-game"),
    path("api/games/<str:code>/", api.game, name="api-game"),
]
