"""Secret Service throughput: keychaind beside gnome-keyring-daemon, in one run.

Each provider gets a private session bus of its own (two providers cannot own
org.freedesktop.secrets on one bus) and a throw-away home. Both are measured by
the same clients, which nobody here wrote: libsecret's `secret-tool` (a whole
process per lookup, as a shell script uses it) and the Python `secretstorage`
library over jeepney (one connection, one dh-ietf1024-sha256-aes128-cbc-pkcs7
session, as Python `keyring` uses it). Rounds alternate between the providers
so that a slow moment of the machine falls on both.

Run by scripts/bench-secret-service; prints a table and, with --json, one JSON
object per measurement.
"""

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

import secretstorage
from jeepney.io.blocking import open_dbus_connection

PASSWORD = b"bench-passphrase"


class PrivateBus:
    """A dbus-daemon on a Unix socket in a temporary directory."""

    def __init__(self, root):
        self.root = root
        config = os.path.join(root, "bus.conf")
        socket_path = os.path.join(root, "bus")
        with open(config, "w") as f:
            f.write(
                "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\"\n"
                " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
                "<busconfig><type>session</type>"
                f"<listen>unix:path={socket_path}</listen><auth>EXTERNAL</auth>"
                "<policy context=\"default\"><allow send_destination=\"*\" eavesdrop=\"true\"/>"
                "<allow eavesdrop=\"true\"/><allow own=\"*\"/></policy></busconfig>\n")
        self.process = subprocess.Popen(
            ["dbus-daemon", "--config-file", config, "--nofork", "--nopidfile", "--print-address"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.address = self.process.stdout.readline().strip()
        if not self.address:
            raise SystemExit("error: dbus-daemon did not start")

    def stop(self):
        self.process.terminate()
        self.process.wait(10)


class Provider:
    """One Secret Service provider on its own bus, with its environment."""

    def __init__(self, name, root):
        self.name = name
        self.root = root
        os.makedirs(root, mode=0o700)
        self.bus = PrivateBus(root)
        self.home = os.path.join(root, "home")
        os.makedirs(self.home, mode=0o700)
        runtime = os.path.join(root, "run")
        os.makedirs(runtime, mode=0o700)
        self.env = dict(os.environ, HOME=self.home, XDG_RUNTIME_DIR=runtime,
                        XDG_DATA_HOME=os.path.join(self.home, ".local", "share"),
                        DBUS_SESSION_BUS_ADDRESS=self.bus.address)
        self.env.pop("SECURE_STORAGE_HOME", None)
        self.process = None

    def wait_for_name(self):
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            check = subprocess.run(
                ["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                 "org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.secrets"],
                env=self.env, capture_output=True, text=True)
            if "boolean true" in check.stdout:
                return
            time.sleep(0.05)
        raise SystemExit(f"error: {self.name} did not take org.freedesktop.secrets")

    def rss_kib(self):
        with open(f"/proc/{self.process.pid}/status") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
        return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.bus.stop()


class GnomeKeyring(Provider):
    def start(self):
        # --unlock reads the login keyring's password from stdin and creates the keyring with it.
        self.process = subprocess.Popen(
            ["gnome-keyring-daemon", "--foreground", "--unlock", "--components=secrets"],
            env=self.env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.process.stdin.write(PASSWORD)
        self.process.stdin.close()
        self.wait_for_name()


class Keychaind(Provider):
    def __init__(self, name, root, keychain, keychaind):
        super().__init__(name, root)
        self.keychain = keychain
        self.keychaind = keychaind
        self.env["SECURE_STORAGE_HOME"] = os.path.join(self.home, "keychain")

    def start(self):
        passphrase = os.path.join(self.home, "passphrase")
        fd = os.open(passphrase, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.write(fd, PASSWORD)
        os.close(fd)
        subprocess.run([self.keychain, "create", "--passphrase-file", passphrase],
                       env=self.env, check=True, capture_output=True)
        self.process = subprocess.Popen(
            [self.keychaind, "--foreground", "--passphrase-file", passphrase],
            env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.wait_for_name()


def secret_tool(provider, *arguments, data=None):
    return subprocess.run(["secret-tool", *arguments], env=provider.env, input=data, capture_output=True, check=True)


def per_second(count, seconds):
    return count / seconds if seconds > 0 else float("inf")


def measure(provider, items, lookups, rounds):
    """Stores, DH GetSecret calls and secret-tool lookups per second, best of `rounds` (median reported too)."""
    os.environ["DBUS_SESSION_BUS_ADDRESS"] = provider.bus.address
    connection = open_dbus_connection(bus="SESSION")
    collection = secretstorage.get_default_collection(connection)
    if collection.is_locked():
        raise SystemExit(f"error: {provider.name}'s default collection is locked")
    results = {"store": [], "get_secret": [], "secret_tool_lookup": []}
    created = []
    for round_index in range(rounds):
        start = time.perf_counter()
        for index in range(items):
            created.append(collection.create_item(
                f"bench {round_index}-{index}",
                {"service": "bench", "username": f"user-{round_index}-{index}"},
                b"secret-%d-%d" % (round_index, index)))
        results["store"].append(per_second(items, time.perf_counter() - start))
        start = time.perf_counter()
        for item in created[-items:]:
            item.get_secret()
        results["get_secret"].append(per_second(items, time.perf_counter() - start))
        start = time.perf_counter()
        for index in range(lookups):
            secret_tool(provider, "lookup", "service", "bench", "username", f"user-{round_index}-{index % items}")
        results["secret_tool_lookup"].append(per_second(lookups, time.perf_counter() - start))
    connection.close()
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keychain", required=True, help="the keychain tool")
    parser.add_argument("--keychaind", required=True, help="the keychaind agent")
    parser.add_argument("--items", type=int, default=200)
    parser.add_argument("--lookups", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    arguments = parser.parse_args()
    for program in ("dbus-daemon", "dbus-send", "gnome-keyring-daemon", "secret-tool"):
        if shutil.which(program) is None:
            raise SystemExit(f"error: {program} is not installed (Debian: dbus-daemon dbus-bin gnome-keyring libsecret-tools)")
    root = tempfile.mkdtemp(prefix="bench-secret-service.")
    providers = [
        GnomeKeyring("gnome-keyring", os.path.join(root, "gnome")),
        Keychaind("keychaind", os.path.join(root, "keychaind"), arguments.keychain, arguments.keychaind),
    ]
    measurements = {}
    try:
        for provider in providers:
            provider.start()
        for round_index in range(arguments.rounds):
            for provider in providers:
                result = measure(provider, arguments.items, arguments.lookups, 1)
                for key, values in result.items():
                    measurements.setdefault(provider.name, {}).setdefault(key, []).extend(values)
        memory = {provider.name: provider.rss_kib() for provider in providers}
    finally:
        for provider in providers:
            provider.stop()
        shutil.rmtree(root, ignore_errors=True)

    ours, peer = measurements["keychaind"], measurements["gnome-keyring"]
    rows = []
    for key, label in (("store", "stores/s (CreateItem, DH session)"),
                       ("get_secret", "GetSecret/s (DH session)"),
                       ("secret_tool_lookup", "secret-tool lookup/s (whole process)")):
        ours_median, peer_median = statistics.median(ours[key]), statistics.median(peer[key])
        rows.append({"measure": key, "label": label, "keychaind": ours_median, "gnome_keyring": peer_median,
                     "ratio": ours_median / peer_median})
    rows.append({"measure": "rss_kib", "label": "memory after the run, RSS / peak KiB",
                 "keychaind": memory["keychaind"], "gnome_keyring": memory["gnome-keyring"],
                 "ratio": memory["keychaind"][0] / memory["gnome-keyring"][0]})
    if arguments.json:
        for row in rows:
            print(json.dumps(row))
        return
    print(f"{'':44} {'keychaind':>14} {'gnome-keyring':>14} {'ratio':>7}")
    for row in rows:
        ours_text = "%d / %d" % row["keychaind"] if row["measure"] == "rss_kib" else "%.0f" % row["keychaind"]
        peer_text = "%d / %d" % row["gnome_keyring"] if row["measure"] == "rss_kib" else "%.0f" % row["gnome_keyring"]
        print(f"{row['label']:44} {ours_text:>14} {peer_text:>14} {row['ratio']:>6.1f}×")
    print(f"(medians of {arguments.rounds} alternating rounds; {arguments.items} items, {arguments.lookups} lookups each)")


if __name__ == "__main__":
    sys.exit(main())
