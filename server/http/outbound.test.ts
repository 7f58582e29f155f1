/**
 * The guarded agent of requests to reader-supplied addresses (issue 39, docs/decisions/0134-outbound-requests-and-push-delivery.md):
 * the address classifier against every range it refuses, and the agent against a real local TLS listener that must
 * see no connection, whatever name or spelling leads to it, and a server that trickles a byte a second.
 */
import type dns from "node:dns";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import type { AddressInfo } from "node:net";
import { localCertificate } from "#tests/helpers/tls.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutboundAgent, OutboundDeadlineError, outboundRequest, refusedRange } from "./outbound.server.ts";

describe("refusedRange", () => {
  it("refuses every private, local, reserved and translated range, naming it", () => {
    const refused: [string, RegExp][] = [
      ["127.0.0.1", /loopback/],
      ["127.255.255.254", /loopback/],
      ["0.0.0.0", /this network/],
      ["0.1.2.3", /this network/],
      ["10.0.0.1", /private/],
      ["172.16.0.1", /private/],
      ["172.31.255.255", /private/],
      ["192.168.1.1", /private/],
      ["169.254.169.254", /link-local/],
      ["169.254.170.2", /link-local/],
      ["100.64.0.1", /carrier-grade NAT/],
      ["100.100.100.200", /carrier-grade NAT/],
      ["100.127.255.255", /carrier-grade NAT/],
      ["198.18.0.1", /benchmarking/],
      ["198.19.255.255", /benchmarking/],
      ["192.0.0.170", /IETF/],
      ["192.0.2.1", /documentation/],
      ["198.51.100.7", /documentation/],
      ["203.0.113.9", /documentation/],
      ["192.88.99.1", /6to4 relay/],
      ["224.0.0.1", /multicast/],
      ["239.255.255.250", /multicast/],
      ["255.255.255.255", /broadcast/],
      ["240.0.0.1", /reserved/],
      ["::", /unspecified/],
      ["::1", /loopback/],
      ["::ffff:127.0.0.1", /IPv4-mapped/],
      ["::ffff:8.8.8.8", /IPv4-mapped/],
      ["::127.0.0.1", /IPv4-compatible/],
      ["::7f00:1", /IPv4-compatible/],
      ["::a00:1", /IPv4-compatible/],
      ["::ffff:0:7f00:1", /IPv4-translated/],
      ["64:ff9b::7f00:1", /NAT64/],
      ["64:ff9b::a9fe:a9fe", /NAT64/],
      ["64:ff9b:1::a00:1", /local NAT64/],
      ["100::1", /discard/],
      ["2001:0:4136:e378:8000:63bf:3fff:fdd2", /Teredo/],
      ["2001:2::1", /IETF/],
      ["2001:db8::1", /documentation/],
      ["2002:7f00:1::1", /6to4/],
      ["2002:a00:1::1", /6to4/],
      ["3fff::1", /documentation/],
      ["fc00::1", /unique-local/],
      ["fd12:3456::1", /unique-local/],
      ["fd00:ec2::254", /AWS metadata/],
      ["fe80::1", /link-local/],
      ["fe80::1%eth0", /link-local/],
      ["febf::1", /link-local/],
      ["fec0::1", /site-local/],
      ["ff02::1", /multicast/],
      ["5f00::1", /not global unicast/],
      ["[::1]", /loopback/],
      ["localhost", /not an IP address/],
      ["", /not an IP address/],
    ];
    for (const [address, reason] of refused) expect(refusedRange(address), address).toMatch(reason);
  });

  it("lets public addresses through", () => {
    for (const address of ["8.8.8.8", "142.250.74.10", "1.1.1.1", "172.32.0.1", "100.128.0.1", "198.20.0.1", "2606:4700::1111", "2a00:1450:4007::200a"])
      expect(refusedRange(address), address).toBeNull();
  });
});

/** A TLS listener on every local address (IPv4 and IPv6) that counts the TCP connections it is offered. */
async function startListener(dir: string) {
  const { key, cert } = localCertificate(dir);
  let connections = 0;
  const closed: number[] = [];
  const server = tls.createServer({ key, cert }, (socket) => {
    // Accepts TLS, then trickles one byte of an answer that never ends, a second at a time.
    const opened = Date.now();
    socket.write("HTTP/1.1 200 OK\r\nX-Slow: ");
    const timer = setInterval(() => socket.write("a"), 1000);
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(timer);
      closed.push(Date.now() - opened);
    });
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "::", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    cert,
    connections: () => connections,
    closed,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("the guarded outbound agent", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outbound-"));
  let listener: Awaited<ReturnType<typeof startListener>>;
  const post = (url: string, agent: ReturnType<typeof createOutboundAgent>, deadlineMs = 5000) =>
    outboundRequest(url, { agent, method: "POST", headers: { "content-type": "text/plain" }, body: "x", deadlineMs });

  beforeAll(async () => {
    listener = await startListener(dir);
  });
  afterAll(async () => {
    await listener?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("opens no connection to this machine, whatever name or spelling leads there, checking each answer when it connects", async () => {
    const { port } = listener;
    // The listener's port is allowed here (push allows 443 only): what is refused is refused for its address.
    const agent = createOutboundAgent({ ports: [port], ca: listener.cert });
    // Sanity: the listener does take connections offered to it.
    const before = listener.connections();
    await new Promise<void>((resolve) => {
      const socket = tls.connect({ port, host: "127.0.0.1", rejectUnauthorized: false }, () => {
        socket.destroy();
        resolve();
      });
    });
    await expect.poll(() => listener.connections()).toBe(before + 1);

    const hostsName = fs
      .readFileSync("/etc/hosts", "utf8")
      .split("\n")
      .map((line) => line.replace(/#.*/, "").trim().split(/\s+/))
      .find(([address, ...names]) => /^127\./.test(address ?? "") && names.some((n) => n !== "localhost"))
      ?.find((n, i) => i > 0 && n !== "localhost");
    const hosts = [
      os.hostname(),
      `${os.hostname()}.`,
      "localhost",
      "localhost.",
      ...(hostsName ? [hostsName] : []),
      "127.0.0.1",
      "127.1",
      "0x7f.1",
      "2130706433",
      "0.0.0.0",
      "[::1]",
      "[::]",
      "[::ffff:127.0.0.1]",
      "[::127.0.0.1]",
      "[64:ff9b::7f00:1]",
      "[64:ff9b:1::7f00:1]",
      "169.254.169.254",
      "[fd00:ec2::254]",
      "100.100.100.200",
      "198.18.0.1",
    ];
    for (const host of hosts) {
      const error = await post(`https://${host}:${port}/push/x`, agent).then(
        () => null,
        (e: unknown) => e as { code?: string; message?: string },
      );
      // A trailing-dot name this machine's resolver has no answer for is not reached either.
      const unresolved = host.endsWith(".") && ["ENOTFOUND", "EAI_AGAIN"].includes(error?.code ?? "");
      expect(unresolved || error?.code === "OUTBOUND_REFUSED", `${host}: ${error?.code} ${error?.message}`).toBe(true);
    }
    // A name that answers one public address and one of ours (as a rebinding name does on its second answer).
    const rebinding = createOutboundAgent({
      ports: [port],
      lookup: ((_name: string, options: dns.LookupOptions, cb: (err: null, address: unknown, family?: number) => void) => {
        const answers = [
          { address: "93.184.215.14", family: 4 },
          { address: "127.0.0.1", family: 4 },
        ];
        if (options.all) cb(null, answers);
        else cb(null, "127.0.0.1", 4);
      }) as never,
    });
    const error = (await post(`https://push.example.com:${port}/x`, rebinding).catch((e: unknown) => e)) as { code?: string; message?: string };
    expect(error.code).toBe("OUTBOUND_REFUSED");
    expect(error.message).toMatch(/127\.0\.0\.1, in loopback/);
    expect(listener.connections()).toBe(before + 1);
  });

  it("refuses any port but the ones named, before resolving anything", async () => {
    const agent = createOutboundAgent({ ports: [443] });
    const error = (await post(`https://push.example.com:8443/x`, agent).catch((e: unknown) => e)) as { code?: string; message?: string };
    expect(error.code).toBe("OUTBOUND_REFUSED");
    expect(error.message).toMatch(/port 8443/);
    // The tests' allowance is an exact address and port: the next port on 127.0.0.1 is still refused.
    const allowed = createOutboundAgent({ ports: [443], allowForTests: [{ address: "127.0.0.1", port: listener.port }] });
    expect(((await post(`https://127.0.0.1:${listener.port + 1}/x`, allowed).catch((e: unknown) => e)) as { code?: string }).code).toBe("OUTBOUND_REFUSED");
    expect(((await post(`https://[::1]:${listener.port}/x`, allowed).catch((e: unknown) => e)) as { code?: string }).code).toBe("OUTBOUND_REFUSED");
  });

  it("cuts a server that trickles a byte a second at the request's total deadline", async () => {
    const agent = createOutboundAgent({ ports: [443], ca: listener.cert, allowForTests: [{ address: "127.0.0.1", port: listener.port }] });
    const seen = listener.closed.length;
    const error = await post(`https://127.0.0.1:${listener.port}/x`, agent, 2500).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundDeadlineError);
    // The server's side of the socket closes: nothing is left trickling.
    await expect.poll(() => listener.closed.length, { timeout: 5000 }).toBe(seen + 1);
  });
});
