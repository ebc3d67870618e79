"""Fake `rp2`: asm_pio assembles the program into a list of instructions (on CPython; the
MicroPython unix port cannot rebind a function's globals, so there the program is not run);
StateMachine records every word put into its FIFO."""

try:
    import types
except ImportError:  # MicroPython
    types = None


class PIO:
    OUT_LOW = 0
    OUT_HIGH = 1
    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1


class _Instruction:
    def __init__(self, program, name, args):
        self.name = name
        self.args = args
        self.sideset = None
        self.delay = 0
        program.append(self)

    def side(self, value):
        self.sideset = value
        return self

    def __getitem__(self, delay):
        self.delay = delay
        return self

    def cycles(self):
        return 1 + self.delay


class Program:
    """What @asm_pio produced: the instructions, labels and settings of one PIO program."""

    def __init__(self, fn, settings):
        self.settings = settings
        self.instructions = []
        self.labels = {}
        ns = {"x": "x", "y": "y", "not_x": "!x", "not_y": "!y", "pins": "pins"}

        def emit(name):
            return lambda *args: _Instruction(self.instructions, name, args)

        for name in ("out", "jmp", "nop", "set", "mov", "pull", "push", "in_", "wait", "irq"):
            ns[name] = emit(name)
        ns["label"] = lambda name: self.labels.__setitem__(name, len(self.instructions))
        ns["wrap_target"] = lambda: self.labels.__setitem__("<wrap_target>", len(self.instructions))
        ns["wrap"] = lambda: self.labels.__setitem__("<wrap>", len(self.instructions))
        if types is not None and hasattr(fn, "__code__"):
            types.FunctionType(fn.__code__, ns)()


def asm_pio(**settings):
    def assemble(fn):
        return Program(fn, settings)

    return assemble


class StateMachine:
    last = None

    def __init__(self, sm_id, program, freq=125_000_000, **kwargs):
        self.id = sm_id
        self.program = program
        self.freq = freq
        self.kwargs = kwargs
        self.words = []
        self.running = False
        StateMachine.last = self

    def active(self, value=None):
        if value is not None:
            self.running = bool(value)
        return self.running

    def put(self, value, shift=0):
        if isinstance(value, int):
            value = [value]
        for v in value:
            self.words.append((v << shift) & 0xFFFFFFFF)
