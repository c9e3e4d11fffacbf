"""Many games at once: simulate (bot games across processes), coverage (what fired),
report (the balance report), compare (two drafts), stats, plots."""
