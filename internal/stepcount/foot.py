#!/usr/bin/env python3
"""Code footprint of one step from two callgrind runs made with --dump-instr=yes --cache-sim=yes.

usage: foot.py SHORT.cg LONG.cg STEPS [--fn N] [--grep RE] [--engine] [--bin BINARY]
  STEPS = the difference of the two runs' step counts.
Prints per step: Ir, I1 misses, D1 misses, and the "hot lines": the 64-byte instruction lines
whose instructions ran at least STEPS times in the window (about once a step or more), by package
and (--fn N) by function (hot lines, Ir a step, I1 misses a step). --engine counts only
the engine's own packages and math (the loader and the runtime move by hundreds of Ir between runs).
--bin names the binary both runs ran: instructions are then put in functions by its symbol table
(`go tool nm`), not by callgrind's names, which sometimes file engine code under a loader function
(a `scene` or `model/*` name) or the reverse; with --engine the loader's packages are then left out of
every figure, the header's too.
"""
import sys, re, collections, argparse, bisect, subprocess

def parse(path):
    cost = collections.defaultdict(lambda: [0, 0, 0])  # addr -> Ir, I1mr, D1m
    fnof, names = {}, {}
    fn, last, skip = None, [0, 0], False
    iIr = iI1 = None; iD = []
    with open(path) as f:
        for line in f:
            if line.startswith('events:'):
                ev = line.split()[1:]
                iIr = ev.index('Ir'); iI1 = ev.index('I1mr') if 'I1mr' in ev else None
                iD = [ev.index(e) for e in ('D1mr', 'D1mw') if e in ev]
                continue
            c = line[0]
            if c in '0123456789+-*':
                parts = line.split(); pos = []
                for k in range(2):
                    p = parts[k]
                    if p == '*': v = last[k]
                    elif p[0] in '+-': v = last[k] + int(p, 0)
                    else: v = int(p, 0)
                    pos.append(v)
                last = pos
                if skip: skip = False; continue
                vals = [int(x) for x in parts[2:]]
                g = lambda i: vals[i] if i is not None and i < len(vals) else 0
                r = cost[pos[0]]; r[0] += g(iIr); r[1] += g(iI1); r[2] += sum(g(i) for i in iD)
                fnof[pos[0]] = fn
                continue
            if line.startswith('fn='):
                m = re.match(r'fn=\((\d+)\)(?: (.*))?', line.strip())
                if m.group(2): names[m.group(1)] = m.group(2)
                fn = names.get(m.group(1), m.group(1))
            elif line.startswith('calls='):
                skip = True
            elif line.startswith('cfn='):
                m = re.match(r'cfn=\((\d+)\)(?: (.*))?', line.strip())
                if m and m.group(2): names[m.group(1)] = m.group(2)
    return cost, fnof

def symbols(binary):
    """Function of an address by the binary's symbol table: a lookup function."""
    out = subprocess.run(['go', 'tool', 'nm', '-size', '-sort', 'address', binary],
                         capture_output=True, text=True, check=True).stdout
    syms = []
    for l in out.split('\n'):
        f = l.split()
        if len(f) >= 4 and f[2] in ('T', 't'):
            syms.append((int(f[0], 16), int(f[1]), ' '.join(f[3:])))
    starts = [x[0] for x in syms]
    def at(addr):
        i = bisect.bisect_right(starts, addr) - 1
        if i >= 0 and addr < syms[i][0] + max(syms[i][1], 1):
            return syms[i][2]
        return '?'
    return at

def pkg(fn):
    m = re.match(r'(?:github.com/stiction-sim/stiction/)?([\w./]+?)[.(]', fn or '?')
    return m.group(1) if m else (fn or '?')

ap = argparse.ArgumentParser(); ap.add_argument('a'); ap.add_argument('b'); ap.add_argument('steps', type=float)
ap.add_argument('--fn', type=int, default=0); ap.add_argument('--engine', action='store_true'); ap.add_argument('--grep', default=None)
ap.add_argument('--bin', default=None)
o = ap.parse_args()
a, _ = parse(o.a); b, fb = parse(o.b); S = o.steps
if o.bin:
    at = symbols(o.bin)
    fb = {addr: at(addr) for addr in b}
lir = collections.Counter(); lfn = {}; tot = [0, 0, 0]
fi = collections.defaultdict(lambda: [0, 0, 0])
def eng(fn):
    if fn.startswith('math.'):
        return True
    if not fn.startswith('github.com/stiction-sim/stiction/'):
        return False
    rest = fn[len('github.com/stiction-sim/stiction/'):]
    return not (o.bin and (rest.startswith('scene.') or rest.startswith('model/')))
for addr, r in b.items():
    if o.engine and not eng(fb.get(addr) or ''): continue
    ra = a.get(addr, [0, 0, 0]); d = [r[i] - ra[i] for i in range(3)]
    for i in range(3): tot[i] += d[i]
    fn = fb.get(addr) or '?'; fi[fn][1] += d[0]; fi[fn][2] += d[1]
    if d[0] > 0: lir[addr // 64] += d[0]; lfn.setdefault(addr // 64, fn)
hot = [l for l, c in lir.items() if c >= S]
for l in hot: fi[lfn[l]][0] += 1
print("per step: Ir %.0f  I1 misses %.0f  D1 misses %.0f  hot lines %d (%.1f KB)" % (tot[0]/S, tot[1]/S, tot[2]/S, len(hot), len(hot)/16.))
pk = collections.defaultdict(lambda: [0, 0, 0])
for fn, r in fi.items():
    p = pk[pkg(fn)]
    for i in range(3): p[i] += r[i]
print("  " + ", ".join("%s %d" % (p, r[0]) for p, r in sorted(pk.items(), key=lambda kv: -kv[1][0]) if r[0] > 0))
if o.fn:
    rows = [(fn, r) for fn, r in fi.items() if r[0] > 0 and (not o.grep or re.search(o.grep, fn))]
    rows.sort(key=lambda kv: -kv[1][0])
    print("%-72s %5s %8s %7s" % ("function", "lines", "Ir/step", "I1mr"))
    for fn, r in rows[:o.fn]:
        print("%-72s %5d %8.0f %7.1f" % (fn.replace('github.com/stiction-sim/stiction/', '')[-72:], r[0], r[1]/S, r[2]/S))
