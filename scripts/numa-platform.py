#!/usr/bin/env python3
"""Writes a SimGrid platform file for the NUMA model: a tree of switches with clusters at its leaves.

    python3 scripts/numa-platform.py --fanout 4,8,8 --bandwidth 81.92GBps --name w488 > platforms/numa-w488.xml

The layout (docs/scenario-format.md, "NUMA platform files"; docs/models/numa.md section 2) follows the
thesis's machine (Nobukuni 1997, 4.2.2 and chapter 5): one zone per switch, the root zone being the root
switch (level 1). A bottom switch is a SimGrid <cluster> (each cluster host has a private split-duplex link
to the switch's router); an upper switch is a Full zone holding its child switches, one split-duplex link
per child, and a small zone with the switch's own router (SimGrid 3.32 routes only between zones, so the
router that a route leaving the switch goes through needs a zone of its own). Every tree edge is one link
whose bandwidth is its level's, latency 0. Hosts are named cluster-0, cluster-1, ... left to right, so
every subtree holds a contiguous range of cluster numbers.
"""

import argparse
import re
import textwrap

UNITS = {
    "Bps": 1, "kBps": 1e3, "KBps": 1e3, "MBps": 1e6, "GBps": 1e9, "TBps": 1e12,
    "bps": 1 / 8, "kbps": 1e3 / 8, "Kbps": 1e3 / 8, "Mbps": 1e6 / 8, "Gbps": 1e9 / 8, "Tbps": 1e12 / 8,
    "KiBps": 2**10, "MiBps": 2**20, "GiBps": 2**30, "TiBps": 2**40,
}


def bandwidth(text):
    """A SimGrid bandwidth such as 81.92GBps, checked here so that a typo fails before SimGrid reads it."""
    match = re.fullmatch(r"([0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?)([A-Za-z]+)", text.strip())
    if not match or match.group(2) not in UNITS or float(match.group(1)) <= 0:
        raise argparse.ArgumentTypeError(
            f"expected a positive bandwidth with a unit ({', '.join(UNITS)}), got '{text}'")
    return match.group(1) + match.group(2)


def fanout(text):
    try:
        values = [int(part) for part in text.split(",")]
    except ValueError:
        values = []
    if not values or any(value < 2 for value in values):
        raise argparse.ArgumentTypeError(
            f"expected children per switch by level, each at least 2, such as 4,8,8, got '{text}'")
    return values


class Writer:
    def __init__(self, fanouts, bandwidths):
        self.fanouts = fanouts
        self.bandwidths = bandwidths  # by switch level from the root: the links below a level-l switch
        self.lines = []

    def emit(self, depth, text):
        self.lines.append("  " * depth + text)

    def clusters_below(self, level):
        return _product(self.fanouts[level - 1:])

    def router(self, name):
        return name + "-router"

    def switch(self, name, level, first, depth):
        """Writes switch `name` at `level` (1 = root) over clusters [first, first + its subtree's size)."""
        levels = len(self.fanouts)
        children = self.fanouts[level - 1]
        bw = self.bandwidths[level - 1]
        if level == levels:
            last = first + children - 1
            self.emit(depth, f'<cluster id="{name}" prefix="cluster-" suffix="" radical="{first}-{last}" '
                             f'speed="1Gf" bw="{bw}" lat="0" sharing_policy="SPLITDUPLEX" '
                             f'router_id="{self.router(name)}"/>')
            return
        self.emit(depth, f'<zone id="{name}" routing="Full">')
        size = self.clusters_below(level + 1)
        names = [f"{name}-{child}" for child in range(children)]
        for child, child_name in enumerate(names):
            self.switch(child_name, level + 1, first + child * size, depth + 1)
        has_parent = level > 1
        if has_parent:
            # The router of this switch, in a zone of its own, is where routes leaving the switch start.
            self.emit(depth + 1, f'<zone id="{name}-gateway" routing="Full">')
            self.emit(depth + 2, f'<router id="{self.router(name)}"/>')
            self.emit(depth + 1, "</zone>")
        for child_name in names:
            self.emit(depth + 1, f'<link id="link-{child_name}" bandwidth="{bw}" latency="0" '
                                 f'sharing_policy="SPLITDUPLEX"/>')
        # Symmetrical routes: SimGrid reverses the list and swaps UP and DOWN for the way back.
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                self.emit(depth + 1, f'<zoneRoute src="{a}" dst="{b}" gw_src="{self.router(a)}" '
                                     f'gw_dst="{self.router(b)}">')
                self.emit(depth + 2, f'<link_ctn id="link-{a}" direction="UP"/>'
                                     f'<link_ctn id="link-{b}" direction="DOWN"/>')
                self.emit(depth + 1, "</zoneRoute>")
        if has_parent:
            for child_name in names:
                self.emit(depth + 1, f'<zoneRoute src="{child_name}" dst="{name}-gateway" '
                                     f'gw_src="{self.router(child_name)}" gw_dst="{self.router(name)}">')
                self.emit(depth + 2, f'<link_ctn id="link-{child_name}" direction="UP"/>')
                self.emit(depth + 1, "</zoneRoute>")
        self.emit(depth, "</zone>")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fanout", type=fanout, required=True,
                        help="children per switch, by level from the root (4,8,8: w488)")
    parser.add_argument("--bandwidth", type=bandwidth, default="81.92GBps",
                        help="every link's bandwidth (default 81.92GBps: a 4096 B page in 50 ns)")
    parser.add_argument("--bandwidth-per-level", type=lambda text: [bandwidth(t) for t in text.split(",")],
                        help="bandwidths by switch level from the root (the links below each level's "
                             "switches), in place of --bandwidth")
    parser.add_argument("--name", required=True, help="the platform's name, for the header comment")
    args = parser.parse_args()
    levels = len(args.fanout)
    bandwidths = args.bandwidth_per_level or [args.bandwidth] * levels
    if len(bandwidths) != levels:
        parser.error(f"--bandwidth-per-level: expected {levels} bandwidths (one per level), got {len(bandwidths)}")
    clusters = _product(args.fanout)
    switches = sum(1 if level == 0 else _product(args.fanout[:level]) for level in range(levels))

    writer = Writer(args.fanout, bandwidths)
    # An XML comment cannot hold "--": the options are named without their dashes.
    options = [("fanout", ",".join(map(str, args.fanout)))]
    if args.bandwidth_per_level:
        options.append(("bandwidth-per-level", ",".join(args.bandwidth_per_level)))
    else:
        options.append(("bandwidth", args.bandwidth))
    options.append(("name", args.name))
    generated = ("Generated by python3 scripts/numa-platform.py with options "
                 + ", ".join(f"{key} {value}" for key, value in options) + ".")
    per_level = ", ".join(f"level {level + 1}: {bw}" for level, bw in enumerate(bandwidths))
    header = (f"{args.name}: a NUMA machine for cosched's numa model (Nobukuni 1997, 4.2.2): {clusters} clusters "
              f"(hosts cluster-0 .. cluster-{clusters - 1}) at the leaves of a {levels}-level tree of {switches} "
              f"switches, fan-out {','.join(map(str, args.fanout))} from the root. One zone per switch (the root "
              "zone is the root switch, level 1; the bottom switches are <cluster> elements, each with a router; "
              "the other switches keep their router in a zone of its own). Every tree edge is one split-duplex "
              f"link of latency 0 with its level's bandwidth ({per_level}). Layout: docs/scenario-format.md, "
              '"NUMA platform files".')
    print("<?xml version='1.0'?>")
    print('<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">')
    lines = textwrap.wrap(header + " " + generated, width=104, break_on_hyphens=False)
    print("<!-- " + "\n     ".join(lines) + " -->")
    print('<platform version="4.1">')
    writer.switch("switch", 1, 0, 1)
    print("\n".join(writer.lines))
    print("</platform>")


def _product(values):
    result = 1
    for value in values:
        result *= value
    return result


if __name__ == "__main__":
    main()
