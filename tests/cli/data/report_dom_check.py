#!/usr/bin/env python3
"""report_dom_check.py DOM.html: check the charts of a report as the browser built them.
Prints one line per problem and exits 1 when there is any; prints "ok N" (N charts) otherwise.
Every <svg>: a non-empty <title>, a visible title (text.chart-title), at least one axis label
(text.axis-label) and one that names a unit in parentheses; tick labels not empty. The whole DOM:
no NaN, undefined, "()" or "( " (an empty unit). With the width probe injected by the test, no
element wider than the window (data-wide="0")."""
import re, sys
from html.parser import HTMLParser

class Charts(HTMLParser):
    def __init__(self):
        super().__init__()
        self.charts, self.cur, self.stack, self.body_attrs = [], None, [], {}
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.body_attrs = a
        if tag == "svg":
            self.cur = {"title": "", "chart_title": "", "axis": [], "ticks": []}
            self.charts.append(self.cur)
        self.stack.append((tag, a.get("class", "")))
    def handle_endtag(self, tag):
        while self.stack:
            t, _ = self.stack.pop()
            if t == tag:
                break
        if tag == "svg":
            self.cur = None
    def handle_data(self, data):
        if self.cur is None or not self.stack:
            return
        tag, cls = self.stack[-1]
        if tag == "title" and len(self.stack) >= 2 and self.stack[-2][0] == "svg":
            self.cur["title"] += data
        elif tag == "text" and "chart-title" in cls:
            self.cur["chart_title"] += data
        elif tag == "text" and "axis-label" in cls:
            self.cur["axis"].append(data)
        elif tag == "text" and "tick" in cls:
            self.cur["ticks"].append(data)

dom = open(sys.argv[1], encoding="utf-8").read()
p = Charts()
p.feed(dom)
bad = []
text = re.sub(r"<[^>]*>", " ", re.sub(r"(?s)<script.*?</script>", "", dom))
for word in ("NaN", "undefined", "()", "( "):
    if word in text:
        bad.append("the page says %r" % word)
for i, c in enumerate(p.charts):
    name = c["title"].strip() or "chart %d" % (i + 1)
    if not c["title"].strip():
        bad.append("%s: no <title>" % name)
    if not c["chart_title"].strip():
        bad.append("%s: no visible title" % name)
    if not c["axis"]:
        bad.append("%s: no axis label" % name)
    elif not any(re.search(r"\([^()]*[A-Za-zµ%/][^()]*\)", a) for a in c["axis"]):
        bad.append("%s: no axis label names a unit: %s" % (name, c["axis"]))
    if any(not t.strip() for t in c["ticks"]):
        bad.append("%s: an empty tick label" % name)
if p.body_attrs.get("data-wide", "0") != "0":
    bad.append("%s element(s) wider than the window: %s" % (p.body_attrs["data-wide"], p.body_attrs.get("data-what", "")))
if not p.charts:
    bad.append("no chart at all")
for b in bad:
    print(b)
if not bad:
    print("ok %d" % len(p.charts))
sys.exit(1 if bad else 0)
