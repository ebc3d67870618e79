import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import fake_rpi, sys
sys.modules['RPi'] = fake_rpi.RPi
sys.modules['RPi.GPIO'] = fake_rpi.RPi.GPIO
GPIO = fake_rpi.RPi.GPIO
# fake-rpi answers OUT to every gpio_function() query; remember what setup() chose instead, or
# gpiozero refuses to set a pull-up on an input it believes is an output.
modes = {}
real_setup = GPIO.setup
def setup(channel, mode, *args, **kwargs):
    modes[channel] = mode
    return real_setup(channel, mode, *args, **kwargs)
GPIO.setup = setup
GPIO.gpio_function = lambda channel: modes.get(channel, GPIO.IN)
from gpiozero.pins.rpigpio import RPiGPIOFactory
from drivers.sensors import GpioMatrixSource, Scanner
from drivers.buzzer import ActiveTone, Buzzer
class Pi4Factory(RPiGPIOFactory):
    def _get_revision(self):  # no /proc/cpuinfo of a Pi here: say it is a Pi 4 B
        return 0xC03111
factory = Pi4Factory()
source = GpioMatrixSource([5, 6, 12, 13, 16, 19, 20, 26], [17, 22, 23, 27], pin_factory=factory)
scanner = Scanner(source, 1)
scanner.scan()
buzzer = Buzzer(ActiveTone(18, factory))
buzzer.play("move"); buzzer.wait(1); buzzer.close()
scanner.close()
factory.close()
print("RPIGPIO-PATH-OK")
"""


def test_rpigpio_factory_imports_and_drives_pins_off_a_pi_with_fake_rpi():
    # A subprocess: fake-rpi replaces modules in sys.modules, which must not leak into other tests.
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "RPIGPIO-PATH-OK" in result.stdout
    assert "setup" in result.stdout.lower() or "output" in result.stdout.lower()
