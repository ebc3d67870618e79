"""Per-square debounce over 32-bit occupancy masks. Shared by the Pi scanners and the RP2040.

A square changes state only after its raw reading has disagreed with the stable state for
`scans` consecutive scans; a reading that flickers back resets its count. The fast path (nothing
differs, nothing counting) costs one comparison, so a 1 kHz scan loop stays cheap.
"""


class Debouncer:
    def __init__(self, scans: int = 3, bits: int = 32, initial: int = 0) -> None:
        if scans < 1:
            raise ValueError("debounce needs at least 1 scan")
        self.scans = scans
        self.bits = bits
        self.stable = initial
        self._counts = [0] * bits
        self._counting = 0  # mask of bits whose count is non-zero

    def update(self, raw: int) -> int:
        """Feed one scan's raw mask; return the debounced mask."""
        diff = raw ^ self.stable
        if diff == 0 and self._counting == 0:
            return self.stable
        counts = self._counts
        # Bits that went back to agreeing with the stable state stop counting.
        stopped = self._counting & ~diff
        i = 0
        while stopped:
            if stopped & 1:
                counts[i] = 0
            stopped >>= 1
            i += 1
        changed = 0
        counting = 0
        i = 0
        d = diff
        while d:
            if d & 1:
                c = counts[i] + 1
                if c >= self.scans:
                    counts[i] = 0
                    changed |= 1 << i
                else:
                    counts[i] = c
                    counting |= 1 << i
            d >>= 1
            i += 1
        self._counting = counting
        self.stable ^= changed
        return self.stable
