"""memconv: convert AI-agent memory stores between dialects without losing a byte."""

__version__ = "0.1.0"
