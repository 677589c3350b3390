"""Growing a topic's library through a person's review (SPEC §6, the seeding paper §2.2):
candidates collected from stored search results, kept pages and a bootstrap crawl of an authority
site (collect.py, site_crawl.py), reviewed at the terminal or in a file (review.py), and the
`topiccrawler terms` command (command.py)."""
