"""topiccrawler: a Scrapy-based focused crawler for Chinese and English web content."""

import os
import warnings

__version__ = "0.1.0"

# One BLAS thread unless the user says otherwise: our matrices (record comparison, the link
# classifier) are small, and OpenBLAS's worker threads spin between them, burning a second core
# for nothing (`topiccrawler extract` over the body bench: 6.2 s of CPU for 3.4 s of wall time
# with the default threads, 3.2 s for 3.3 s with one). Set before numpy is first imported.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

# jieba imports pkg_resources, which setuptools now warns about on every crawl; the warning is
# jieba's to fix and says nothing to a user of the crawler.
warnings.filterwarnings("ignore", message="pkg_resources is deprecated", category=UserWarning)
