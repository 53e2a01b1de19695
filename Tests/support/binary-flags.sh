# Sourced by every Tests/*/run.sh: the binaries under test, the same way for every stage.
#   --intercomd PATH   the device agent   (default $INTERCOMD_BIN, then <repo>/.build/debug/intercomd)
#   --server PATH      the backend        (default $INTERCOM_SERVER_BIN, then <repo>/.build/debug/intercom-server)
#   --dev PATH         developer tools    (default $INTERCOM_DEV_BIN, then intercom-dev next to intercomd)
# Every stage accepts all three, even one that runs only some of them. Sets $intercomd, $server and $dev
# (absolute paths), $server_given=1 when the server came from --server or $INTERCOM_SERVER_BIN, and leaves
# the other arguments in "$@". Needs $repo.
intercomd=${INTERCOMD_BIN:-$repo/.build/debug/intercomd}
server=${INTERCOM_SERVER_BIN:-$repo/.build/debug/intercom-server}
dev=${INTERCOM_DEV_BIN:-}
server_given=${INTERCOM_SERVER_BIN:+1}
binary_flags_left=$#
while [ "$binary_flags_left" -gt 0 ]; do
    binary_flags_arg=$1
    shift
    binary_flags_left=$((binary_flags_left - 1))
    case $binary_flags_arg in
        --intercomd|--server|--dev)
            if [ "$binary_flags_left" -eq 0 ]; then
                echo "$0: $binary_flags_arg needs a path" >&2
                exit 2
            fi
            binary_flags_value=$1
            shift
            binary_flags_left=$((binary_flags_left - 1))
            case $binary_flags_arg in
                --intercomd) intercomd=$binary_flags_value ;;
                --server) server=$binary_flags_value; server_given=1 ;;
                --dev) dev=$binary_flags_value ;;
            esac ;;
        --intercomd=*) intercomd=${binary_flags_arg#*=} ;;
        --server=*) server=${binary_flags_arg#*=}; server_given=1 ;;
        --dev=*) dev=${binary_flags_arg#*=} ;;
        *) set -- "$@" "$binary_flags_arg" ;;
    esac
done
case $intercomd in /*) ;; *) intercomd=$(pwd)/$intercomd ;; esac
case $server in /*) ;; *) server=$(pwd)/$server ;; esac
dev=${dev:-$(dirname "$intercomd")/intercom-dev}
case $dev in /*) ;; *) dev=$(pwd)/$dev ;; esac
unset binary_flags_left binary_flags_arg binary_flags_value
