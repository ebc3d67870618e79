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
    modules,
    without_serial_console,
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


def uart_profile():
    import tomllib

    text = (HARDWARE / "pico.toml").read_text().replace("/dev/ttyACM0", "/dev/ttyAMA0")
    return parse_profile(tomllib.loads(text), "uart.toml")


def test_a_link_on_the_header_uart_turns_the_uart_on_and_allows_only_that_port():
    profile = uart_profile()
    lines = boot_config(profile)
    assert "enable_uart=1" in lines and "dtoverlay=uart0-pi5" in lines
    allowed = device_allow(profile)
    assert "DeviceAllow=char-ttyAMA rw" in allowed and not any("ttyACM" in a for a in allowed)
    gone = missing(profile, exists=lambda path: path != "/dev/ttyAMA0")
    assert [n.path for n in gone] == ["/dev/ttyAMA0"] and "UART is off" in gone[0].fix


PI4_UART_CONFIG = """[all]
dtparam=audio=on

# >>> damath-board (systemd/install.sh): do not edit inside this block
[all]
dtparam=i2c_arm=on
dtparam=i2c_arm_baudrate=400000
enable_uart=1
[pi4]
dtoverlay=disable-bt
[pi5]
dtoverlay=uart0-pi5
[all]
# <<< damath-board
"""


def test_a_pi4_with_the_uart_link_gets_the_pl011_on_its_pins_and_no_serial_console(
    tmp_path, capsys
):
    """On a Pi 4 ttyAMA0 is the Bluetooth chip's UART: disable-bt gives it back to GPIO14/15;
    the serial console comes off cmdline.txt. Both files are written whole (renamed over)."""
    boot = tmp_path / "boot" / "firmware"
    boot.mkdir(parents=True)
    (boot / "config.txt").write_text("[all]\ndtparam=audio=on\n")
    rest = "root=PARTUUID=1234-02 rootfstype=ext4 fsck.repair=yes rootwait\n"
    (boot / "cmdline.txt").write_text("console=serial0,115200 console=tty1 " + rest)
    profile = tmp_path / "uart.toml"
    profile.write_text((HARDWARE / "pico.toml").read_text().replace("/dev/ttyACM0", "/dev/ttyAMA0"))
    assert main([str(profile), "--root", str(tmp_path), "--config"]) == 0
    assert (boot / "config.txt").read_text() == PI4_UART_CONFIG
    assert (boot / "cmdline.txt").read_text() == "console=tty1 " + rest
    out = capsys.readouterr().out
    assert "Pi 4 Bluetooth is switched off for it (dtoverlay=disable-bt)" in out
    assert "cmdline.txt: the serial console (console=serial0,115200) removed" in out
    assert sorted(p.name for p in boot.iterdir()) == ["cmdline.txt", "config.txt"]
    assert main([str(profile), "--root", str(tmp_path), "--config"]) == 0  # again: no change
    assert "no serial console on the header UART" in capsys.readouterr().out
    assert (boot / "config.txt").read_text() == PI4_UART_CONFIG


def test_the_serial_console_is_taken_off_whole_or_not_at_all(tmp_path, monkeypatch, capsys):
    boot = tmp_path / "boot"
    boot.mkdir()
    (boot / "config.txt").write_text(PI4_UART_CONFIG)  # already set
    (boot / "cmdline.txt").write_text("console=serial0,115200 root=/dev/mmcblk0p2 rootwait\n")
    profile = tmp_path / "uart.toml"
    profile.write_text((HARDWARE / "pico.toml").read_text().replace("/dev/ttyACM0", "/dev/ttyAMA0"))

    def no_rename(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("drivers.system.os.replace", no_rename)
    assert main([str(profile), "--root", str(tmp_path), "--config"]) == 2
    assert "cmdline.txt left as it was" in capsys.readouterr().err
    assert (boot / "cmdline.txt").read_text().startswith("console=serial0,115200 ")
    assert sorted(p.name for p in boot.iterdir()) == ["cmdline.txt", "config.txt"]


def test_only_consoles_on_the_header_uart_come_off_the_command_line():
    text = "console=ttyAMA0,115200 console=ttyS0,9600 console=tty1 quiet\n"
    assert without_serial_console(text) == (
        "console=tty1 quiet\n",
        ["console=ttyAMA0,115200", "console=ttyS0,9600"],
    )
    assert without_serial_console("console=tty1 quiet\n") == ("console=tty1 quiet\n", [])
    assert "disable-bt" not in boot_config(load_profile(HARDWARE / "pico.toml"))  # USB: no UART


def test_devices_are_granted_by_class_with_their_drivers_loaded_at_boot():
    """A path is resolved when the unit starts (a node not there yet is skipped: a Pico plugged
    in later stays EPERM); a class (the driver's /proc/devices name) covers every device of
    that driver. The class matches only a loaded driver, so the modules load at boot."""
    pico = load_profile(HARDWARE / "pico.toml")
    assert device_allow(pico) == [
        "DeviceAllow=char-gpiochip rw",
        "DeviceAllow=char-i2c rw",
        "DeviceAllow=char-ttyACM rw",
    ]
    assert modules(pico) == ["i2c-dev", "cdc_acm"]
    gpio = load_profile(HARDWARE / "pi-gpio.toml")
    assert device_allow(gpio) == [
        "DeviceAllow=char-gpiochip rw",
        "DeviceAllow=char-i2c rw",
        "DeviceAllow=char-spi rw",
    ]
    assert modules(gpio) == ["i2c-dev", "spidev"]
    assert device_allow(uart_profile())[-1] == "DeviceAllow=char-ttyAMA rw"


def test_missing_nodes_name_the_fix():
    profile = load_profile(HARDWARE / "pi-gpio.toml")
    assert missing(profile, exists=lambda path: True) == []
    gone = {n.path: n for n in missing(profile, exists=lambda path: False)}
    assert set(gone) == {"/dev/gpiochip0", "/dev/i2c-1", "/dev/spidev0.0"}
    assert "dtoverlay=spi0-1cs" in gone["/dev/spidev0.0"].fix
    assert "dtparam=i2c_arm=on" in gone["/dev/i2c-1"].fix
    early_pi5 = {"/dev/gpiochip4", "/dev/i2c-1", "/dev/spidev0.0"}  # its GPIO chip numbered 4
    assert missing(profile, exists=lambda path: path in early_pi5) == []


def test_config_txt_is_replaced_whole_or_left_as_it_was(tmp_path, monkeypatch, capsys):
    """A power cut mid-write must not leave half a config.txt: the new text goes beside it and
    is renamed over; a failed rename leaves the old file untouched and says so."""
    (tmp_path / "boot" / "firmware").mkdir(parents=True)
    config = tmp_path / "boot" / "firmware" / "config.txt"
    config.write_text("[all]\ndtparam=audio=on\n")
    profile = str(HARDWARE / "pi-gpio.toml")

    def no_rename(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("drivers.system.os.replace", no_rename)
    assert main([profile, "--root", str(tmp_path), "--config"]) == 2
    assert config.read_text() == "[all]\ndtparam=audio=on\n"
    assert "left as it was" in capsys.readouterr().err
    assert sorted(p.name for p in config.parent.iterdir()) == ["config.txt"]  # no stray file
    monkeypatch.undo()
    assert main([profile, "--root", str(tmp_path), "--config"]) == 0
    assert "spi0-1cs" in config.read_text()
    assert sorted(p.name for p in config.parent.iterdir()) == ["config.txt"]
