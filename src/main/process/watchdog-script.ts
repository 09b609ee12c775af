// The watchdog: a tiny POSIX shell program, spawned detached in its own session, whose stdin is a
// pipe from the companion. The companion writes one line per event: `+<pgid>` when it starts a
// server's process group, `-<pgid>` when that group has ended. The watchdog only reads. When the
// pipe reaches EOF — the companion exited, crashed, was SIGKILLed, or its machine's OOM killer
// took it: the kernel closes its end in every case — the watchdog sends SIGTERM to every group
// still listed, waits up to a grace for them to go, SIGKILLs what is left, and exits.
//
// Why sh and not a Node script: the packaged desktop app turns the `runAsNode` fuse off
// (electron-builder.yml), so the Electron binary cannot run a Node script, and a system `node` is
// not guaranteed; /bin/sh is on every Linux and macOS. It also costs about 1 MB instead of a
// second V8 heap, all day. The script is passed with `-c`, so no file has to be found on disk
// (nor unpacked from app.asar). Windows has neither sh nor process groups: see groups.ts.
//
// Only decimal ids > 1 of at most 9 digits are accepted: `kill -- -1` would signal every process
// of the user, and 0 the watchdog's own group. Anything else on the pipe is ignored. The first
// argument is the grace in milliseconds (rounded down to tenths of a second).
export const WATCHDOG_SCRIPT = `# toolnexus-companion watchdog: ends the companion's MCP servers when it dies
grace_ticks=$(( $1 / 100 ))
groups=" "
valid() {
  case "$1" in ''|*[!0-9]*|0*|??????????*) return 1 ;; esac
  [ "$1" -gt 1 ] && [ "$1" -ne $$ ]
}
while IFS= read -r line; do
  id=\${line#?}
  valid "$id" || continue
  case "$line" in
    +*) case "$groups" in *" $id "*) ;; *) groups="$groups$id " ;; esac ;;
    -*) rest=" "; for g in $groups; do [ "$g" = "$id" ] || rest="$rest$g "; done; groups=$rest ;;
  esac
done
for g in $groups; do kill -s TERM -- "-$g" 2>/dev/null; done
while [ "$grace_ticks" -gt 0 ]; do
  alive=""
  for g in $groups; do kill -s 0 -- "-$g" 2>/dev/null && alive="$alive$g "; done
  [ -z "$alive" ] && exit 0
  groups=$alive
  sleep 0.1
  grace_ticks=$((grace_ticks - 1))
done
for g in $groups; do kill -s KILL -- "-$g" 2>/dev/null; done
exit 0
`;
