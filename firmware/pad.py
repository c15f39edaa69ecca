"""Seat edges on the pad: leading-edge debounce and the queue of unacknowledged reports.

What it is for: deciding, from successive samples of all seat inputs, which seats were
pressed or released and when, and keeping each such report until the host acknowledges
it. Pure (no I/O, time passed in) and MicroPython-compatible; runs unchanged on CPython.

How to wire it: whenever the seats' levels (a bit mask, bit n-1 = seat n pressed) may
have changed, the main loop calls ``sample(bits, t_ns, gap_ns)`` with the pad time of
that sample in ns (the 64-bit timer, or the PIO edge capture's cycle count) and its
capture bound: the edge happened within ``(t_ns - gap_ns, t_ns]``. ``due(now_ns)``
returns the reports to (re)send now; ``ack(report_id)`` forgets one. A report is a list
``[report_id, t_ns, pressed_mask, released_mask, gap_ns, last_sent_ns]``. All times are
ns of the pad's clock.

Debounce: the first edge of a pin is reported at once, stamped with the sample that saw
it, and the pin is then ignored for ``holdoff_ns`` (bounce and contact chatter land in
the hold-off). After the hold-off the pin is compared again, so a release (or a new
press) that happened during it is reported then. Every seat that changes in one sample
goes into one report with one time: no pin wins a tie.
"""

REPORT_ID = 0
REPORT_T = 1
REPORT_PRESSED = 2
REPORT_RELEASED = 3
REPORT_GAP = 4
REPORT_SENT = 5


class Pad:
    def __init__(self, seats, holdoff_ns, capacity, resend_ns):
        if seats < 1 or seats > 8:
            raise ValueError("seats must be 1..8")
        self.seats = seats
        self.mask = (1 << seats) - 1
        self.holdoff_ns = holdoff_ns
        self.capacity = capacity
        self.resend_ns = resend_ns
        self.state = 0  # debounced mask: bit n-1 set while seat n is pressed
        self.until = [0] * seats  # per seat: end of its hold-off (ns)
        self.queue = []  # unacknowledged reports, oldest first
        self.next_id = 1
        self.overflow = 0  # edges not reported because the queue was full

    def sample(self, bits, now_ns, gap_ns):
        """Take one sample of all seats; returns the new report, or None."""
        bits &= self.mask
        diff = bits ^ self.state
        if not diff:
            return None
        pressed = 0
        released = 0
        until = self.until
        holdoff = self.holdoff_ns
        m = 1
        for i in range(self.seats):
            # A hold-off is over when its time has come, or when the clock went back
            # (a counter that wrapped must not freeze a seat until it comes round again).
            if diff & m and (now_ns >= until[i] or now_ns < until[i] - holdoff):
                if bits & m:
                    pressed |= m
                else:
                    released |= m
                until[i] = now_ns + self.holdoff_ns
            m <<= 1
        changed = pressed | released
        if not changed:
            return None
        self.state ^= changed
        if len(self.queue) >= self.capacity:
            self.overflow += 1
            return None
        report = [self.next_id, now_ns, pressed, released, gap_ns, -1]
        self.next_id += 1
        self.queue.append(report)
        return report

    def ack(self, report_id):
        """Forget an acknowledged report; False if it was not pending (a duplicate ack)."""
        queue = self.queue
        for k in range(len(queue)):
            if queue[k][REPORT_ID] == report_id:
                del queue[k]
                return True
        return False

    def due(self, now_ns, limit):
        """Reports never sent, or sent ``resend_ns`` ago or more; marks them sent now.
        With none due it returns an empty tuple, so that a service pass waiting for an
        ACK allocates nothing."""
        out = None
        for report in self.queue:
            sent = report[REPORT_SENT]
            if sent < 0 or now_ns - sent >= self.resend_ns:
                if out is None:
                    out = []
                if len(out) >= limit:
                    break
                report[REPORT_SENT] = now_ns
                out.append(report)
        return out or ()
