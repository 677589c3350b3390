"""What every part of the crawl builds on: the crawl's topic, held once (`topic.py`), and the
spider middleware that reads a page's output as a whole (`page_output.py`)."""
