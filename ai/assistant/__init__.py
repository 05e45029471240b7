"""Assistant services the UI calls: hints and deductions, level analysis, the background worker."""
