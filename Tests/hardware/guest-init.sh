#!/bin/busybox sh
# /init of the harness initramfs (busybox-static). It loads the real drivers, creates a gpio-sim chip,
# mounts the host root read-only over 9p at /host and runs the command harness.sh packed into
# /etc/harness/run.conf. Markers on the serial console let the host find the output and exit status:
#   HARNESS-BEGIN-<nonce> <uptime>     command starts (everything after it is command output)
#   HARNESS-EXIT-<nonce> <status>      command ended with <status>
#   HARNESS-SETUP-FAILED-<nonce> <why> the guest could not be prepared (harness.sh exits 90)
/bin/busybox --install -s /bin
export PATH=/bin:/sbin

# shellcheck source=/dev/null
. /etc/harness/run.conf   # HARNESS_NONCE, HARNESS_GPIO_LINES, HARNESS_VERBOSE

fail() {
    echo "HARNESS-SETUP-FAILED-$HARNESS_NONCE $*"
    poweroff -f
    sleep 5
    exit 1   # PID 1 exiting panics; panic=-1 plus QEMU -no-reboot ends the VM
}

mkdir -p /proc /sys /dev /host /tmp
mount -t proc proc /proc || fail "mount proc"
mount -t sysfs sysfs /sys || fail "mount sysfs"
mount -t devtmpfs devtmpfs /dev || fail "mount devtmpfs"
# Keep kernel messages (vivid and friends are chatty) out of the command's output on ttyS0.
[ "$HARNESS_VERBOSE" = 1 ] || echo 1 > /proc/sys/kernel/printk

# Modules in dependency order, as computed on the host with modprobe --show-depends.
while read -r ko args; do
    [ -n "$ko" ] || continue
    grep -q "^$(basename "$ko" .ko | tr - _) " /proc/modules && continue
    # shellcheck disable=SC2086 # module parameters are separate words
    insmod "/lib/modules/$ko" $args || fail "insmod $ko $args"
done < /etc/harness/modules

mount -t configfs configfs /sys/kernel/config || fail "mount configfs"

# gpio-sim chip: one bank whose lines carry Raspberry Pi header names (configfs API, kernel 6.1).
sim=/sys/kernel/config/gpio-sim/intercom
mkdir "$sim" "$sim/bank0" || fail "gpio-sim configfs mkdir"
# shellcheck disable=SC2086 # one line name per word
set -- $HARNESS_GPIO_LINES
echo $# > "$sim/bank0/num_lines" || fail "gpio-sim num_lines"
echo intercom-gpio-sim > "$sim/bank0/label"
i=0
for name in "$@"; do
    mkdir "$sim/bank0/line$i" || fail "gpio-sim line $i"
    echo "$name" > "$sim/bank0/line$i/name" || fail "gpio-sim line $i name"
    i=$((i + 1))
done
echo 1 > "$sim/live" || fail "gpio-sim live"

mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=262144,cache=loose hostroot /host \
    || fail "mount 9p hostroot"
mount -t proc proc /host/proc || fail "mount /host/proc"
mount -t sysfs sysfs /host/sys || fail "mount /host/sys"
mount -t configfs configfs /host/sys/kernel/config
mount -t devtmpfs devtmpfs /host/dev || fail "mount /host/dev"
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /host/dev/pts
mount -t tmpfs tmpfs /host/dev/shm
mount -t tmpfs -o mode=1777 tmpfs /host/tmp || fail "mount /host/tmp"
mount -t tmpfs tmpfs /host/run
mount -t tmpfs -o mode=1777 tmpfs /host/var/tmp

# Loopback: tests run the server in-process and talk to it over 127.0.0.1 (the kernel leaves lo down).
ip link set lo up || fail "loopback up"
# A board has a network interface besides lo: ICE gathers host candidates there (it leaves loopback out).
ip addr add 10.0.2.15/24 dev dummy0 && ip link set dummy0 up || fail "dummy0 up"

for node in /dev/video0 /dev/video1 /dev/snd/controlC0 /dev/gpiochip0; do
    [ -e "$node" ] || fail "missing $node"
done

# No udevd here: libcamera enumerates cameras through libudev and keeps only devices udev has initialized,
# i.e. those with a /run/udev/data entry. An empty entry per media and V4L2 node marks them initialized.
mkdir -p /host/run/udev/data
for dev in /sys/bus/media/devices/*/dev /sys/class/video4linux/*/dev; do
    [ -f "$dev" ] && : > "/host/run/udev/data/c$(cat "$dev")"
done
echo "harness: vimc $(grep -q '^vimc ' /proc/modules && echo loaded || echo MISSING)," \
    "$(ls /sys/bus/media/devices 2>/dev/null | wc -l) media devices, udev entries for libcamera in /run/udev/data"

cp /etc/harness/command.sh /host/tmp/.harness-command.sh || fail "copy command"
echo "HARNESS-BEGIN-$HARNESS_NONCE $(cut -d' ' -f1 /proc/uptime)"
chroot /host /bin/sh /tmp/.harness-command.sh < /dev/null 2>&1
status=$?
printf '\nHARNESS-EXIT-%s %d\n' "$HARNESS_NONCE" "$status"
umount /host/tmp 2>/dev/null
poweroff -f
sleep 5
exit "$status"
