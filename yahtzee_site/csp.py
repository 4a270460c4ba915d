"""The Content-Security-Policy header, on every response.

Django 5.2 has none built in (6.0 has ``SECURE_CSP`` and its own middleware, and
``settings.CONTENT_SECURITY_POLICY`` has that setting's shape, so the upgrade can
drop this module). Our own rather than django-csp: the policy is one fixed set of
sources, the pages carry no inline script or style to give nonces to, and so this
is a dozen lines with nothing to keep up to date.
"""

from collections.abc import Mapping, Sequence

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponseBase
from django.utils.deprecation import MiddlewareMixin

HEADER = "Content-Security-Policy"


def header_value(policy: Mapping[str, Sequence[str]], *extra_connect: str) -> str:
    """``{"default-src": ["'self'"], ...}`` as ``"default-src 'self'; ..."``."""
    directives = {name: list(sources) for name, sources in policy.items()}
    if extra_connect:
        directives.setdefault("connect-src", []).extend(extra_connect)
    return "; ".join(" ".join([name, *sources]) for name, sources in directives.items())


class ContentSecurityPolicyMiddleware(MiddlewareMixin):
    """Send ``settings.CONTENT_SECURITY_POLICY``, with the page's own websocket origin.

    CSP3 browsers let ``connect-src 'self'`` reach ``ws:``/``wss:`` on the same host and
    port; older ones (Safari before 16) did not, so the socket's origin is named outright.
    """

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if HEADER in response.headers:
            return response
        if settings.DEBUG and response.status_code >= 400:
            # Django's debug error pages style themselves inline; deployed pages do not.
            return response
        try:
            socket = f"{'wss' if request.is_secure() else 'ws'}://{request.get_host()}"
        except DisallowedHost:  # The response is already the refusal of that host.
            socket = ""
        extra = (socket,) if socket else ()
        response.headers[HEADER] = header_value(settings.CONTENT_SECURITY_POLICY, *extra)
        return response
