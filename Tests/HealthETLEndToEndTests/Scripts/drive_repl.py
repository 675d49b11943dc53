#!/usr/bin/env python3
"""Drives `healthetl repl` through a pseudo-terminal (test tooling, standard library only).

    drive_repl.py HEALTHETL OUT_DIR CSV_PATH

Runs two sessions, typing as a person would (multi-line statement, Tab completion, arrow-up
history, backspace, meta commands), and prints a JSON object with each session's transcript
and exit status. Fails (exit 1) if an expected prompt or answer never appears.
"""
import json
import os
import pty
import select
import subprocess
import sys
import time


class Session:
    def __init__(self, argv):
        master, slave = pty.openpty()
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, start_new_session=True)
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

    def finish(self, timeout=20):
        deadline = time.time() + timeout
        while self.proc.poll() is None and time.time() < deadline:
            self.read(0.1)
        while self.read(0.1):
            pass
        if self.proc.poll() is None:
            self.proc.kill()
        os.close(self.fd)
        return self.proc.wait()


def main():
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
    one.send("SELEC\tcount(*) FROM heart_rate_v\t;\r")   # Tab completes a keyword and a type
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
