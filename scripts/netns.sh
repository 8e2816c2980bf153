#!/usr/bin/env bash
# Network namespaces as stand-in machines on one host, for tests of players kept in sync by Ableton Link.
# Each namespace PREFIX-1 ... PREFIX-COUNT has its own loopback and one interface, eth0, with the address
# 10.77.0.N/24 and a route for multicast (224.0.0.0/4) on it; nothing reaches the host's own network.
# (Link itself needs no multicast route: it names the interface for each of its multicast sockets. The route is for
# programs that do not, such as an OSC sender to a multicast group.)
# Two namespaces are joined by a veth pair; three or more by veth pairs to a bridge in a namespace PREFIX-hub.
#
# As root (iproute2's `ip`):
#   scripts/netns.sh create PREFIX COUNT   makes the namespaces and prints their names, one a line
#   scripts/netns.sh destroy PREFIX        removes PREFIX-1 ... and PREFIX-hub (the processes in them are not killed)
#   scripts/netns.sh check                 exits 0 when namespaces can be made here, else says why
#   ip netns exec PREFIX-1 COMMAND         runs COMMAND on the first stand-in machine
# Or source the file and call netns_create, netns_destroy, netns_check.

netns_create() {
    local prefix="$1" count="$2"
    if [ -z "$prefix" ] || ! [[ "$count" =~ ^[0-9]+$ ]] || [ "$count" -lt 2 ] || [ "$count" -gt 250 ]; then
        echo "usage: netns_create PREFIX COUNT (COUNT 2...250)" >&2
        return 2
    fi
    local n
    for n in $(seq 1 "$count"); do
        ip netns add "$prefix-$n" || { netns_destroy "$prefix"; return 1; }
        ip -n "$prefix-$n" link set lo up
    done
    if [ "$count" -eq 2 ]; then
        # Both ends are named eth0: interface names are per namespace.
        ip link add eth0 netns "$prefix-1" type veth peer name eth0 netns "$prefix-2" \
            || { netns_destroy "$prefix"; return 1; }
    else
        ip netns add "$prefix-hub" || { netns_destroy "$prefix"; return 1; }
        ip -n "$prefix-hub" link add bridge0 type bridge || { netns_destroy "$prefix"; return 1; }
        # Without an IGMP querier, snooping would soon stop forwarding the multicast Link discovers peers with.
        echo 0 | ip netns exec "$prefix-hub" tee /sys/class/net/bridge0/bridge/multicast_snooping >/dev/null
        ip -n "$prefix-hub" link set bridge0 up
        for n in $(seq 1 "$count"); do
            ip -n "$prefix-hub" link add "port$n" type veth peer name eth0 netns "$prefix-$n" \
                || { netns_destroy "$prefix"; return 1; }
            ip -n "$prefix-hub" link set "port$n" master bridge0
            ip -n "$prefix-hub" link set "port$n" up
        done
    fi
    for n in $(seq 1 "$count"); do
        ip -n "$prefix-$n" addr add "10.77.0.$n/24" dev eth0 || { netns_destroy "$prefix"; return 1; }
        ip -n "$prefix-$n" link set eth0 up
        ip -n "$prefix-$n" route add 224.0.0.0/4 dev eth0
        echo "$prefix-$n"
    done
}

netns_destroy() {
    local prefix="$1" name
    [ -n "$prefix" ] || { echo "usage: netns_destroy PREFIX" >&2; return 2; }
    for name in $(ip netns list 2>/dev/null | awk '{print $1}'); do
        case "$name" in
            "$prefix"-hub | "$prefix"-[0-9]*) ip netns delete "$name" ;;
        esac
    done
    return 0
}

netns_check() {
    if ! command -v ip >/dev/null 2>&1; then
        echo "no ip command (install iproute2)"
        return 1
    fi
    if [ "$(id -u)" -ne 0 ]; then
        echo "network namespaces need root"
        return 1
    fi
    local probe="diorama-probe-$$"
    if ! ip netns add "$probe" 2>/dev/null; then
        echo "ip netns add failed (no CAP_SYS_ADMIN in this container?)"
        return 1
    fi
    local veth=0
    ip -n "$probe" link add probe0 type veth peer name probe1 2>/dev/null && veth=1
    ip netns delete "$probe"
    if [ "$veth" -eq 0 ]; then
        echo "veth pairs cannot be made here (no veth kernel module?)"
        return 1
    fi
    return 0
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -u
    case "${1:-}" in
        create) netns_create "${2:-}" "${3:-}" ;;
        destroy) netns_destroy "${2:-}" ;;
        check) netns_check ;;
        *)
            echo "usage: $0 create PREFIX COUNT | destroy PREFIX | check" >&2
            exit 2
            ;;
    esac
fi
