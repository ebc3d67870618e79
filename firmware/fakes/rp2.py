"""Fake `rp2`: asm_pio assembles the program into a list of instructions (on CPython; the
MicroPython unix port cannot rebind a function's globals, so there the program is not run);
StateMachine records every word put into its FIFO."""

TYPE_CHECKING = False  # MicroPython has no `typing`: names for the checker, quoted where used
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType

_types: "ModuleType | None"
try:
    import types as _types
except ImportError:  # MicroPython
    _types = None


class PIO:
    OUT_LOW = 0
    OUT_HIGH = 1
    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1


class _Instruction:
    def __init__(self, program: "list[_Instruction]", name: str, args: tuple[object, ...]) -> None:
        self.name = name
        self.args = args
        self.sideset: object = None
        self.delay = 0
        program.append(self)

    def side(self, value: object) -> "_Instruction":
        self.sideset = value
        return self

    def __getitem__(self, delay: int) -> "_Instruction":
        self.delay = delay
        return self

    def cycles(self) -> int:
        return 1 + self.delay


class Program:
    """What @asm_pio produced: the instructions, labels and settings of one PIO program."""

    def __init__(self, fn: "Callable[[], None]", settings: dict[str, object]) -> None:
        self.settings = settings
        self.instructions: list[_Instruction] = []
        self.labels: dict[str, int] = {}
        ns: dict[str, object] = {"x": "x", "y": "y", "not_x": "!x", "not_y": "!y", "pins": "pins"}

        def emit(name: str) -> "Callable[..., _Instruction]":
            return lambda *args: _Instruction(self.instructions, name, args)

        for name in ("out", "jmp", "nop", "set", "mov", "pull", "push", "in_", "wait", "irq"):
            ns[name] = emit(name)
        ns["label"] = lambda name: self.labels.__setitem__(name, len(self.instructions))
        ns["wrap_target"] = lambda: self.labels.__setitem__("<wrap_target>", len(self.instructions))
        ns["wrap"] = lambda: self.labels.__setitem__("<wrap>", len(self.instructions))
        if _types is not None and hasattr(fn, "__code__"):
            _types.FunctionType(fn.__code__, ns)()


def asm_pio(**settings: object) -> "Callable[[Callable[[], None]], Program]":
    def assemble(fn: "Callable[[], None]") -> Program:
        return Program(fn, settings)

    return assemble


class DMA:
    """rp2.DMA (MicroPython 1.22.0 on): a transfer into a state machine's TX FIFO at PIO0_TXF0 +
    4 * its number is handed to that machine as ``put(bytes, 24)`` gives it (each byte the top
    of a word, what the program shifts out). ``busy`` polls of ``active()`` say it still runs
    (a test sets it: the chain takes time on the wire)."""

    busy = 0
    last: "DMA | None" = None

    def __init__(self) -> None:
        self.transfers = 0
        self._active = 0
        DMA.last = self

    def pack_ctrl(self, **settings: object) -> "dict[str, object]":
        return settings

    def config(
        self,
        read: "bytes | bytearray | None" = None,
        write: int | None = None,
        count: int = 0,
        ctrl: object = None,
        trigger: bool = False,
    ) -> None:
        assert isinstance(write, int) and read is not None
        machine = StateMachine.by_id[(write - 0x50200010) // 4]
        if trigger:
            self.transfers += 1
            machine.put(bytes(read[:count]), 24)
            self._active = DMA.busy

    def active(self, value: int | None = None) -> bool:
        if self._active:
            self._active -= 1
            return True
        return False


class StateMachine:
    last: "StateMachine | None" = None
    by_id: "dict[int, StateMachine]" = {}  # noqa: RUF012  (every machine made, by number)

    def __init__(
        self, sm_id: int, program: Program, freq: int = 125_000_000, **kwargs: object
    ) -> None:
        self.id = sm_id
        self.program = program
        self.freq = freq
        self.kwargs = kwargs
        self.words: list[int] = []
        self.running = False
        StateMachine.last = self
        StateMachine.by_id[sm_id] = self

    def active(self, value: int | None = None) -> bool:
        if value is not None:
            self.running = bool(value)
        return self.running

    def tx_fifo(self) -> int:
        """Words waiting in the TX FIFO: none (the fake sends at once)."""
        return 0

    def put(self, value: "int | bytes | bytearray | list[int]", shift: int = 0) -> None:
        words = [value] if isinstance(value, int) else value
        for v in words:
            self.words.append((v << shift) & 0xFFFFFFFF)
