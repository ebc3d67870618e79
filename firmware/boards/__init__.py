"""Other boards' configurations for the Pico: copy one as config.py (firmware/README.md)."""
