"""What a profile needs from the Pi (drivers/system.py): config.txt lines, once, on both layouts;
the device nodes and their fixes."""

from pathlib import Path

from drivers.profile import load_profile, parse_profile
from drivers.system import (
    apply_block,
    boot_config,
    device_allow,
    find_config,
    main,
    missing,
)

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"


def test_the_block_is_added_once_and_replaced_not_repeated():
    lines = boot_config(load_profile(HARDWARE / "pi-gpio.toml"))
    first = apply_block("[all]\ndtparam=audio=on\n\n", lines)
    assert first.count("dtoverlay=spi0-1cs") == 1 and first.startswith("[all]\ndtparam=audio=on")
    assert apply_block(first, lines) == first
    pico = boot_config(load_profile(HARDWARE / "pico.toml"))
    switched = apply_block(first, pico)
    assert "spi0-1cs" not in switched and "dtparam=i2c_arm=on" in switched
    assert apply_block(switched, []) == "[all]\ndtparam=audio=on\n"  # nothing needed: removed


def test_older_systems_keep_config_txt_in_boot(tmp_path):
    (tmp_path / "boot").mkdir()
    (tmp_path / "boot" / "config.txt").write_text("")
    assert find_config(tmp_path) == tmp_path / "boot" / "config.txt"
    assert main([str(HARDWARE / "pi-gpio.toml"), "--root", str(tmp_path), "--config"]) == 0
    assert "dtparam=i2c_arm_baudrate=400000" in (tmp_path / "boot" / "config.txt").read_text()


def test_a_link_on_the_header_uart_turns_the_uart_on_and_allows_only_that_port():
    text = (HARDWARE / "pico.toml").read_text().replace("/dev/ttyACM0", "/dev/ttyAMA0")
    import tomllib

    profile = parse_profile(tomllib.loads(text), "uart.toml")
    lines = boot_config(profile)
    assert "enable_uart=1" in lines and "dtoverlay=uart0-pi5" in lines
    assert "DeviceAllow=/dev/ttyAMA0 rw" in device_allow(profile)
    gone = missing(profile, exists=lambda path: path != "/dev/ttyAMA0")
    assert [n.path for n in gone] == ["/dev/ttyAMA0"] and "UART is off" in gone[0].fix


def test_missing_nodes_name_the_fix():
    profile = load_profile(HARDWARE / "pi-gpio.toml")
    assert missing(profile, exists=lambda path: True) == []
    gone = {n.path: n for n in missing(profile, exists=lambda path: False)}
    assert set(gone) == {"/dev/gpiochip0", "/dev/i2c-1", "/dev/spidev0.0"}
    assert "dtoverlay=spi0-1cs" in gone["/dev/spidev0.0"].fix
    assert "dtparam=i2c_arm=on" in gone["/dev/i2c-1"].fix
    early_pi5 = {"/dev/gpiochip4", "/dev/i2c-1", "/dev/spidev0.0"}  # its GPIO chip numbered 4
    assert missing(profile, exists=lambda path: path in early_pi5) == []
