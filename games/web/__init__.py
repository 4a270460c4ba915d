"""The pages and the HTTP API: views, forms, accounts, history, stats, charts, the review
page and the offline audit. The top of the layers: only the site's URLconf imports it.
"""
