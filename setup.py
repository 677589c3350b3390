"""Only for scrapyd-deploy, which builds the project's egg with `setup.py bdist_egg`; the
project's metadata, packages and data are all in pyproject.toml."""

from setuptools import setup

setup()
