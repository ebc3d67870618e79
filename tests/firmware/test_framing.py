import random

from cobs import cobs
from hypothesis import given
from hypothesis import strategies as st

from firmware import framing, protocol
from firmware.debounce import Debouncer
from firmware.endpoint import Endpoint
from firmware.framing import FrameDecoder, encode_frame


def test_crc16_ccitt_false_check_value():
    assert framing.crc16(b"123456789") == 0x29B1
    assert framing.crc16_pure(b"123456789") == 0x29B1


@given(st.binary(max_size=700))
def test_micropython_cobs_and_crc_match_the_libraries(data):
    assert framing.cobs_encode_pure(data) == cobs.encode(data)
    assert framing.cobs_decode_pure(cobs.encode(data)) == data
    assert framing.crc16_pure(data) == framing.crc16(data)


@given(st.lists(st.binary(min_size=1, max_size=300), max_size=5), st.integers(1, 64))
def test_frames_survive_any_chunking(payloads, chunk):
    wire = b"".join(encode_frame(p) for p in payloads)
    decoder = FrameDecoder()
    out = []
    for i in range(0, len(wire), chunk):
        out += decoder.feed(wire[i : i + chunk])
    assert out == payloads and decoder.bad == 0


def test_every_single_bit_flip_is_rejected():
    payload = protocol.pack(protocol.OCCUPANCY, 7, protocol.occupancy_body(0x0F0F0F0F, 1234))
    frame = encode_frame(payload)
    for i in range(len(frame) - 1):
        for bit in range(8):
            bad = bytearray(frame)
            bad[i] ^= 1 << bit
            got = FrameDecoder().feed(bytes(bad) + b"\x00")
            assert got == []


def test_random_corruption_never_yields_a_wrong_payload():
    rng = random.Random(4)
    payloads = [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 120))) for _ in range(300)]
    sent = set(payloads)
    decoder = FrameDecoder()
    accepted = []
    for p in payloads:
        frame = bytearray(encode_frame(p))
        roll = rng.random()
        if roll < 0.2:  # flip a byte
            frame[rng.randrange(len(frame) - 1)] ^= rng.randrange(1, 256)
        elif roll < 0.3:  # drop a byte
            del frame[rng.randrange(len(frame))]
        elif roll < 0.4:  # truncate
            frame = frame[: rng.randrange(len(frame))]
        elif roll < 0.5:  # garbage in front
            frame = bytearray(rng.randrange(256) for _ in range(rng.randrange(40))) + frame
        accepted += decoder.feed(bytes(frame))
    assert all(p in sent for p in accepted)
    assert decoder.bad > 50 and len(accepted) >= 120  # the untouched half, less a few


def test_resynchronises_within_one_frame_after_garbage():
    decoder = FrameDecoder()
    rng = random.Random(1)
    garbage = bytes(rng.randrange(1, 256) for _ in range(5000))  # no delimiter: overflows
    assert decoder.feed(garbage) == []
    assert decoder.feed(encode_frame(b"lost")) == []  # its start was eaten by the garbage
    assert decoder.feed(encode_frame(b"next")) == [b"next"]


def test_debounce_needs_n_stable_scans_per_square():
    d = Debouncer(3)
    assert [d.update(0b11) for _ in range(3)] == [0, 0, 0b11]
    assert [d.update(0b01), d.update(0b11), d.update(0b01), d.update(0b01)] == [3, 3, 3, 3]
    assert d.update(0b01) == 0b01


class Wire:
    """One direction of a link that loses, flips and truncates bytes at random."""

    def __init__(self, rng, loss=0.0):
        self.rng = rng
        self.loss = loss
        self.buffer = bytearray()

    def write(self, data):
        for b in data:
            r = self.rng.random()
            if r < self.loss:
                continue
            if r < 2 * self.loss:
                b ^= 1 << self.rng.randrange(8)
            self.buffer.append(b)

    def take(self):
        data, self.buffer = bytes(self.buffer), bytearray()
        return data


def test_endpoints_deliver_the_latest_state_over_a_lossy_wire():
    rng = random.Random(7)
    now = [0]
    a_to_b, b_to_a = Wire(rng, 0.02), Wire(rng, 0.02)
    a = Endpoint(a_to_b.write, lambda: now[0])
    b = Endpoint(b_to_a.write, lambda: now[0])
    sent_bodies = set()
    received = []
    for step in range(3000):
        now[0] += 10
        if step % 50 == 0 and step < 2500:
            body = protocol.occupancy_body(rng.getrandbits(32), step)
            sent_bodies.add(body)
            a.send(protocol.OCCUPANCY, body)
        received += [m for m in b.feed(a_to_b.take()) if m[0] == protocol.OCCUPANCY]
        a.feed(b_to_a.take())
        a.poll()
        b.poll()
    assert all(body in sent_bodies for _, body in received)  # nothing corrupt got through
    assert received[-1][1] == body  # the newest state arrived in the end
    assert a.pending() == 0 and a.retries > 0
    assert a.peer_alive() and b.peer_alive()


def test_a_silent_peer_is_noticed():
    now = [0]
    a = Endpoint(lambda d: None, lambda: now[0], timeout_ms=3000)
    a.feed(encode_frame(protocol.pack(protocol.HEARTBEAT, 1, protocol.heartbeat_body(5, 9))))
    assert a.peer_alive()
    now[0] = 2999
    assert a.peer_alive()
    now[0] = 3000
    assert not a.peer_alive()
