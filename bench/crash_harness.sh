#!/usr/bin/env bash
# Crash and power-cut harness for the piece store: N rounds of each kind per configuration.
#
#   bench/crash_harness.sh [ROUNDS] [CONFIG...]      (root: it makes loop devices)
#   NODEMARK=build/nodemark, CRASH_CONFIGS="files-sync-dirsync log-sync ...", CRASH_KINDS="kill",
#   CRASH_KEEP=DIR (where rounds worth a look are kept; default a new /var/tmp/nm-crash-kept.*)
#
# Each round starts `nodemark pieces` on a small ext4 file system on a loop device (a file made
# here), lets it write for a random 0.2-1.2 s once its store's marker exists, then
#   kill:     SIGSTOP, list the committed pieces, SIGKILL, and verify the live store;
#   powercut: SIGSTOP, list the committed pieces, copy the loop device's backing file (what
#             reached the "disk": the file system's dirty pages did not), SIGKILL, mount the copy
#             (ext4 replays its journal, as after a reboot) and verify that.
# crash_judge.py then checks verify's verdict: its exit code agrees with its report, every corrupt
# piece is named and, files backend after a power cut, the pieces whose bytes differ from the live
# store's (what the run wrote) are exactly those it calls corrupt.
#
# Per configuration and kind it prints: the promise, rounds, rounds without a verdict (the file
# system could not be made or mounted, verify crashed or printed no JSON: counted apart, never as
# "0 found"), committed pieces found by verify, corrupt pieces, lost acknowledged pieces
# (committed on the live file system at the stop, less those a worker may have had in flight
# before a power cut, and not found afterwards), rounds where verify's verdict was wrong, and
# after a power cut with no durability promise, rounds where `verify --repair` left a store whose
# every intact piece is kept and no leftover remains.
#
# Each round is judged against what the configuration promises (docs/safety.md):
#   durable  0 corrupt, 0 lost acknowledged: after any SIGKILL; after a power cut, --sync
#            --dirsync (files), --sync or --sync-batch (log);
#   whole    0 corrupt, losses allowed: files --sync after a power cut (renames durable at the end);
#   none     no promise: damage and losses are allowed, but verify must report every damaged
#            piece the store still holds (its verdict right).
# Exit 1 when a round breaks its promise, verify's verdict is wrong, or a round has no verdict
# (then its logs, and for the first few a copy of the store, are in CRASH_KEEP).
set -u
rounds=${1:-100}
shift || true
here=$(cd "$(dirname "$0")" && pwd)
NM=${NODEMARK:-$here/../build/nodemark}
configs=${*:-${CRASH_CONFIGS:-files-nosync files-sync files-sync-dirsync log-nosync log-sync log-sync-batch}}
[ "$(id -u)" = 0 ] || { echo "crash_harness: needs root (loop devices)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/nm-crash.XXXXXX")
keep=${CRASH_KEEP:-$(mktemp -d /var/tmp/nm-crash-kept.XXXXXX)}
mkdir -p "$keep" "$work/live" "$work/copy"
# One binary for the whole run: a rebuild of build/nodemark while the harness runs (make, a
# landing's build) would otherwise make some rounds' verify fail to start or crash.
cp "$NM" "$work/nodemark" || exit 2
NM=$work/nodemark
loop="" cloop="" pid=""
cleanup() {
	[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
	umount "$work/copy" 2>/dev/null
	umount "$work/live" 2>/dev/null
	[ -n "$cloop" ] && losetup -d "$cloop" 2>/dev/null
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

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
promise() { # CONFIG KIND -> durable, whole or none (docs/safety.md, "What survives")
	[ "$2" = kill ] && { echo durable; return; }
	case $1 in
	files-sync-dirsync | log-sync | log-sync-batch) echo durable ;;
	files-sync) echo whole ;;
	*) echo none ;;
	esac
}
# Acknowledged pieces a power cut may still lose: the one a worker was committing (its rename or
# index record written, its directory or index not yet synced), a whole batch with --sync-batch.
# A SIGKILL loses none: what was written is in the page cache.
in_flight() { [ "$2" = kill ] && echo 0 || case $1 in *sync-batch*) echo 8 ;; *) echo 1 ;; esac; }

list_live() { # STORE BACKEND OUT: committed pieces on the live file system (files: their paths)
	if [ "$2" = files ]; then
		(cd "$1" && find blobs -name '*.sj1' 2>/dev/null) >"$3"
		wc -l <"$3"
	else
		: >"$3"
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
	loop=""
	truncate -s 0 "$work/img" && truncate -s 96M "$work/img" &&
		mkfs.ext4 -q -F "$work/img" >/dev/null 2>&1 &&
		loop=$(losetup -f --show "$work/img") && mount "$loop" "$work/live"
}

# Keep a round worth a look: its logs, and (the first few) a copy of the checked store.
kept=0
keep_round() { # NAME WHY [STORE]
	local d=$keep/$1
	mkdir -p "$d"
	echo "$2" >"$d/why"
	cp "$work/run.err" "$work/verify.json" "$work/verify.err" "$work/acked" "$d/" 2>/dev/null
	if [ -n "${3:-}" ] && [ -d "$3" ] && [ "$kept" -lt "${CRASH_KEEP_STORES:-4}" ]; then
		cp -a "$3" "$d/store" 2>/dev/null && kept=$((kept + 1))
	fi
}

status=0
printf '%-19s %-8s %-7s %6s %10s %9s %7s %6s %6s %7s\n' config kind promise rounds "no-verdict" committed corrupt lost wrong repair
for cfg in $configs; do
	opts=$(options "$cfg") || exit 2
	backend=$(awk '{print $2}' <<<"$opts")
	for kind in ${CRASH_KINDS:-kill powercut}; do
		prom=$(promise "$cfg" "$kind")
		flight=$(in_flight "$cfg" "$kind")
		total=0 corrupt=0 lost=0 wrong=0 noverdict=0 repaired=0 repair_rounds=0 broke=0
		for r in $(seq "$rounds"); do
			name=$cfg-$kind-$r
			if ! fresh_fs; then
				noverdict=$((noverdict + 1))
				keep_round "$name" "no verdict: the file system could not be made or mounted"
				continue
			fi
			# shellcheck disable=SC2086
			# --keep: a run that finishes before the stop keeps its store (without it the run
			# removes the store at its end, and a stop during that removal read as lost pieces)
			"$NM" pieces "$work/live" $opts --count 3000 --size 16k --block 4k --keep --no-save \
				>/dev/null 2>"$work/run.err" &
			pid=$!
			# The random stop counts from the store's marker (a slow start, under load or a
			# sanitizer, would otherwise spend the whole wait before the run has a store).
			for _ in $(seq 200); do
				compgen -G "$work/live/.nodemark-*/PIECES" >/dev/null || ! kill -0 "$pid" 2>/dev/null && break
				sleep 0.05
			done
			sleep "$(awk -v r=$RANDOM 'BEGIN { printf "%.2f", 0.2 + r / 32768 }')"
			kill -STOP "$pid" 2>/dev/null
			store=$(ls -d "$work"/live/.nodemark-* 2>/dev/null | head -1)
			acked=0 vrc=""
			: >"$work/acked"
			[ -n "$store" ] && acked=$(list_live "$store" "$backend" "$work/acked")
			target=$work/live
			ok_copy=1
			if [ "$kind" = powercut ]; then
				cp --sparse=always "$work/img" "$work/copy.img" || ok_copy=0
			fi
			kill -KILL "$pid" 2>/dev/null
			wait "$pid" 2>/dev/null
			run_rc=$?
			pid=""
			# Killed (137), or finished before the stop (0); anything else is a run that failed
			# by itself (and removed its store): nothing of it can be judged.
			[ "$run_rc" != 137 ] && [ "$run_rc" != 0 ] && ok_copy=2
			if [ "$kind" = powercut ] && [ $ok_copy = 1 ]; then
				cloop=$(losetup -f --show "$work/copy.img") && mount "$cloop" "$work/copy" || ok_copy=0
				target=$work/copy
			fi
			if [ $ok_copy = 2 ]; then
				noverdict=$((noverdict + 1))
				keep_round "$name" "no verdict: the run exited $run_rc by itself (see run.err)"
			elif [ $ok_copy = 0 ]; then
				noverdict=$((noverdict + 1))
				keep_round "$name" "no verdict: the power-cut copy could not be made or mounted" "$store"
			else
				"$NM" pieces verify "$target" --json >"$work/verify.json" 2>"$work/verify.err"
				vrc=$?
				checked=""
				[ -n "$store" ] && checked=$target/$(basename "$store")
				read -r what found bad gone miss why < <(python3 "$here/crash_judge.py" "$backend" \
					"${store:-}" "$checked" "$work/verify.json" "$work/verify.err" "$vrc" "$acked" "$flight" "$work/acked")
				if [ "$what" != verdict ]; then
					noverdict=$((noverdict + 1))
					keep_round "$name" "no verdict: $found $bad $gone $miss $why" "$checked"
				else
					total=$((total + found)) corrupt=$((corrupt + bad)) lost=$((lost + gone))
					wrong=$((wrong + miss))
					bad_round=$miss
					[ "$prom" != none ] && [ "$bad" -gt 0 ] && bad_round=1
					[ "$prom" = durable ] && [ "$gone" -gt 0 ] && bad_round=1
					broke=$((broke + bad_round))
					[ "$bad_round" = 1 ] &&
						keep_round "$name" "promise $prom broken or verdict wrong: found $found corrupt $bad lost $gone (acked $acked) ${why:-}" "$checked"
					# No promise: does --repair leave a store with every intact piece and no leftover?
					if [ "$kind" = powercut ] && [ "$prom" = none ] && [ -n "$checked" ]; then
						repair_rounds=$((repair_rounds + 1))
						"$NM" pieces verify "$checked" --repair >/dev/null 2>&1
						"$NM" pieces verify "$checked" --json >"$work/after.json" 2>/dev/null
						python3 - "$work/verify.json" "$work/after.json" <<'PY' && repaired=$((repaired + 1))
import json, sys
b, a = (json.load(open(p)) for p in sys.argv[1:3])
intact = lambda j: j["ok"] + j["unverified"]
sys.exit(0 if intact(a) == intact(b) and a["temp_files"] == 0 and a["tail_bytes"] == 0
         and a["corrupt"] == b["corrupt"] and a["bad_index_records"] == 0 else 1)
PY
					fi
				fi
			fi
			printf '%s run_rc=%s acked=%s verify_rc=%s %s\n' "$name" "$run_rc" "$acked" "${vrc:-}" "$(head -c 300 "$work/verify.err" 2>/dev/null | tr '\n' ' ')" >>"$keep/rounds.log"
			if [ "$kind" = powercut ]; then
				umount "$work/copy" 2>/dev/null
				[ -n "$cloop" ] && losetup -d "$cloop"
				cloop=""
				rm -f "$work/copy.img"
			fi
		done
		note=""
		[ "$broke" -gt 0 ] && note=" FAIL ($broke rounds)"
		[ "$noverdict" -gt 0 ] && note="$note NO VERDICT ($noverdict rounds)"
		[ -n "$note" ] && status=1
		[ -z "$note" ] && [ "$prom" = none ] && [ $((corrupt + lost)) -gt 0 ] && note=" (no promise: damage allowed, verdict right)"
		rep=-
		[ "$repair_rounds" -gt 0 ] && rep=$repaired/$repair_rounds
		printf '%-19s %-8s %-7s %6d %10d %9d %7d %6d %6d %7s%s\n' "$cfg" "$kind" "$prom" "$rounds" \
			"$noverdict" "$total" "$corrupt" "$lost" "$wrong" "$rep" "$note"
	done
done
echo "rounds worth a look (logs, store copies) are kept in $keep"
exit $status
