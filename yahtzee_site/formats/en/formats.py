"""English dates as the site has always written them ("26 November 2026", "26 Nov 2026, 14:05").

The templates name formats, not patterns (``date:"DATE_FORMAT"``), so each language writes
dates its own way: Django's locale formats for the others ("26. November 2026" in German,
"26 de noviembre de 2026" in Spanish); these replace Django's American English ones.
"""

DATE_FORMAT = "j F Y"
DATETIME_FORMAT = "j F Y, H:i"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
YEAR_MONTH_FORMAT = "F Y"
TIME_FORMAT = "H:i"
