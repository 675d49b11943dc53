#!/usr/bin/env python3
"""Drives `healthetl repl` through a pseudo-terminal (test tooling, standard library only).

    drive_repl.py HEALTHETL OUT_DIR CSV_PATH
    drive_repl.py escape|paste|terminate HEALTHETL OUT_DIR

Runs two sessions, typing as a person would (multi-line statement, Tab completion, arrow-up
history, backspace, meta commands), and prints a JSON object with each session's transcript
and exit status. Fails (exit 1) if an expected prompt or answer never appears.

The hostile modes (issue 56) print a JSON object of what they measured: `escape` sends escape
sequences whose parameter overflows and one longer than any key's, then asks a query;
`paste` pastes a 20,000-character statement at once and times its echo; `terminate` sends
SIGTERM while a line is read. Each says whether the terminal had echo back at the end.
"""
import fcntl
import json
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time


class Session:
    def __init__(self, argv, keep_terminal=False):
        master, slave = pty.openpty()
        # 80 columns, as a terminal says (a fresh pseudo-terminal says 0).
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, start_new_session=True)
        # Kept open to read the terminal's settings once the session is over.
        self.slave = slave if keep_terminal else None
        if not keep_terminal:
            os.close(slave)
        self.fd = master
        self.transcript = ""
        self.seen = 0  # transcript offset up to which expectations were met

    def read(self, timeout):
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.fd, 65536)
        except OSError:
            return False
        self.transcript += data.decode("utf-8", "replace")
        return bool(data)

    def expect(self, text, timeout=20):
        deadline = time.time() + timeout
        while True:
            at = self.transcript.find(text, self.seen)
            if at >= 0:
                self.seen = at + len(text)
                return
            if time.time() > deadline or not self.read(max(0.05, deadline - time.time())) and self.proc.poll() is not None:
                raise SystemExit(f"never saw {text!r}; transcript:\n{self.transcript}")

    def send(self, keys):
        # One keystroke at a time, as a terminal delivers them.
        for ch in keys:
            os.write(self.fd, ch.encode())
            time.sleep(0.005)

    def echoes(self):
        """Whether the terminal echoes and reads lines (what raw mode turns off)."""
        flags = termios.tcgetattr(self.slave)[3]
        return bool(flags & termios.ECHO) and bool(flags & termios.ICANON)

    def paste(self, text, timeout=60):
        """Writes `text` as a terminal delivers a paste (as fast as it is read), reading the
        session's output meanwhile; returns (seconds, bytes) until all of it was echoed. Only
        the end of the output is kept (a line editor that redraws the line after each key
        writes hundreds of megabytes)."""
        data, start, written, end = text.encode(), time.time(), 0, b""
        tail = text[-40:]
        while time.time() - start < timeout:
            readable, ready, _ = select.select([self.fd], [self.fd] if data else [], [], 0.5)
            if readable:
                try:
                    chunk = os.read(self.fd, 1 << 20)
                except OSError:
                    break
                written += len(chunk)
                end = (end + chunk)[-4096:]
            if ready:
                data = data[os.write(self.fd, data[:1024]):]
            # The echo's end, without the cursor's moves and erasures and the line breaks.
            shown = re.sub(r"\x1b\[[0-9;]*[A-Za-z]|[\r\n]", "", end.decode("utf-8", "replace"))
            if not data and shown.endswith(tail):
                break
        seconds = time.time() - start
        self.transcript += end.decode("utf-8", "replace")
        self.seen = len(self.transcript)
        return seconds, written

    def finish(self, timeout=20):
        deadline = time.time() + timeout
        while self.proc.poll() is None and time.time() < deadline:
            self.read(0.1)
        while self.read(0.1):
            pass
        if self.proc.poll() is None:
            self.proc.kill()
        status = self.proc.wait()
        if self.slave is not None:
            # Read before the master closes, which hangs the terminal up.
            self.echo_after = self.echoes()
            os.close(self.slave)
        os.close(self.fd)
        return status


PROMPT = "healthql> "


def escape(binary, out):
    """An escape whose parameter overflows a 64-bit integer (it killed the session), one longer
    than any key's, then a query: the session must answer it and end as usual."""
    session = Session([binary, "repl", "--out", out], keep_terminal=True)
    session.expect(PROMPT)
    raw_at_prompt = not session.echoes()
    session.send("SELECT count(*) FROM steps" + "\x1b[99999999999999999999~" + ";\r")
    session.expect("1 row (")
    session.expect(PROMPT)
    session.send("\x1b[" + "9" * 200 + "~" + "\x15" + "SELECT count(*) FROM steps;\r")   # Ctrl-U drops what is left of it
    session.expect("1 row (")
    session.expect(PROMPT)
    session.send(".quit\r")
    status = session.finish()
    return {"transcript": session.transcript, "exit": status, "raw_at_prompt": raw_at_prompt, "echo_after": session.echo_after}


def paste(binary, out):
    """A 20,000-character statement pasted at once (an IN list of 2,850 values): how long its
    echo takes and how many bytes it writes, then its answer; then two lines pasted at once."""
    values = ",".join(str(100_000 + i) for i in range(2_850))
    statement = "SELECT count(*) FROM steps WHERE value NOT IN (" + values + ");"
    statement = statement[:-2] + " " * (20_000 - len(statement)) + ");"
    session = Session([binary, "repl", "--out", out], keep_terminal=True)
    session.expect(PROMPT)
    seconds, written = session.paste(statement)
    session.send("\r")
    session.expect("1 row (")
    session.expect(PROMPT)
    os.write(session.fd, b"SELECT count(*)\rFROM steps;\r")   # two lines in one read: the second is kept for the next prompt
    session.expect("1 row (")
    session.expect(PROMPT)
    session.send(".quit\r")
    status = session.finish()
    return {"characters": len(statement), "seconds": seconds, "bytes": written, "exit": status,
            "echo_after": session.echo_after, "answer": session.transcript[-1000:]}


def terminate(binary, out):
    """SIGTERM while a line is read, the terminal in raw mode: it must get its settings back."""
    session = Session([binary, "repl", "--out", out], keep_terminal=True)
    session.expect(PROMPT)
    session.send("SELECT")
    raw_at_prompt = not session.echoes()
    session.proc.send_signal(signal.SIGTERM)
    status = session.finish()
    return {"exit": status, "raw_at_prompt": raw_at_prompt, "echo_after": session.echo_after}


def main():
    modes = {"escape": escape, "paste": paste, "terminate": terminate}
    if sys.argv[1] in modes:
        print(json.dumps(modes[sys.argv[1]](*sys.argv[2:4])))
        return
    binary, out, csv_path = sys.argv[1:4]
    argv = [binary, "repl", "--out", out]
    prompt, more = "healthql> ", "...> "

    one = Session(argv)
    one.expect(prompt)
    one.send("SELECT count(*)\r")            # unfinished: a continuation prompt
    one.expect(more)
    one.send("FROM steps\r")                  # parses, but a statement ends at ';': more is asked for
    one.expect(more)
    one.send(";\r")                           # now complete
    one.expect("1 row (")
    one.expect(prompt)
    one.send(f".export csv {csv_path}\r")
    one.expect("wrote 1 rows")
    one.expect(prompt)
    one.send("SELEC\tcount(*) FROM heart_rate_variability_s\t;\r")   # Tab completes a keyword and a type
    one.expect("1 row (")
    one.expect(prompt)
    one.send("\x1b[A\r")                      # arrow up: the last statement again
    one.expect("1 row (")
    one.expect(prompt)
    one.send("SELECT count(*) FROM stepsX\x7f;\r")   # backspace removes the typo
    one.expect("1 row (")
    one.expect(prompt)
    one.send("SELECT * FROM stepz;\r")
    one.expect("Did you mean 'steps'?")
    one.expect(prompt)
    one.send(".history\r")
    one.expect("SELECT count(*) FROM heart_rate_variability_sdnn")
    one.expect(prompt)
    one.send(".quit\r")
    status_one = one.finish()

    two = Session(argv)
    two.expect(prompt)
    two.send(".history\r")
    two.expect("SELECT count(*) FROM steps")
    two.expect(prompt)
    two.send("\x04")                          # Ctrl-D on an empty line ends the session
    status_two = two.finish()

    # Issue 45: the keys of line editing, each in every form a terminal sends. A key the editor
    # did not know would leave "~" or "H" in the statement, which then fails.
    three = Session(argv)
    three.expect(prompt)
    home = {"ESC[1~": "\x1b[1~", "ESC[H": "\x1b[H", "ESC O H": "\x1bOH", "ESC[7~": "\x1b[7~", "Ctrl-A": "\x01"}
    end = {"ESC[4~": "\x1b[4~", "ESC[F": "\x1b[F", "ESC O F": "\x1bOF", "ESC[8~": "\x1b[8~", "Ctrl-E": "\x05"}
    keys = {}
    for (home_name, home_keys), (end_name, end_keys) in zip(home.items(), end.items()):
        three.send("ELECT count(*) FROM steps" + home_keys + "S" + end_keys + ";\r")
        three.expect("1 row (")
        three.expect(prompt)
        keys[home_name] = keys[end_name] = "ok"
    three.send("xx SELECT count(*) FROM steps;" + "\x01" + "\x1b[3~" * 3 + "\r")       # Delete under the cursor
    three.expect("1 row (")
    three.expect(prompt)
    three.send("SELECT count(*) FROM steps; tail" + "\x02" * 5 + "\x0b" + "\r")         # Ctrl-B ×5, Ctrl-K
    three.expect("1 row (")
    three.expect(prompt)
    three.send("nonsense words" + "\x15" + "SELECT count(*) FROM steps; junk" + "\x17" + "\r")   # Ctrl-U, Ctrl-W
    three.expect("1 row (")
    three.expect(prompt)
    three.send("SELECT count(*) FROM stepsX" + "\x02" + "\x04" + ";\r")                 # Ctrl-D deletes under the cursor
    three.expect("1 row (")
    three.expect(prompt)
    # SIGINT (what Ctrl-C sends while a statement runs) stops the statement, never the session.
    os.kill(three.proc.pid, 2)
    time.sleep(0.3)
    three.send("SELECT count(*) FROM steps;\r")
    three.expect("1 row (")
    three.expect(prompt)
    three.send(".quit\r")
    status_three = three.finish()

    print(json.dumps({"session1": one.transcript, "session2": two.transcript, "session3": three.transcript,
                      "exit1": status_one, "exit2": status_two, "exit3": status_three, "keys": keys}))


if __name__ == "__main__":
    main()
