"""The tally the script suites share: report() each check, summary() at the end."""

passed = failed = 0


def report(ok, what, detail=""):
    """Prints one check's line and counts it; DETAIL is shown when it failed."""
    global passed, failed
    passed += bool(ok)
    failed += not ok
    print(("ok   " if ok else "FAIL ") + what + ("" if ok or not detail else ": " + str(detail)))


def summary(need_one=False):
    """Prints the counts; the exit status: 1 on a failure (or, with NEED_ONE, no check)."""
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or (need_one and not passed) else 0
