#!/usr/bin/env bash
# native-tests/cli_test.sh CUCKOO: the cuckoo tool end to end (registered with ctest by cli.cmake).
# Line rules (CRLF, empty lines), exit statuses, atomic add/delete (a full filter or a bad key leaves the
# file byte-identical and no temporary file behind), error messages, merge.
set -uo pipefail
cuckoo=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
# expect STATUS COMMAND...: runs the command, checks its exit status.
expect() {
  local want=$1
  shift
  "$@" > out.txt 2> err.txt
  local got=$?
  [ "$got" -eq "$want" ] || fail "'$*' exited $got, expected $want; stderr: $(cat err.txt)"
}
no_temp_files() { ! ls -A | grep -q '\.tmp-' || fail "temporary file left behind: $(ls -A)"; }

# Line rules: CRLF, LF, empty lines and a missing final newline give the same keys.
printf 'alpha\nbeta\n\ngamma\n' > lf.txt
printf 'alpha\r\nbeta\r\n\r\n\r\ngamma' > crlf.txt
expect 0 "$cuckoo" build -o lf.cf --capacity 100 --seed 7 lf.txt
expect 0 "$cuckoo" build -o crlf.cf --capacity 100 --seed 7 crlf.txt
cmp -s lf.cf crlf.cf || fail "CRLF and LF inputs gave different filters"
expect 0 "$cuckoo" build -o stdin.cf --capacity 100 --seed 7 < crlf.txt
cmp -s lf.cf stdin.cf || fail "standard input gave a different filter"
# Sized from the input: 3 keys.
expect 0 "$cuckoo" build -o sized.cf lf.txt
"$cuckoo" info sized.cf | grep -qx 'items: 3' || fail "info: expected 3 items: $("$cuckoo" info sized.cf)"
# Two files: a last line without a newline does not run into the next file.
printf 'one' > a.txt
printf 'two\n' > b.txt
expect 0 "$cuckoo" build -o two.cf a.txt b.txt
expect 0 "$cuckoo" query --all two.cf one two

# query: answers, grep-like output, exit statuses.
expect 0 "$cuckoo" query lf.cf alpha nothing-like-this
grep -qx "maybe	alpha" out.txt || fail "query output: $(cat out.txt)"
expect 1 "$cuckoo" query lf.cf absent-1 absent-2
expect 1 "$cuckoo" query --all lf.cf alpha absent-1
printf 'alpha\r\nzzz\n\ngamma\n' | "$cuckoo" query -p lf.cf > present.txt
[ "$(cat present.txt)" = "$(printf 'alpha\ngamma')" ] || fail "query -p: $(cat present.txt)"
expect 2 "$cuckoo" query lf.cf ""
expect 2 "$cuckoo" query --present --absent lf.cf alpha
# A reader that goes away: killed by SIGPIPE (status 141 in the shell), without a message.
seq 1 100000 | "$cuckoo" query lf.cf 2> err.txt | true
[ "${PIPESTATUS[1]}" -eq 141 ] && [ ! -s err.txt ] || fail "query into a closed pipe: $(cat err.txt)"

# info on a good file, errors on bad ones.
expect 0 "$cuckoo" info lf.cf
grep -qx 'checksum: ok' out.txt || fail "info: $(cat out.txt)"
# Percentages round half up on the exact value: 1 key in 32 slots is 3.125%, shown as 3.13%.
printf 'a\n' > one.txt
expect 0 "$cuckoo" build -q -b 8 -o one.cf one.txt
expect 0 "$cuckoo" info one.cf
grep -qx 'load: 3.13%' out.txt || fail "info: an exact tie: $(grep load out.txt)"
head -c 70 lf.cf > short.cf
expect 2 "$cuckoo" info short.cf
grep -q 'not a valid filter file: truncated input' err.txt || fail "truncated file: $(cat err.txt)"
cp lf.cf flipped.cf
printf '\xff' | dd of=flipped.cf bs=1 seek=60 conv=notrunc 2> /dev/null
expect 2 "$cuckoo" info flipped.cf
grep -q 'checksum mismatch' err.txt || fail "corrupt file: $(cat err.txt)"
# query reads the file in place and does not verify the checksum (docs/cli.md): it answers.
"$cuckoo" query flipped.cf alpha > out.txt 2> err.txt
[ $? -le 1 ] && [ ! -s err.txt ] || fail "query of a corrupt table: $(cat err.txt)"
expect 2 "$cuckoo" query short.cf alpha
grep -q 'not a valid filter file: truncated input' err.txt || fail "query of a truncated file: $(cat err.txt)"
# A filter that cannot be mapped (standard input, a pipe) is read into memory.
expect 0 "$cuckoo" query - alpha < lf.cf
grep -qx "maybe	alpha" out.txt || fail "query of standard input: $(cat out.txt)"
expect 0 "$cuckoo" query <(cat lf.cf) alpha
expect 2 "$cuckoo" query missing.cf alpha
grep -q 'missing.cf: cannot open' err.txt || fail "query of a missing file: $(cat err.txt)"
expect 2 "$cuckoo" info missing.cf
grep -q 'missing.cf: cannot open' err.txt || fail "missing file: $(cat err.txt)"

# Bad options and unreadable input: an error, and no output file.
expect 2 "$cuckoo" build -o bad.cf --fpr 2 lf.txt
expect 2 "$cuckoo" build -o bad.cf --bucket-size 3 lf.txt
expect 2 "$cuckoo" build -o bad.cf --seed -1 lf.txt
expect 2 "$cuckoo" build -o bad.cf --capacity 0 lf.txt
expect 2 "$cuckoo" build -o bad.cf --growable --capacity 0 lf.txt
expect 2 "$cuckoo" build -o bad.cf --capacity 10 no-such-input.txt
expect 2 "$cuckoo" build -o bad.cf --frobnicate lf.txt
expect 2 "$cuckoo" build lf.txt
[ ! -e bad.cf ] || fail "a failed build left bad.cf"
# A full filter: no output.
seq 1 1000 > many.txt
expect 2 "$cuckoo" build -o full.cf --capacity 10 many.txt
grep -q 'the filter is full' err.txt || fail "full build: $(cat err.txt)"
[ ! -e full.cf ] || fail "a full build left full.cf"

# add / delete: atomic; a full filter or an absent key leaves the file byte-identical.
expect 0 "$cuckoo" build -o small.cf --capacity 10 --seed 3 lf.txt
cp small.cf before.cf
expect 2 "$cuckoo" add small.cf $(seq 1 1000)
cmp -s small.cf before.cf || fail "a failed add changed the file"
no_temp_files
expect 2 "$cuckoo" delete small.cf alpha not-there
cmp -s small.cf before.cf || fail "a failed delete changed the file"
expect 0 "$cuckoo" add small.cf delta
expect 0 "$cuckoo" query --all small.cf alpha beta gamma delta
printf 'delta\r\nalpha\n' | "$cuckoo" delete small.cf
[ $? -eq 0 ] || fail "delete from standard input"
expect 1 "$cuckoo" query small.cf delta alpha
expect 0 "$cuckoo" query --all small.cf beta gamma
chmod 640 small.cf
expect 0 "$cuckoo" add small.cf epsilon
[ "$(stat -c %a small.cf)" = 640 ] || fail "add changed the file's permissions"
no_temp_files
# A name of 250 bytes leaves no room for a suffix: the temporary file's name is shortened.
long=$(printf 'x%.0s' $(seq 1 250)).cf
expect 0 "$cuckoo" add -o "$long" small.cf theta
# A file the user may not write is refused (root may write any).
if [ "$(id -u)" -ne 0 ]; then
  cp small.cf ro.cf && chmod 444 ro.cf
  expect 2 "$cuckoo" add ro.cf iota
  grep -q 'ro.cf: cannot write: Permission denied' err.txt || fail "read-only file: $(cat err.txt)"
  cmp -s small.cf ro.cf || fail "add changed a read-only file"
fi
# A symbolic link is replaced by the new file, never followed: the file it named is unchanged. A device is
# written into, and /dev/stdout is written through the descriptor (appended after >>, then the next
# command's output).
mkdir -p linked
cp small.cf linked/real.cf
ln -s linked/real.cf link.cf
expect 0 "$cuckoo" add link.cf zeta
[ -L link.cf ] && fail "add wrote through the symbolic link"
cmp -s small.cf linked/real.cf || fail "add changed the file a symbolic link named"
expect 0 "$cuckoo" query link.cf zeta
ln -s /dev/null null-link  # a tool that replaced the device would only replace this link
expect 0 "$cuckoo" add -o null-link small.cf eta
[ -L null-link ] || fail "add -o /dev/null replaced the device"
echo old > appended.bin
"$cuckoo" add -o /dev/stdout small.cf eta >> appended.bin || fail "add -o /dev/stdout failed"
{ "$cuckoo" add -o /dev/stdout small.cf eta; echo TRAILER; } > trailed.bin
[ "$(head -c 4 appended.bin | od -An -c | tr -d ' ')" = 'old\n' ] || fail "-o /dev/stdout replaced the file >> appends to"
[ "$(tail -c 8 trailed.bin | od -An -c | tr -d ' ')" = 'TRAILER\n' ] || fail "-o /dev/stdout lost the next command's output"
cmp -s <(tail -c +5 appended.bin) <(head -c -8 trailed.bin) || fail "-o /dev/stdout wrote different bytes"

# merge: shards built with the same options give every key; mismatches are refused.
seq 1 3000 | sed 's/^/k/' > all.txt
head -n 1500 all.txt > part1.txt
tail -n 1500 all.txt > part2.txt
expect 0 "$cuckoo" build -o p1.cf --capacity 3000 --seed 9 --keep-duplicates part1.txt
expect 0 "$cuckoo" build -o p2.cf --capacity 3000 --seed 9 --keep-duplicates part2.txt
expect 0 "$cuckoo" merge -o merged.cf p1.cf p2.cf
"$cuckoo" query --all merged.cf < all.txt > /dev/null || fail "merged filter lost keys"
"$cuckoo" info merged.cf | grep -qx 'items: 3000' || fail "merged item count"
expect 0 "$cuckoo" build -o other-seed.cf --capacity 3000 --seed 10 part2.txt
expect 2 "$cuckoo" merge -o m2.cf p1.cf other-seed.cf
grep -q 'seeds differ' err.txt || fail "merge mismatch: $(cat err.txt)"
[ ! -e m2.cf ] || fail "a failed merge wrote m2.cf"
expect 0 "$cuckoo" build -o tiny.cf --capacity 3000 --seed 9 --fpr 0.5 part1.txt
expect 2 "$cuckoo" merge -o m3.cf p1.cf tiny.cf

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "cli: all checks passed"
