#!/usr/bin/env python3
"""Scores keychain-lint and mobsfscan on the LintCorpus apps (issue 38), standard library only.

scripts/bench-lint-corpus runs both tools and calls this with --results DIR, which holds for each
app of apps.tsv: <app>.keychain-lint.json (the lint's --json report), <app>.mobsfscan.json
(mobsfscan --json), and for each tool <app>.<tool>.wall (wall seconds) and, when /usr/bin/time
was present, <app>.<tool>.time (its -v output, for the peak resident set size).

Recall: a documented bug is found by a tool when one of its findings is in the same file and its
lines (a mobsfscan finding can span several) come within 2 lines of the bug's line.
Precision: over the findings with a verdict in labels.tsv; `debatable` verdicts are counted
apart and the precision is printed both ways (debatable as false, debatable as true).
Only findings in .swift files are scored; other mobsfscan findings are counted apart.
Exit status: 0, or 3 when a finding has no verdict (each one is listed), or 2 for bad input.
"""

import argparse
import json
import os
import re
import sys

TOOLS = ("keychain-lint", "mobsfscan")
CATEGORIES = (
    "userdefaults", "plist-file", "file", "archive", "keychain-misuse", "core-data", "sqlite", "realm",
    "couchbase", "yapdatabase", "cookie", "url-cache", "pasteboard", "log", "hardcoded", "icloud-kv", "other",
)
VERDICTS = ("true", "false", "debatable")
ROLES = ("training", "wrapper", "well-written")
NEAR = 2


def fail(message):
    print(f"score.py: {message}", file=sys.stderr)
    sys.exit(2)


def read_tsv(path, header):
    """The rows of a tab-separated file whose first line is exactly `header`."""
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or lines[0].split("\t") != list(header):
        fail(f"{path}: the first line must be the header {' '.join(header)}")
    rows = []
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split("\t")
        if len(fields) != len(header):
            fail(f"{path}:{number}: {len(fields)} columns, expected {len(header)}")
        rows.append(dict(zip(header, fields)))
    return rows


def normalize(path):
    while path.startswith("./"):
        path = path[2:]
    return path


def lint_findings(path):
    """(file, first line, last line, rule) of every finding of a keychain-lint --json report."""
    with open(path, encoding="utf-8") as handle:
        report = json.load(handle)
    findings = {(normalize(f["file"]), f["line"], f["line"], f["rule"]) for f in report["findings"]}
    return sorted(findings), report.get("files", 0), [normalize(n["file"]) for n in report.get("notLinted", [])]


def mobsfscan_findings(path):
    """(file, first line, last line, rule) of every finding of mobsfscan --json in a .swift file,
    the count of its other findings, and its error messages."""
    with open(path, encoding="utf-8") as handle:
        report = json.load(handle)
    swift, other = set(), 0
    for rule, result in (report.get("results") or {}).items():
        for match in result.get("files") or []:
            file = normalize(match.get("file_path", ""))
            lines = match.get("match_lines") or [0, 0]
            if file.endswith(".swift"):
                swift.add((file, int(lines[0]), int(lines[-1]), rule))
            else:
                other += 1
    return sorted(swift), other, summarize(report.get("errors") or [])


def summarize(errors):
    """mobsfscan's errors in one line each; semgrep's partial parses (Swift it cannot parse) counted."""
    def partial(error):
        return isinstance(error, dict) and "PartialParsing" in str(error.get("type"))

    partially_parsed = sorted({str(e.get("path", "?")) for e in errors if partial(e)})
    others = sorted({str(e.get("message", e) if isinstance(e, dict) else e).split("\n")[0]
                     for e in errors if not partial(e)})
    summary = [f"semgrep parsed {len(partially_parsed)} files only partially"] if partially_parsed else []
    return summary + others


def wall_seconds(results, app, tool):
    try:
        with open(os.path.join(results, f"{app}.{tool}.wall"), encoding="utf-8") as handle:
            return float(handle.read().strip())
    except (OSError, ValueError):
        return None


def peak_megabytes(results, app, tool):
    try:
        with open(os.path.join(results, f"{app}.{tool}.time"), encoding="utf-8") as handle:
            match = re.search(r"Maximum resident set size \(kbytes\): (\d+)", handle.read())
    except OSError:
        return None
    return int(match.group(1)) / 1024 if match else None


def percent(numerator, denominator):
    return f"{100 * numerator / denominator:.0f} %" if denominator else "n/a"


def precision_text(counts):
    true, false, debatable = counts["true"], counts["false"], counts["debatable"]
    labelled = true + false + debatable
    return (f"{percent(true, labelled)} (debatable as true: {percent(true + debatable, labelled)}); "
            f"true {true}, false {false}, debatable {debatable}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", required=True, help="Benchmarks/LintCorpus")
    parser.add_argument("--results", required=True, help="the reports of one run")
    arguments = parser.parse_args()

    apps = read_tsv(os.path.join(arguments.data, "apps.tsv"), ("app", "repo", "commit", "role", "swift_files"))
    bugs = read_tsv(os.path.join(arguments.data, "documented-bugs.tsv"), ("app", "file", "line", "category", "why"))
    labels = read_tsv(os.path.join(arguments.data, "labels.tsv"),
                      ("app", "file", "line", "tool", "rule", "verdict", "why"))
    verdicts = {}
    for label in labels:
        if label["verdict"] not in VERDICTS or label["tool"] not in TOOLS:
            fail(f"labels.tsv: bad verdict or tool in {label}")
        verdicts[(label["app"], label["file"], int(label["line"]), label["tool"], label["rule"])] = label["verdict"]

    unlabelled = []
    seen = set()
    recall = {tool: [0, 0] for tool in TOOLS}
    by_role = {(tool, role): {v: 0 for v in VERDICTS} for tool in TOOLS for role in ROLES}
    seconds = {tool: 0.0 for tool in TOOLS}
    peaks = {tool: 0.0 for tool in TOOLS}
    timed = {tool: True for tool in TOOLS}
    files = sum(int(app["swift_files"]) for app in apps)

    for app in apps:
        name, role = app["app"], app["role"]
        print(f"\n## {name} ({role}, {app['repo']} @ {app['commit'][:12]}, {app['swift_files']} Swift files)")
        findings = {}
        lint, linted, not_linted = lint_findings(os.path.join(arguments.results, f"{name}.keychain-lint.json"))
        findings["keychain-lint"] = lint
        mobsf, other, errors = mobsfscan_findings(os.path.join(arguments.results, f"{name}.mobsfscan.json"))
        findings["mobsfscan"] = mobsf
        print(f"keychain-lint: {len(lint)} findings, {linted} files linted, {len(not_linted)} not linted"
              + (f" ({', '.join(sorted(not_linted))})" if not_linted else ""))
        print(f"mobsfscan: {len(mobsf)} findings in Swift, {other} elsewhere (not scored)"
              + (f"; errors: {'; '.join(errors)}" if errors else ""))
        for tool in TOOLS:
            wall, peak = wall_seconds(arguments.results, name, tool), peak_megabytes(arguments.results, name, tool)
            if wall is None:
                timed[tool] = False
            else:
                seconds[tool] += wall
            if peak is not None:
                peaks[tool] = max(peaks[tool], peak)
            print(f"{tool}: {wall if wall is not None else '?'} s, peak "
                  f"{f'{peak:.0f} MB' if peak is not None else '?'}")

        if role == "training":
            documented = [bug for bug in bugs if bug["app"] == name]
            for tool in TOOLS:
                misses = []
                for bug in documented:
                    line = int(bug["line"])
                    hit = any(file == bug["file"] and first - NEAR <= line <= last + NEAR
                              for file, first, last, _ in findings[tool])
                    if not hit:
                        misses.append(bug)
                found = len(documented) - len(misses)
                recall[tool][0] += found
                recall[tool][1] += len(documented)
                print(f"recall {tool}: {found} of {len(documented)} documented bugs "
                      f"({percent(found, len(documented))})")
                for bug in misses:
                    print(f"  missed {bug['file']}:{bug['line']} {bug['category']}")

        for tool in TOOLS:
            counts = {v: 0 for v in VERDICTS}
            for file, line, _, rule in findings[tool]:
                key = (name, file, line, tool, rule)
                seen.add(key)
                verdict = verdicts.get(key)
                if verdict is None:
                    unlabelled.append(key)
                else:
                    counts[verdict] += 1
                    by_role[(tool, role)][verdict] += 1
            print(f"precision {tool}: {precision_text(counts)}")

    stale = sorted(set(verdicts) - seen)
    if stale:
        print(f"\n{len(stale)} labels match no finding of this run (a rule changed; kept for history):")
        for app, file, line, tool, rule in stale:
            print(f"  {app}\t{file}\t{line}\t{tool}\t{rule}")
    if unlabelled:
        print(f"\n{len(unlabelled)} findings have no verdict; add a line to labels.tsv for each "
              "(app, file, line, tool, rule, verdict, why):")
        for app, file, line, tool, rule in unlabelled:
            print(f"  {app}\t{file}\t{line}\t{tool}\t{rule}")

    def cell(tool, role):
        counts = by_role[(tool, role)]
        true, labelled = counts["true"], sum(counts.values())
        return (f"{percent(true, labelled)} ({true}/{labelled}; "
                f"{percent(true + counts['debatable'], labelled)} with debatable)")

    print("\n| tool | recall, training apps | precision, well-written apps | precision, wrappers "
          "| Swift files | seconds | peak MB |")
    print("|---|---|---|---|---|---|---|")
    for tool in TOOLS:
        found, total = recall[tool]
        time_text = f"{seconds[tool]:.0f}" if timed[tool] else "?"
        peak_text = f"{peaks[tool]:.0f}" if peaks[tool] else "?"
        print(f"| {tool} | {percent(found, total)} ({found}/{total}) | {cell(tool, 'well-written')} "
              f"| {cell(tool, 'wrapper')} | {files} | {time_text} | {peak_text} |")
    return 3 if unlabelled else 0


if __name__ == "__main__":
    sys.exit(main())
