"""The web is hostile input: which addresses a crawl may reach, and crawled text made inert.

`addresses` classifies hosts (every written form of an address) without touching the network;
`resolver` checks what names resolve to at connection time and pins the checked address;
`text` drops control characters from crawled text and escapes what commands print.
"""
