"""Seat edges from the PIO capture's words: which seats, and when, in ns of the pad clock.

What it is for: ``seat_pio.seat_edges`` queues one word per change of the seat pins:
the pin levels in bits 31..24 (active low: a pressed seat reads 0) and the low 24 bits
of its down-counting sample counter. ``EdgeDecoder.decode(words, now_ns)`` turns the
words read from the FIFO into ``(pressed_bits, t_ns, gap_ns)`` tuples, in order. Pure
and MicroPython-compatible; the hal feeds it on the Pico, the tests feed it the words
``rp2040-pio-emulator`` produced.

Time: sample ``k`` is taken ``6 + 7 k`` system clock cycles after the state machine
started (``start_ns`` on the 64-bit timer, read just before starting it; the PIO and the
timer run from the same crystal, so their ratio is exact). The 24-bit counter wraps
every 2**24 samples (0.94 s at 125 MHz); the full count is the one just before the
timer's ``now_ns`` at the read. ``gap_ns``, the capture bound, is one sample period (two
right after another change: that slot is not sampled).

When the words cannot be timed honestly the decoder says so in ``gap_ns`` instead of
guessing: a FIFO found full (a change may have been dropped) or a read longer than
``STALE_NS`` after the previous one (the counter may have wrapped) stamps the batch
with the read time and the time since the previous read as the bound, like a scan.
"""

CYCLES_PER_SAMPLE = 7
FIRST_SAMPLE_CYCLE = 6
COUNT_MASK = 0xFFFFFF
FIFO_DEPTH = 8  # RX FIFO joined: 8 words
STALE_NS = 400000000  # well inside the 24-bit wrap at any clock up to 300 MHz
MARGIN = 4096  # samples: how far the start reference may be off (a few µs)


class EdgeDecoder:
    def __init__(self, freq_hz, start_ns, seats):
        self.freq = freq_hz
        self.start_ns = start_ns
        self.mask = (1 << seats) - 1
        self.last_k = -10
        self.last_read_ns = start_ns
        self.sample_ns = -(-CYCLES_PER_SAMPLE * 1000000000 // freq_hz)  # rounded up

    def time_of(self, k):
        """Timer ns of sample ``k``, rounded up (an edge is never after its stamp)."""
        cycles = FIRST_SAMPLE_CYCLE + CYCLES_PER_SAMPLE * k
        return self.start_ns - (-cycles * 1000000000 // self.freq)

    def sample_at(self, raw, now_ns):
        """The full sample number whose counter's low 24 bits are ``raw``: the latest one
        that is not after ``now_ns``."""
        k_low = (COUNT_MASK - raw) & COUNT_MASK
        cycles = (now_ns - self.start_ns) * self.freq // 1000000000
        latest = (cycles - FIRST_SAMPLE_CYCLE) // CYCLES_PER_SAMPLE + MARGIN
        return latest - ((latest - k_low) & COUNT_MASK)

    def decode(self, words, now_ns):
        """``(pressed_bits, t_ns, gap_ns)`` per word, oldest first."""
        out = []
        since = now_ns - self.last_read_ns
        self.last_read_ns = now_ns
        doubtful = len(words) >= FIFO_DEPTH or since > STALE_NS
        for word in words:
            word &= 0xFFFFFFFF
            bits = ~(word >> 24) & self.mask
            if doubtful:
                out.append((bits, now_ns, since))
                self.last_k = -10
                continue
            k = self.sample_at(word & COUNT_MASK, now_ns)
            slots = 2 if k - self.last_k == 2 else 1
            self.last_k = k
            out.append((bits, self.time_of(k), slots * self.sample_ns))
        return out
