// The emulated Pico: MicroPython's RP2040 build (firmware/vendor/) on rp2040js, its USB CDC port
// bridged to a pty the test opens as the Pi's serial port, its switch matrix and WS2812 chain
// modelled on the emulated GPIO. Driven in lock-step by the Python test (tests/emulator/pico.py)
// over stdin/stdout, one JSON object a line: the emulated clock only moves when the test says
// "run", so the Pi's side can take the emulated time as its own clock.
//
//   node pico.mjs --rom ROM --uf2 UF2 | --flash IMAGE  [--pty-fd 3] [--start-us N]
//                 [--rows 2,3,..] [--columns 10,11,..] [--led-pin 16]
//
// Why the harness steps the PIO itself: rp2040js runs its PIO state machines in a timer loop of
// their own, out of step with the core's clock, and executes an instruction's delay cycles at
// once. Here each state machine runs one PIO cycle per clock-divider's worth of core cycles and
// waits out its delays, so the LED pin's edges carry emulated times a WS2812B would see.
import fs from 'fs';
import { GPIOPinState, Simulator, USBCDC, ConsoleLogger, LogLevel } from 'rp2040js';

const FLASH_START = 0x10000000;
const NANOS_PER_CYCLE = 8; // clk_sys at 125 MHz
const LATCH_NANOS = 50_000; // a line low this long ends a WS2812 frame (datasheet: > 50 us)

function parseArgs(argv) {
  const args = {};
  for (let i = 0; i < argv.length; i += 2) args[argv[i].replace(/^--/, '')] = argv[i + 1];
  return args;
}

const args = parseArgs(process.argv.slice(2));
const ptyFd = args['pty-fd'] ? Number(args['pty-fd']) : null;
const rows = (args.rows || '').split(',').filter(Boolean).map(Number);
const columns = (args.columns || '').split(',').filter(Boolean).map(Number);
const ledPin = args['led-pin'] ? Number(args['led-pin']) : 16;
const rom = fs.readFileSync(args.rom);
let flashImage = null;
if (args.flash) {
  flashImage = fs.readFileSync(args.flash);
} else {
  flashImage = Buffer.alloc(2 * 1024 * 1024, 0xff);
  const uf2 = fs.readFileSync(args.uf2);
  for (let off = 0; off < uf2.length; off += 512) {
    const block = uf2.subarray(off, off + 512);
    const size = block.readUInt32LE(16);
    block.copy(flashImage, block.readUInt32LE(12) - FLASH_START, 32, 32 + size);
  }
}

// What the test reads back: events since its last "run", and running totals.
let events = [];
const totals = { cycles: 0, instructions: 0, boots: 0, watchdogResets: 0, hostBytes: 0, deviceBytes: 0 };
let closed = new Set(); // "r,c" of the closed switches
const toDevice = []; // bytes from the Pi waiting for room in the emulated USB FIFO
let console_ = ''; // what the device printed while no pty is bridged (the REPL's replies)
let bridged = ptyFd !== null;

// The Pico's W25Q16 flash behind the SSI, for the boot ROM's erase and program routines (they
// force the chip select through IO_QSPI's SS override and talk plain SPI through SSI DR0).
// rp2040js serves XIP reads from its flash array but models no writes: without this the
// filesystem can neither be made nor written (the raw REPL's file copy, the release flag).
class FlashChip {
  constructor(flash) {
    this.flash = flash;
    this.selected = false;
    this.bytes = [];
    this.writeEnabled = false;
    this.rx = [];
  }
  select(low) {
    if (low && !this.selected) this.bytes = [];
    if (!low && this.selected) this.finish();
    this.selected = low;
  }
  // one byte in, one out (SPI is full duplex)
  transfer(byte) {
    const b = this.bytes;
    b.push(byte);
    const cmd = b[0];
    const at = b.length - 1;
    const addr = () => (b[1] << 16) | (b[2] << 8) | b[3];
    switch (cmd) {
      case 0x05: return 0; // status 1: never busy
      case 0x35: return 0x02; // status 2: quad enabled
      case 0x9f: return [0, 0xef, 0x40, 0x15][at] ?? 0; // JEDEC id: Winbond W25Q16
      case 0x4b: return at >= 5 ? 0xd0 + at : 0; // unique id (after 4 dummy bytes)
      case 0x03: return at >= 4 ? this.flash[(addr() + at - 4) % this.flash.length] : 0;
      case 0x0b: return at >= 5 ? this.flash[(addr() + at - 5) % this.flash.length] : 0;
      default: return 0;
    }
  }
  finish() {
    const b = this.bytes;
    const cmd = b[0];
    if (process.env.FLASH_DEBUG) process.stderr.write('flash ' + b.slice(0, 6).map((x) => x.toString(16)).join(' ') + ' (' + b.length + ')\n');
    const addr = (b[1] << 16) | (b[2] << 8) | b[3];
    if (cmd === 0x06) this.writeEnabled = true;
    else if (cmd === 0x04) this.writeEnabled = false;
    else if (this.writeEnabled && [0x02, 0x20, 0x52, 0xd8, 0xc7, 0x60].includes(cmd)) {
      if (cmd === 0x02) {
        const page = addr & ~0xff;
        for (let i = 4; i < b.length; i++) {
          const a = page + ((addr + i - 4) & 0xff);
          this.flash[a] &= b[i]; // programming only clears bits
        }
      } else {
        const size = { 0x20: 4096, 0x52: 32768, 0xd8: 65536 }[cmd] || this.flash.length;
        const start = cmd === 0xc7 || cmd === 0x60 ? 0 : addr & ~(size - 1);
        this.flash.fill(0xff, start, start + size);
      }
      this.writeEnabled = false;
    }
    this.bytes = [];
  }
}

function wireFlash() {
  const chip = new FlashChip(mcu.flash);
  const ssi = mcu.peripherals[0x18000];
  const DR0 = 0x60;
  const SR = 0x28;
  const TXFLR = 0x20;
  const RXFLR = 0x24;
  const SSIENR = 0x08;
  const ssiRead = ssi.readUint32.bind(ssi);
  const ssiWrite = ssi.writeUint32.bind(ssi);
  // SSI's FIFOs as the hardware keeps them: each byte sent clocks one in, chip selected or not
  ssi.readUint32 = (offset) => {
    if (offset === DR0) return chip.rx.length ? chip.rx.shift() : 0;
    if (offset === SR) return 0x06 | (chip.rx.length ? 0x08 : 0); // TFNF TFE, RFNE; never busy
    if (offset === TXFLR) return 0; // sent at once
    if (offset === RXFLR) return chip.rx.length;
    return ssiRead(offset);
  };
  ssi.writeUint32 = (offset, value) => {
    if (offset === DR0) chip.rx.push(chip.selected ? chip.transfer(value & 0xff) : 0);
    else {
      if (offset === SSIENR && !(value & 1)) chip.rx.length = 0; // disabling the SSI empties its FIFOs
      ssiWrite(offset, value);
    }
  };
  const regs = new Map();
  mcu.peripherals[0x40018] = { // IO_QSPI: only the chip select's output override matters here
    readUint32: (offset) => regs.get(offset) || 0,
    writeUint32: (offset, value) => {
      if (process.env.FLASH_DEBUG) process.stderr.write('qspi ' + offset.toString(16) + ' ' + value.toString(16) + '\n');
      regs.set(offset, value);
      if (offset === 0x0c) {
        const over = (value >> 8) & 3;
        if (over === 2) chip.select(true);
        else if (over === 3 || over === 0) chip.select(false);
      }
    },
    writeUint32Atomic(offset, value, type) {
      const old = regs.get(offset) || 0;
      const next = [value, old ^ value, old | value, old & ~value][type];
      this.writeUint32(offset, next);
    },
  };
}

// One power-up of the chip: a new RP2040 on the same flash (what a reset leaves: the flash).
let clock = null;
const startNanos = (Number(args['start-us'] || 0)) * 1000;
let mcu = null;
let cdc = null;
let pendingReset = null;
let led = null;

function boot(startAt) {
  const simulator = new Simulator(); // its clock and chip; never its own run loop
  clock = simulator.clock;
  if (startAt) clock.tick(startAt); // the timer starts where the test says (before its wrap)
  mcu = simulator.rp2040;
  mcu.logger = new ConsoleLogger(LogLevel.Error);
  mcu.loadBootrom(new Uint32Array(rom.buffer.slice(rom.byteOffset, rom.byteOffset + rom.length)));
  mcu.flash.set(flashImage.subarray(0, mcu.flash.length));
  wireFlash();
  for (const pio of mcu.pio) {
    pio.run = function () { this.stopped = false; }; // stepped by this harness, in time
    for (const sm of pio.machines) sm.busyUntil = 0;
    pio.cycleAcc = 0;
  }
  const watchdog = mcu.peripherals[0x40058];
  watchdog.onWatchdogTrigger = () => {
    pendingReset = watchdog.reason === 1 ? 'watchdog' : 'reset';
    // the chip resets here: its watchdog's periodic alarm must not fire again meanwhile
    // (rp2040js would reschedule it at once, and the clock would never move on)
    watchdog.alarm.enable = false;
    watchdog.timer.enable = false;
  };
  cdc = new USBCDC(mcu.usbCtrl);
  cdc.onDeviceConnected = () => events.push({ event: 'usb', t: now() });
  cdc.onSerialData = (data) => {
    totals.deviceBytes += data.length;
    if (bridged) writePty(data);
    else console_ += Buffer.from(data).toString('latin1');
  };
  // A host NAKs an OUT transfer while it has nothing to send; rp2040js's CDC answers at once
  // with zero bytes, and the device's USB interrupt would then fire without end (more than half
  // the core's time): here the transfer waits until the host has a byte.
  const answer = mcu.usbCtrl.onEndpointRead;
  mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
    if (endpoint === cdc.outEndpoint && cdc.txFIFO.empty && !toDevice.length) {
      waitingRead = { endpoint, size, answer };
      return;
    }
    answer(endpoint, size);
  };
  waitingRead = null;
  toDevice.length = 0; // a USB reset loses what the host had not yet delivered
  wireMatrix();
  led = new LedDecoder(mcu.gpio[ledPin]);
  totals.boots += 1;
  mcu.core.PC = FLASH_START;
}

function now() {
  return clock.nanos / 1000; // microseconds, emulated
}

function writePty(data) {
  let off = 0;
  while (off < data.length) {
    try {
      off += fs.writeSync(ptyFd, data, off, data.length - off);
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
    }
  }
}

const readBuf = Buffer.alloc(4096);
function readPty() {
  if (!bridged) return;
  for (;;) {
    let n = 0;
    try {
      n = fs.readSync(ptyFd, readBuf, 0, readBuf.length, null);
    } catch (e) {
      if (e.code === 'EAGAIN' || e.code === 'EIO') return;
      throw e;
    }
    if (n <= 0) return;
    for (let i = 0; i < n; i++) toDevice.push(readBuf[i]);
    totals.hostBytes += n;
  }
}

let waitingRead = null;
function feedDevice() {
  const fifo = cdc.txFIFO;
  while (toDevice.length && fifo.itemCount < fifo.size) fifo.push(toDevice.shift());
  if (waitingRead && !fifo.empty) {
    const { endpoint, size, answer } = waitingRead;
    waitingRead = null;
    answer(endpoint, size);
  }
}

// The switch matrix: a row driven low pulls down the columns of its closed switches, through
// each switch's diode (a row driven high, or not driven, pulls nothing: no ghost points); every
// other column is held high by its pull-up.
function wireMatrix() {
  // rp2040js reads an undriven input as 0 whatever its pull: here the pins the board leaves
  // open read high, as the firmware's pull-ups make them (the release jumper, GP22, is open)
  for (const pin of mcu.gpio) pin.setInputValue(true);
  for (const pin of rows) mcu.gpio[pin].addListener(() => updateColumns());
  updateColumns();
}

function updateColumns() {
  if (!mcu) return;
  for (let c = 0; c < columns.length; c++) {
    let low = false;
    for (let r = 0; r < rows.length && !low; r++) {
      low = mcu.gpio[rows[r]].value === GPIOPinState.Low && closed.has(r + ',' + c);
    }
    mcu.gpio[columns[c]].setInputValue(!low);
  }
}

// The WS2812 chain on the LED pin: frames decoded from the waveform, with each bit's times.
class LedDecoder {
  constructor(pin) {
    this.high = false;
    this.lastEdge = null; // time (ns) of the last edge
    this.lastFall = null;
    this.bits = [];
    this.widths = { t0h: [], t1h: [], t0l: [], t1l: [], period: [] };
    this.gap = null; // the low time before this frame (ns)
    this.pendingBit = null;
    this.frameStart = null;
    pin.addListener((state) => this.edge(state === GPIOPinState.High, edgeNanos()));
  }

  edge(high, t) {
    if (high === this.high) return;
    this.high = high;
    if (high) {
      if (this.lastFall !== null) {
        const low = t - this.lastFall;
        if (low >= LATCH_NANOS) {
          this.finish();
          this.gap = low;
        } else if (this.pendingBit !== null) {
          (this.pendingBit ? this.widths.t1l : this.widths.t0l).push(low);
          this.widths.period.push(t - this.riseAt);
        }
      } else if (this.gap === null) {
        this.gap = Infinity; // low since power-up
      }
      if (!this.bits.length) this.frameStart = t;
      this.riseAt = t;
    } else {
      const width = t - this.riseAt;
      const bit = width > 625 ? 1 : 0;
      (bit ? this.widths.t1h : this.widths.t0h).push(width);
      this.bits.push(bit);
      this.pendingBit = bit;
      this.lastFall = t;
    }
  }

  // A frame ends when the line has stayed low LATCH_NANOS after its last bit.
  poll(t) {
    if (!this.high && this.bits.length && this.lastFall !== null && t - this.lastFall >= LATCH_NANOS) {
      this.finish();
    }
  }

  finish() {
    if (!this.bits.length) return;
    const bytes = [];
    for (let i = 0; i + 8 <= this.bits.length; i += 8) {
      let b = 0;
      for (let k = 0; k < 8; k++) b = (b << 1) | this.bits[i + k];
      bytes.push(b);
    }
    const span = (list) => (list.length ? [Math.min(...list), Math.max(...list)] : null);
    events.push({
      event: 'leds',
      t: this.frameStart / 1000,
      hex: Buffer.from(bytes).toString('hex'),
      bits: this.bits.length,
      gap_us: this.gap === Infinity ? null : this.gap / 1000,
      t0h: span(this.widths.t0h), t1h: span(this.widths.t1h),
      t0l: span(this.widths.t0l), t1l: span(this.widths.t1l),
      period: span(this.widths.period),
    });
    this.bits = [];
    this.widths = { t0h: [], t1h: [], t0l: [], t1l: [], period: [] };
    this.pendingBit = null;
    this.gap = null;
  }
}

// The PIO, one cycle per clock divider's worth of core cycles; an instruction's delay waited
// out. Edges are stamped with the time of the PIO cycle that made them.
let edgeTime = 0;
function edgeNanos() {
  return edgeTime;
}

function stepPio(startNanos, cycles) {
  for (let p = 0; p < 2; p++) {
    const pio = mcu.pio[p];
    if (pio.stopped) continue;
    for (let m = 0; m < 4; m++) {
      const sm = pio.machines[m];
      if (!sm.enabled) continue;
      if (sm.waiting && (sm.waitType === 5 || sm.waitType === 3) && sm.txFIFO.empty) {
        sm.phase = 0; // stalled on an empty FIFO: nothing happens until a word comes
        sm.pioCycle = sm.busyUntil = 0;
        continue;
      }
      const div = sm.clockDivInt + sm.clockDivFrac / 256 || 65536;
      if (sm.phase === undefined) sm.phase = 0;
      sm.phase += cycles;
      while (sm.phase >= div) {
        sm.phase -= div;
        sm.pioCycle = (sm.pioCycle || 0) + 1;
        if (sm.pioCycle < sm.busyUntil) continue;
        edgeTime = startNanos + (cycles - sm.phase) * NANOS_PER_CYCLE;
        const before = sm.cycles;
        sm.step();
        pio.checkChangedPins();
        const used = sm.cycles - before;
        sm.busyUntil = sm.pioCycle + (used > 0 ? used : 1);
      }
    }
  }
}

function run(micros) {
  const end = clock.nanos + micros * 1000;
  let sinceIo = 0;
  while (clock.nanos < end) {
    if (pendingReset) {
      const why = pendingReset;
      if (process.env.HARNESS_DEBUG) process.stderr.write('reset ' + why + ' at ' + now() + '\n');
      pendingReset = null;
      flashImage = Buffer.from(mcu.flash);
      if (why === 'watchdog') totals.watchdogResets += 1;
      events.push({ event: 'reset', why, t: now() });
      const t = clock.nanos;
      boot(t); // the timer keeps its count here; a real reset restarts it from 0 (README.md)
      continue;
    }
    if (sinceIo <= 0) {
      readPty();
      feedDevice();
      sinceIo = 20_000; // the host's bytes handed over every 20 us of emulated time
    }
    const core = mcu.core;
    const t0 = clock.nanos;
    if (core.waiting) {
      const dt = Math.max(NANOS_PER_CYCLE, Math.min(clock.nanosToNextAlarm, end - t0, sinceIo));
      const cycles = Math.ceil(dt / NANOS_PER_CYCLE);
      stepPio(t0, cycles);
      clock.tick(cycles * NANOS_PER_CYCLE);
      sinceIo -= cycles * NANOS_PER_CYCLE;
    } else {
      const cycles = core.executeInstruction();
      totals.instructions += 1;
      totals.cycles += cycles;
      stepPio(t0, cycles);
      clock.tick(cycles * NANOS_PER_CYCLE);
      sinceIo -= cycles * NANOS_PER_CYCLE;
    }
  }
  led.poll(clock.nanos);
}

// The raw REPL, as mpremote uses it: Ctrl-A, the code, Ctrl-D; "OK", its output, 0x04, errors,
// 0x04, ">". Only while no firmware holds the port (no main.py yet, or after release).
function waitFor(text, limitMicros) {
  const end = now() + limitMicros;
  while (!console_.includes(text)) {
    if (now() > end) throw new Error('no ' + JSON.stringify(text) + ' from the REPL: ' + JSON.stringify(console_.slice(-300)));
    run(200);
  }
}

function sendToDevice(text) {
  for (const ch of Buffer.from(text, 'latin1')) toDevice.push(ch);
}

function rawExec(code, limitMicros) {
  console_ = '';
  sendToDevice('\x01');
  waitFor('raw REPL; CTRL-B to exit\r\n>', limitMicros);
  console_ = '';
  for (let i = 0; i < code.length; i += 256) {
    sendToDevice(code.slice(i, i + 256));
    run(500);
  }
  sendToDevice('\x04');
  waitFor('\x04>', limitMicros);
  const [out, err] = console_.split('\x04');
  if (!out.startsWith('OK')) throw new Error('raw REPL refused: ' + JSON.stringify(console_.slice(0, 300)));
  return { out: out.slice(2), err };
}

function putFiles(files, limitMicros) {
  for (const [name, b64] of Object.entries(files)) {
    const data = Buffer.from(b64, 'base64');
    // as mpremote's cp does it: the file opened, written in pieces, closed (base64 here)
    const parts = [];
    for (let i = 0; i < data.length; i += 768) parts.push("w(d('" + data.subarray(i, i + 768).toString('base64') + "'))");
    const code = "from binascii import a2b_base64 as d\nf=open('" + name + "','wb')\nw=f.write\n" + parts.join('\n') + '\nf.close()\n';
    const { err } = rawExec(code, limitMicros);
    if (err) throw new Error('writing ' + name + ': ' + err);
  }
}

function reply(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

function handle(cmd) {
  switch (cmd.op) {
    case 'run': {
      run(cmd.us);
      const out = { t: now(), events };
      events = [];
      return out;
    }
    case 'closed':
      closed = new Set(cmd.closed.map(([r, c]) => r + ',' + c));
      updateColumns();
      return { t: now() };
    case 'repl': {
      // until the REPL's prompt, then each file written and the code run, over the raw REPL
      bridged = false;
      waitFor('>>> ', cmd.limit_us || 5_000_000);
      putFiles(cmd.files || {}, cmd.limit_us || 5_000_000);
      const result = cmd.code ? rawExec(cmd.code, cmd.limit_us || 5_000_000) : { out: '', err: '' };
      sendToDevice('\x02'); // back to the friendly REPL
      run(2000);
      return { t: now(), out: result.out, err: result.err };
    }
    case 'enter':
      console_ = '';
      sendToDevice('\r\n');
      return { t: now() };
    case 'save':
      fs.writeFileSync(cmd.path, Buffer.from(mcu.flash));
      return { t: now() };
    case 'reset': // the power pulled and given back (or the RUN pin to GND): SRAM lost, flash kept
      pendingReset = cmd.why || 'power';
      run(1);
      return { t: now(), events: events.splice(0) };
    case 'bridge':
      bridged = true;
      return { t: now() };
    case 'profile': { // where the core spends its time: the PC sampled every 997 instructions
      const counts = new Map();
      const end = clock.nanos + cmd.us * 1000;
      while (clock.nanos < end) {
        const before = totals.instructions;
        run(50);
        counts.set(mcu.core.PC, (counts.get(mcu.core.PC) || 0) + 1);
      }
      return { t: now(), pcs: [...counts.entries()] };
    }
    case 'pc':
      return { pc: mcu.core.PC.toString(16), waiting: mcu.core.waiting, regs: Array.from(mcu.core.registers.slice(0, 15)).map((r) => (r >>> 0).toString(16)), rx: 0 };
    case 'totals':
      return { t: now(), ...totals };
    case 'quit':
      reply({ t: now() });
      process.exit(0);
    default:
      throw new Error('unknown op ' + cmd.op);
  }
}

boot(startNanos);
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  input += chunk;
  let nl;
  while ((nl = input.indexOf('\n')) >= 0) {
    const line = input.slice(0, nl);
    input = input.slice(nl + 1);
    if (!line.trim()) continue;
    try {
      reply(handle(JSON.parse(line)));
    } catch (e) {
      reply({ error: String(e && e.stack ? e.stack : e) });
    }
  }
});
process.stdin.on('end', () => process.exit(0));
