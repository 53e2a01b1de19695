"""nftables for the network-fault stages (loss, TURN): one table of our own, built from `nft` commands, whose
rule counter tells how many datagrams it dropped. Standard library only; needs root and the nft binary."""

import json
import subprocess


def nft(*args):
    """Runs `nft ARGS…`; (ok, its error or output)."""
    result = subprocess.run(["nft", *args], capture_output=True, text=True)
    return result.returncode == 0, (result.stderr or result.stdout).strip()


def replace_table(table, steps):
    """Deletes `inet table` if it exists, then runs each step (a tuple of nft arguments) in order; (ok, the failing
    command and its error, or "")."""
    delete_table(table)
    for step in steps:
        ok, detail = nft(*step)
        if not ok:
            return False, f"nft {' '.join(step)}: {detail}"
    return True, ""


def delete_table(table):
    nft("delete", "table", "inet", table)


def dropped_packets(table):
    """The packet count of the first counter in `inet table`, or None when the table is gone or has none."""
    ok, text = nft("-j", "list", "table", "inet", table)
    if not ok:
        return None
    for item in json.loads(text).get("nftables", []):
        for expr in (item.get("rule") or {}).get("expr", []):
            if "counter" in expr:
                return expr["counter"].get("packets")
    return None
