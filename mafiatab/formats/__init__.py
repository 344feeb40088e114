"""How dates and times are written in each language (FORMAT_MODULE_PATH).

One format per language everywhere: Russian pages write 05.12.2026 and 05.12.2026
18:30, English pages 5 Dec 2026 and 5 Dec 2026, 18:30 (never the American
12/05/2026 or Dec. 5, 2026). Templates use the named formats (`|date:"DATE_FORMAT"`,
`"DATETIME_FORMAT"`, `"TIME_FORMAT"`), never a pattern of their own. What is not set
here (the input formats) is Django's for the language.
"""
