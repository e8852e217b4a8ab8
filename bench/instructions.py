#!/usr/bin/env python3
"""Instructions the server executes per view and per move (issue 9;
BENCHMARKS.md, "Instructions per request").

Drives a server that runs under `valgrind --tool=callgrind` (started by
bench/instructions.sh) over one keep-alive connection: registers two
accounts, starts a game, warms up, then for each phase zeroes callgrind's
counters, sends the phase's requests one at a time and dumps the counters:

  views        N x GET /games/{id}, as each player in turn
  mover views  N x GET /games/{id}, as the player to move (with legal moves)
  plies        N x (GET as the player to move + POST a random quiet move)

and prints the instructions (callgrind's Ir, all threads) per request of
each phase, and per move (plies minus mover views). Only the standard
library; loopback only.
"""

import argparse
import glob
import http.client
import json
import os
import random
import subprocess
import sys
import time


def call(conn, method, path, token=None, body=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    data = None if body is None else json.dumps(body)
    conn.request(method, path, body=data, headers=headers)
    answer = conn.getresponse()
    text = answer.read()
    if not 200 <= answer.status < 300:
        sys.exit(f"{method} {path}: {answer.status} {text[:400]!r}")
    return json.loads(text)


def register(conn, name):
    body = {"username": name, "password": "count-password-count"}
    return call(conn, "POST", "/api/v1/auth/register", body=body)["access_token"]


def start_game(conn, red, blue, blue_name, rng):
    create = {"variant": "classic", "color": "red", "opponent": blue_name,
              "days_per_move": 14, "rules": {"max_plies": None}}
    game = call(conn, "POST", "/api/v1/games", red, create)["id"]
    call(conn, "POST", f"/api/v1/games/{game}/join", blue)
    for token in (red, blue):
        setup = {"random": True, "seed": rng.randrange(1_000_000)}
        call(conn, "POST", f"/api/v1/games/{game}/setup", token, setup)
    return game


def pick(view, rng):
    me = view["you"]
    enemy = {p["square"] for p in view["board"] if p["color"] != me}
    moves = view["legal_moves"]
    quiet = [m for m in moves if m["to"] not in enemy]
    return rng.choice(quiet or moves)


class Game:
    """A game between two accounts, replaced when it ends."""

    def __init__(self, conn, rng):
        self.conn, self.rng = conn, rng
        tag = f"ic{os.getpid() % 100000}x{int(time.time()) % 100000}"
        self.red = register(conn, tag + "r")
        self.blue_name = tag + "b"
        self.blue = register(conn, self.blue_name)
        self.restart()

    def restart(self):
        self.id = start_game(self.conn, self.red, self.blue, self.blue_name, self.rng)
        self.turn = "red"

    def token(self, color):
        return self.red if color == "red" else self.blue

    def view(self, color):
        return call(self.conn, "GET", f"/api/v1/games/{self.id}", self.token(color))

    def ply(self):
        view = self.view(self.turn)
        if view["status"] != "playing":
            self.restart()
            return
        move = pick(view, self.rng)
        body = {"from": move["from"], "to": move["to"],
                "expected_version": view["version"]}
        answer = call(self.conn, "POST", f"/api/v1/games/{self.id}/moves",
                      self.token(self.turn), body)
        if answer["game"]["status"] != "playing":
            self.restart()
        else:
            self.turn = answer["game"]["turn"]


def measure(pid, out_dir, name, action, count):
    subprocess.run(["callgrind_control", "--zero", str(pid)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(count):
        action()
    before = set(glob.glob(os.path.join(out_dir, "callgrind.out.*")))
    subprocess.run(["callgrind_control", "--dump=" + name, str(pid)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        fresh = set(glob.glob(os.path.join(out_dir, "callgrind.out.*"))) - before
        if fresh:
            break
        time.sleep(0.1)
    (path,) = fresh
    time.sleep(0.5)
    with open(path) as dump:
        for line in dump:
            if line.startswith("totals:") or line.startswith("summary:"):
                return int(line.split()[1]) / count, path
    sys.exit(f"no totals in {path}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--address", default="127.0.0.1:18571")
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--out-dir", required=True, help="callgrind's output directory")
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--warmup-plies", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    host, port = args.address.rsplit(":", 1)
    if host not in ("127.0.0.1", "localhost", "::1"):
        sys.exit("loopback addresses only")
    if not 1 <= args.requests <= 100_000:
        sys.exit("--requests: 1 to 100,000")
    conn = http.client.HTTPConnection(host, int(port), timeout=120)
    rng = random.Random(args.seed)
    game = Game(conn, rng)
    for _ in range(args.warmup_plies):
        game.ply()
    n = args.requests
    colors = ["red", "blue"]
    state = {"i": 0}

    def either_view():
        state["i"] += 1
        game.view(colors[state["i"] % 2])

    per_view, _ = measure(args.pid, args.out_dir, "views", either_view, n)
    per_mover_view, _ = measure(args.pid, args.out_dir, "mover-views",
                                lambda: game.view(game.turn), n)
    per_ply, ply_dump = measure(args.pid, args.out_dir, "plies", game.ply, n)
    print(json.dumps({
        "requests_per_phase": n,
        "instructions_per_view": round(per_view),
        "instructions_per_mover_view": round(per_mover_view),
        "instructions_per_ply": round(per_ply),
        "instructions_per_move": round(per_ply - per_mover_view),
        "ply_dump": ply_dump,
    }, indent=2))


if __name__ == "__main__":
    main()
