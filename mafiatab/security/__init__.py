"""Running the site safely: login throttling, safe exports, security headers, logging.

`API_PREFIX` is where the JSON API lives (`path("api/", ...)` in the URLconf): a
refusal under it, whoever answers it (the API, a busy database), is JSON.
"""

API_PREFIX = "/api/"
