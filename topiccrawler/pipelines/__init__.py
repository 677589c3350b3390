"""Item pipelines, in crawl order: extraction (100) → dedup (200) → relevance (300) →
storage (800) → feed clean-up (900). Each is a thin Scrapy wrapper over a pure package."""
