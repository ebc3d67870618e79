"""Draw the LED legend (the tracker's and the session's meanings) as a PNG for the docs.

``python -m controller.view.legend_picture docs/leds-session.png``. Each meaning is a square
drawn at full, blink-low and pulse-low levels, so the picture shows the pattern as well.
"""

from __future__ import annotations

import sys

from PIL import Image, ImageDraw

from controller.view.leds import LEGEND, shade
from controller.view.session_leds import SESSION_LEGEND


def legend_image() -> Image.Image:
    lights = [*LEGEND.values(), *SESSION_LEGEND.values()]
    row = 26
    image = Image.new("RGB", (560, row * len(lights) + 10), (20, 20, 20))
    draw = ImageDraw.Draw(image)
    for i, light in enumerate(lights):
        y = 5 + i * row
        for k, t in enumerate((0.0, 0.75, 0.5)):  # bright, blink-low, pulse-low moments
            draw.rectangle((5 + k * 24, y, 25 + k * 24, y + 20), fill=shade(light, t))
        draw.text((85, y + 5), f"{light.name} [{light.pattern}]: {light.meaning}", fill="white")
    return image


if __name__ == "__main__":
    legend_image().save(sys.argv[1] if len(sys.argv) > 1 else "leds-session.png")
