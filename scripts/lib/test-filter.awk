# Shortens `swift test` output for a person: the build's errors and warnings, a progress line every 100 tests and cases,
# every failure with its details, then the summary last with the skipped tests named. The whole output is kept
# by scripts/test in .build/test-output.log.
BEGIN { passed = 0; failed = 0; skipped = ""; summary = "" }
/^◇ Test .* started\.?$/ || /^◇ Suite .* started\.?$/ || /^✔ Suite / { next }
/^✔ Test run with / || /^✘ Test run with / { summary = $0; next }
/^✔ Test / { passed++; if (passed % 100 == 0) { printf "… %d tests and test cases passed\n", passed; fflush() } next }
/^➜ Test / || /skipped/ && /^[^ ]* Test / { skipped = skipped "\n  " $0; next }
/^✘ / { failed++; print; fflush(); detail = 1; next }
/^(↳|  )/ && detail { print; fflush(); next }
/error:|warning:|Build complete/ { detail = 0; print; fflush(); next }
{ detail = 0 }
END {
    if (skipped != "") print "skipped:" skipped
    if (summary != "") print summary
    else print "no test summary: the test process stopped early (see .build/test-output.log)"
}
