"""A terminal for a test: a tmux session on a private tmux server, keys in, the screen out."""
import os
import subprocess
import time
import uuid


class Pane:
    """A tmux session on a tmux server of its own (`-L`): tests running side by side never share a
    server, so one ending its last session cannot take down another's."""

    def __init__(self, width=100, height=30):
        self.name = "sise-" + uuid.uuid4().hex[:8]
        self.tmux = ["tmux", "-L", self.name]
        subprocess.run([*self.tmux, "new-session", "-d", "-s", self.name, "-x", str(width), "-y", str(height),
                        "env LANG=C.UTF-8 TERM=xterm-256color bash --norc --noprofile"], check=True)

    def send(self, *keys, literal=False):
        command = [*self.tmux, "send-keys", "-t", self.name] + (["-l"] if literal else []) + list(keys)
        subprocess.run(command, check=True)

    def text(self) -> str:
        return subprocess.run([*self.tmux, "capture-pane", "-p", "-t", self.name], check=True,
                              capture_output=True, text=True).stdout

    def wait(self, predicate, timeout=30, what="condition"):
        deadline = time.time() + timeout
        while time.time() < deadline:
            screen = self.text()
            if predicate(screen):
                return screen
            time.sleep(0.2)
        raise AssertionError(f"{what} never held; screen was:\n{self.text()}")

    def resize(self, width, height):
        subprocess.run([*self.tmux, "resize-window", "-t", self.name, "-x", str(width), "-y", str(height)], check=True)

    def close(self):
        subprocess.run([*self.tmux, "kill-server"], check=False)
        # tmux leaves its socket file behind: the private server's is ours to remove.
        socket = os.path.join(os.environ.get("TMUX_TMPDIR", "/tmp"), f"tmux-{os.getuid()}", self.name)
        if os.path.exists(socket):
            os.unlink(socket)
