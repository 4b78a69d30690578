#!/usr/bin/env bash
# Crash and power-cut harness for the piece store: N rounds of each kind per configuration.
#
#   bench/crash_harness.sh [ROUNDS] [CONFIG...]      (root: it makes loop devices)
#   NODEMARK=build/nodemark, CRASH_CONFIGS="files-sync-dirsync log-sync ..." also select
#
# Each round starts `nodemark pieces` on a small ext4 file system on a loop device (a file made
# here), lets it write for a random 0.2-1.2 s, then
#   kill:     SIGSTOP, count the committed pieces, SIGKILL, and verify the live store;
#   powercut: SIGSTOP, count the committed pieces, copy the loop device's backing file (what
#             reached the "disk": the file system's dirty pages did not), SIGKILL, mount the copy
#             (ext4 replays its journal, as after a reboot) and verify that.
# It prints, per configuration and kind: rounds, committed pieces (found by verify), corrupt
# pieces, and lost acknowledged pieces: committed on the live file system when it stopped, less
# the pieces a worker may have had in flight (one per worker; a whole batch with --sync-batch),
# and not found afterwards. A lost piece counts against a configuration only where nodemark
# promises durability on commit (its "durable" field): --sync with --dirsync (files), --sync or
# --sync-batch (log). Without that promise losses after a power cut are expected, and shown.
# Exit 1 when a round finds a corrupt piece, or loses an acknowledged piece it promised to keep.
set -u
rounds=${1:-100}
shift || true
NM=${NODEMARK:-$(dirname "$0")/../build/nodemark}
configs=${*:-${CRASH_CONFIGS:-files-nosync files-sync files-sync-dirsync log-nosync log-sync log-sync-batch}}
[ "$(id -u)" = 0 ] || { echo "crash_harness: needs root (loop devices)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/nm-crash.XXXXXX")
loop="" cloop=""
cleanup() {
	[ -n "${pid:-}" ] && kill -KILL "$pid" 2>/dev/null
	umount "$work/copy" 2>/dev/null
	umount "$work/live" 2>/dev/null
	[ -n "$cloop" ] && losetup -d "$cloop" 2>/dev/null
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$work/live" "$work/copy"

options() { # CONFIG -> nodemark options
	case $1 in
	files-nosync) echo "--backend files" ;;
	files-sync) echo "--backend files --sync" ;;
	files-sync-dirsync) echo "--backend files --sync --dirsync" ;;
	log-nosync) echo "--backend log" ;;
	log-sync) echo "--backend log --sync" ;;
	log-sync-batch) echo "--backend log --sync-batch 8" ;;
	*) echo "crash_harness: unknown configuration $1" >&2; exit 2 ;;
	esac
}
in_flight() { case $1 in *sync-batch*) echo 8 ;; *) echo 1 ;; esac; }
promised() { case $1 in files-sync-dirsync | log-sync | log-sync-batch) echo 1 ;; *) echo 0 ;; esac; }

committed_live() { # STORE BACKEND: committed pieces on the live file system
	if [ "$2" = files ]; then
		find "$1/blobs" -name '*.sj1' 2>/dev/null | wc -l
	else
		python3 - "$1" <<'PY'
import glob, sys
n = 0
for idx in glob.glob(sys.argv[1] + "/log/w*/index.tbl"):
    data = open(idx, "rb").read()
    n += sum(1 for o in range(64, len(data) - 63, 64) if any(data[o:o + 64]))
print(n)
PY
	fi
}

fresh_fs() {
	umount "$work/live" 2>/dev/null
	[ -n "$loop" ] && losetup -d "$loop"
	truncate -s 0 "$work/img" && truncate -s 96M "$work/img"
	mkfs.ext4 -q -F "$work/img" >/dev/null 2>&1
	loop=$(losetup -f --show "$work/img") && mount "$loop" "$work/live"
}

status=0
printf '%-20s %-9s %7s %10s %8s %20s\n' config kind rounds committed corrupt "lost acknowledged"
for cfg in $configs; do
	opts=$(options "$cfg") || exit 2
	backend=$(awk '{print $2}' <<<"$opts")
	for kind in ${CRASH_KINDS:-kill powercut}; do
		total=0 corrupt=0 lost=0 failed=0
		for _ in $(seq "$rounds"); do
			fresh_fs
			# shellcheck disable=SC2086
			# --keep: a run that finishes before the stop keeps its store (without it the run
			# removes the store at its end, and a stop during that removal read as lost pieces)
			"$NM" pieces "$work/live" $opts --count 3000 --size 16k --block 4k --keep --no-save >/dev/null 2>&1 &
			pid=$!
			sleep "$(awk -v r=$RANDOM 'BEGIN { printf "%.2f", 0.2 + r / 32768 }')"
			kill -STOP "$pid" 2>/dev/null
			store=$(ls -d "$work"/live/.nodemark-* 2>/dev/null | head -1)
			acked=0
			[ -n "$store" ] && acked=$(( $(committed_live "$store" "$backend") - $(in_flight "$cfg") ))
			[ "$acked" -lt 0 ] && acked=0
			target=$work/live
			if [ "$kind" = powercut ]; then
				cp --sparse=always "$work/img" "$work/copy.img"
			fi
			kill -KILL "$pid" 2>/dev/null
			wait "$pid" 2>/dev/null
			pid=""
			if [ "$kind" = powercut ]; then
				cloop=$(losetup -f --show "$work/copy.img") && mount "$cloop" "$work/copy"
				target=$work/copy
			fi
			out=$("$NM" pieces verify "$target" --json 2>/dev/null)
			read -r found bad < <(python3 -c '
import json, sys
try:
    j = json.loads(sys.stdin.read())
    print(j["ok"] + j["unverified"], j["corrupt"])
except Exception:
    print(0, 0)' <<<"$out")
			total=$((total + found))
			corrupt=$((corrupt + bad))
			[ "$found" -lt "$acked" ] && lost=$((lost + acked - found))
			if [ "$kind" = powercut ]; then
				umount "$work/copy"
				losetup -d "$cloop"
				cloop=""
				rm -f "$work/copy.img"
			fi
		done
		[ "$corrupt" -gt 0 ] && failed=1
		[ "$lost" -gt 0 ] && [ "$(promised "$cfg")" = 1 ] && failed=1
		note=""
		[ "$lost" -gt 0 ] && [ "$(promised "$cfg")" = 0 ] && note=" (no durability promised)"
		[ $failed = 1 ] && status=1 && note=" FAIL"
		printf '%-20s %-9s %7d %10d %8d %20d%s\n' "$cfg" "$kind" "$rounds" "$total" "$corrupt" "$lost" "$note"
	done
done
exit $status
