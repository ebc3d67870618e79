import os

os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")  # before anything imports `board`

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin


@pytest.fixture
def factory():
    f = MockFactory(revision="d04170")  # a Pi 5
    previous = Device.pin_factory
    Device.pin_factory = f
    yield f
    f.reset()
    f.close()
    Device.pin_factory = previous


@pytest.fixture
def pwm_factory():
    f = MockFactory(revision="d04170", pin_class=MockPWMPin)
    yield f
    f.reset()
    f.close()


class Ticker:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def ticker():
    return Ticker()
