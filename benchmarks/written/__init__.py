"""Pages the team wrote in the manner of forum, Q&A and comment software, for
benchmarks/written_records.py: in-sample (the rules were fixed on them), some imitating
software the records bench holds (docs/benchmarks.md says which)."""
