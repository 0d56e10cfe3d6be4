"""The outputs read off a labelled document: Markdown, metadata (and its dates
and declared data), the HTML report (its highlighted page, sanitised)."""
