"""Throwaway TLS certificates for tests, made with the openssl command line (Debian's `openssl`): a CA and server
certificates it signs, P-256 keys, valid for two days."""

import os
import subprocess


def openssl(*args):
    subprocess.run(["openssl", *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def make_certificates(directory, serials=("5001", "5002"), names=("IP:127.0.0.1", "DNS:localhost"),
                      common_name="127.0.0.1"):
    """A CA and one server certificate per serial for `names` (subjectAltName entries), signed by it:
    returns (CA file, {serial: (cert file, key file)})."""
    os.makedirs(directory, exist_ok=True)
    ca, ca_key = os.path.join(directory, "ca.pem"), os.path.join(directory, "ca.key")
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", ca_key,
            "-out", ca, "-days", "2", "-subj", "/CN=Intercom test CA")
    san = os.path.join(directory, "san.cnf")
    with open(san, "w", encoding="utf-8") as f:
        f.write(f"subjectAltName={','.join(names)}\n")
    issued = {}
    for serial in serials:
        cert, key, csr = (os.path.join(directory, f"{serial}.{ext}") for ext in ("pem", "key", "csr"))
        openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key,
                "-out", csr, "-subj", f"/CN={common_name}")
        openssl("x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key, "-set_serial", "0x" + serial, "-days", "2",
                "-extfile", san, "-out", cert)
        issued[serial] = (cert, key)
    return ca, issued
