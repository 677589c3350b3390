"""Pages the team wrote in the manner of forum, Q&A and comment software outside the records
bench, for benchmarks/written_records.py (see its docstring)."""
