#!/usr/bin/env bash
# The project speaks for itself: docs and code say what is true now and why, not when or by
# whom it was found. This check fails on diary text in the README, docs/, include/, examples/,
# bench/ (not bench/results/: the stamped files scripts/bench_results.sh writes), scripts/ and
# tests/,
# and prints each line it rejects with the rule it broke:
#   date         an ISO date: a figure's date belongs in the result file a benchmark script
#                writes, beside the machine and commit
#   issue        a reference to the tracker by number: users cannot see the tracker; say
#                what the requirement is
#   machine      narration of who measured where, on which borrowed or temporary machine
#   time         relative time: words that date a statement instead of saying what holds
# The exact patterns are the rules below. A figure names its machine by what it is ("an AMD
# EPYC, family 26 model 2, 2 vCPUs"), not by how it was obtained.
#
#   scripts/check_voice.sh [ROOT]     exit 0 when clean, 1 with the offending lines
set -euo pipefail
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
cd "$root"
paths=(README.md docs include examples bench scripts tests)
# ERE patterns, matched case-insensitively; this file is excluded (it has to name them).
rules=(
  'date|\b20[0-9]{2}-[01][0-9]-[0-3][0-9]\b'
  'issue|\bissues? #?[0-9]+|\bissues [0-9]+ and [0-9]+'
  'machine|development (machine|vm)|\bdev vm\b|\blease[sd]?\b|\bsessions?\b'
  'time|\b(today|yesterday|recently)\b|earlier the same day|\b(last|this) (week|night|month)\b'
)
failed=0
for rule in "${rules[@]}"; do
  name=${rule%%|*} pattern=${rule#*|}
  while IFS= read -r hit; do
    echo "check_voice: $name: $hit"
    failed=1
  done < <(grep -rnEiI --exclude=check_voice.sh --exclude-dir=results -e "$pattern" "${paths[@]}" 2>/dev/null || true)
done
if [ "$failed" -ne 0 ]; then
  echo "check_voice: diary text found (rules: scripts/check_voice.sh)"
  exit 1
fi
echo "check_voice: docs and code speak in the present"
