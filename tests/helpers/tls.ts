/**
 * A self-signed certificate for 127.0.0.1, made with the machine's openssl, for the local TLS servers that stand
 * in for push services and hostile endpoints (server/push/alerts.test.ts, server/http/outbound.test.ts).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export function localCertificate(dir: string): { key: Buffer; cert: Buffer } {
  const keyFile = path.join(dir, "key.pem");
  const certFile = path.join(dir, "cert.pem");
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"],
      ...["-addext", "subjectAltName=IP:127.0.0.1", "-keyout", keyFile, "-out", certFile],
    ],
    { stdio: "ignore" },
  );
  return { key: fs.readFileSync(keyFile), cert: fs.readFileSync(certFile) };
}
