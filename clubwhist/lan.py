"""The club laptop on the venue's network: which address the tablets can reach it at.

On club night clubwhist runs on the director's laptop and the players' tablets and phones join
the venue's Wi-Fi. Every table link and QR code must then carry the laptop's address on that
network (say http://192.168.1.50:8000), never 127.0.0.1 or localhost: those name the device
itself, so a phone that scans such a code asks *itself* for the page and gets nothing.

The interface list comes from psutil (a laptop may have Wi-Fi, Ethernet, a VPN and virtual
bridges from Docker or a VM at once). The ranking below prefers what a venue's router hands
out: private IPv4 on a real interface that is up. Anything unusual is settled by naming the
address (`CLUBWHIST_ADDRESS`, `make club ADDRESS=...`).
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

# Interfaces that virtual machines, containers and VPNs add: the tablets are never on them.
_VIRTUAL_PREFIXES = (
    "docker",
    "br-",
    "veth",
    "virbr",
    "vboxnet",
    "vmnet",
    "lxc",
    "lxd",
    "podman",
    "cni",
    "flannel",
    "tun",
    "tap",
    "utun",
    "zt",
    "tailscale",
    "wg",
)

LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


@dataclass(frozen=True, order=True)
class LanAddress:
    """One IPv4 address of this machine, with the reason it ranks where it does."""

    rank: int  # lower is better
    address: str
    interface: str


def _rank(interface: str, address: ipaddress.IPv4Address) -> int | None:
    """How likely tablets on the venue's Wi-Fi reach us at this address; None: never."""
    if address.is_loopback or address.is_link_local or address.is_multicast:
        return None
    if address.is_unspecified:
        return None
    virtual = interface.lower().startswith(_VIRTUAL_PREFIXES)
    # Home and venue routers hand out 192.168.x.y; offices 10.x or 172.16-31.x.
    if address in ipaddress.IPv4Network("192.168.0.0/16"):
        base = 0
    elif address in ipaddress.IPv4Network("10.0.0.0/8"):
        base = 1
    elif address in ipaddress.IPv4Network("172.16.0.0/12"):
        base = 2
    else:
        base = 3
    return base + (10 if virtual else 0)


def lan_addresses() -> list[LanAddress]:
    """This machine's IPv4 addresses that another device could use, best first."""
    import psutil  # imported here: only the club-laptop mode and its checks need it

    stats = psutil.net_if_stats()
    found: list[LanAddress] = []
    for interface, addresses in psutil.net_if_addrs().items():
        stat = stats.get(interface)
        if stat is not None and not stat.isup:
            continue
        for entry in addresses:
            if entry.family != socket.AF_INET:
                continue
            try:
                ip = ipaddress.IPv4Address(entry.address)
            except ValueError:
                continue
            rank = _rank(interface, ip)
            if rank is not None:
                found.append(LanAddress(rank, str(ip), interface))
    return sorted(set(found))


def is_loopback_host(host: str | None) -> bool:
    """True when `host` names the device itself (127.x.y.z, ::1, localhost, 0.0.0.0)."""
    if not host:
        return True
    name = host.strip("[]").lower()
    if name in LOOPBACK_NAMES or name.endswith(".localhost"):
        return True
    try:
        ip = ipaddress.ip_address(name)
    except ValueError:
        return False
    return ip.is_loopback or ip.is_unspecified


def loopback_warning(base_url: str) -> str | None:
    """What to tell a director whose table links would point at the laptop itself."""
    host = urlsplit(base_url).hostname
    if not is_loopback_host(host):
        return None
    return (
        f"Table links and QR codes point at {host or 'this computer'}, which only this computer "
        "can open: a tablet or phone that scans them gets nothing. For a club night, stop "
        "clubwhist and start it with the command make club instead: it serves the venue's "
        "Wi-Fi and puts the laptop's address in every link, code and printed card."
    )


def url_for(address: str, port: int) -> str:
    """The base URL tablets use: http://address:port (IPv6 in brackets)."""
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}"
