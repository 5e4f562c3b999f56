#!/usr/bin/env python3
"""html_check.py - what the HTML report's charts must be, checked on a page
(tests/report/test_html_chromium.sh):

  every <svg> of the page is well-formed XML; no NaN or infinity in any of
  them; every bar chart of the study's metrics has a bar (no chart of n/a
  alone); every Speed Of Light panel a bar or a reasoned n/a; every link of a
  memory chart is labelled: a measured one with a number, a not-collected one
  with "not collected" and no number (never a 0 for a metric that was not
  collected).

Prints one JSON line of counts (rooflines, bar charts, memory charts, links
by state, Speed Of Light panels) for the shell test to compare; exits 1 with
the first problem found.

  python3 html_check.py PAGE.html
"""
import json
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def fail(msg):
    print("html_check: " + msg, file=sys.stderr)
    sys.exit(1)


def text_of(el):
    return "".join(el.itertext())


def classes(el):
    return (el.get("class") or "").split()


def main(path):
    page = open(path, encoding="utf-8").read()
    svgs = re.findall(r"<svg\b.*?</svg>", page, re.S)
    counts = {"rooflines": 0, "bar_charts": 0, "mem_charts": 0, "sol_charts": 0,
              "links": {}, "link_texts": {}}
    for n, src in enumerate(svgs):
        try:
            svg = ET.fromstring(src)
        except ET.ParseError as e:
            fail("svg %d is not well-formed XML: %s" % (n, e))
        body = " ".join([text_of(svg)] + [v for el in svg.iter() for v in el.attrib.values()])
        if re.search(r"\b(nan|inf|infinity)\b", body, re.I):
            fail("svg %d holds NaN or an infinity: %s" % (n, body[:200]))
        cls = classes(svg)
        if "roofline" in cls:
            counts["rooflines"] += 1
        elif "chart" in cls:
            counts["bar_charts"] += 1
            if not svg.findall(".//%srect" % NS):
                fail("bar chart %s has no bar (n/a alone)" % svg.get("data-metric"))
        elif "solchart" in cls:
            counts["sol_charts"] += 1
            bars = [g for g in svg.iter(NS + "g") if "sbar" in classes(g)]
            if not bars:
                fail("a Speed Of Light panel without a bar")
            for g in bars:
                if not g.findall("%srect" % NS) and "n/a" not in text_of(g):
                    fail("Speed Of Light bar %s: neither a value nor n/a" % g.get("data-metric"))
        elif "memchart" in cls:
            counts["mem_charts"] += 1
            links = [g for g in svg.iter(NS + "g") if "mlink" in classes(g)]
            if len(links) != 6:
                fail("a memory chart with %d links, not 6" % len(links))
            for g in links:
                state, name = g.get("data-state"), g.get("data-link")
                texts = [text_of(t).strip() for t in g.iter(NS + "text")]
                label = " | ".join(texts)
                counts["links"][state] = counts["links"].get(state, 0) + 1
                counts["link_texts"].setdefault(name, []).append(label)
                if not texts or not all(texts):
                    fail("link %s has no label" % name)
                if state == "not-collected":
                    if texts != ["not collected"]:
                        fail("link %s not collected but labelled %r" % (name, label))
                elif state == "measured":
                    if not re.search(r"\d", label):
                        fail("link %s measured but without a number: %r" % (name, label))
                elif state == "na":
                    if "n/a" not in label:
                        fail("link %s n/a without saying so: %r" % (name, label))
                else:
                    fail("link %s: unknown state %r" % (name, state))
    print(json.dumps(counts, sort_keys=True))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        fail("usage: html_check.py PAGE.html")
    main(sys.argv[1])
