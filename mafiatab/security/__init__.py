"""Running the site safely: login throttling, safe exports, security headers, logging."""
