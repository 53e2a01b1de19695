# Sourced by the stages that boot a container with `systemd-nspawn --boot` (Tests/systemd/boot-smoke.sh,
# Tests/packaging/run.sh).
#
# wait_for_container_boot NSPAWN_PID [SECONDS]: waits (default 90 s) until the container's systemd reports
# `running` or `degraded`. The container's PID 1 is the child of systemd-nspawn once it has exec'd systemd.
# Sets $init (that PID, for nsenter) and $state (the last `systemctl is-system-running`); returns 0 once
# booted, 1 if nspawn exited or the time ran out.
wait_for_container_boot() {
    local nspawn_pid=$1 deadline=$((SECONDS + ${2:-90})) child
    init=''
    state=''
    while [ "$SECONDS" -lt "$deadline" ]; do
        kill -0 "$nspawn_pid" 2>/dev/null || break
        child=$(pgrep -P "$nspawn_pid" | head -n 1)
        if [ -n "$child" ] && [ "$(cat "/proc/$child/comm" 2>/dev/null)" = systemd ]; then
            init=$child
            state=$(nsenter -t "$init" -a systemctl is-system-running 2>/dev/null)
            case "$state" in running | degraded) return 0 ;; esac
        fi
        sleep 0.5
    done
    return 1
}
