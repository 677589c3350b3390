"""Project commands for the `scrapy` tool (COMMANDS_MODULE)."""
