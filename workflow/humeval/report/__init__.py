"""What a reviewer sees, in one wing: the front page and console summary (:mod:`.front_page`), the verdict cards
(:mod:`.verdict_card`), the HTML pages of tables and audits (:mod:`.html_tables`), the tables as CSV, Markdown and
LaTeX (:mod:`.tables`, :mod:`.table_files`) and the figures by family (:mod:`.figures`). They read what the stages
computed (numbers.csv, the summaries, power.csv) and compute nothing of their own."""

__all__ = []
