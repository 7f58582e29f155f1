/**
 * Who may read /metrics without the token: a scrape from this machine, decided on the connection's own peer,
 * never on forwarded addresses (`req.ip` follows TRUST_PROXY, and X-Forwarded-For is whatever the client
 * writes). A same-host reverse proxy connects from loopback for every visitor: what it passes on (a forwarding
 * header, the public Host) needs the token. Over real HTTP, with TRUST_PROXY=1 as a site behind one proxy sets it,
 * and from a non-loopback address of this machine when it has one.
 */
import http from "node:http";
import os from "node:os";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isLocalScrape, metricsEndpoint } from "./metrics.server.ts";

const TOKEN = "metrics-token-0123456789abcdef";

/** A request as the decision sees it: the socket's peer, the headers as they came on the wire. */
const fake = (remoteAddress: string, headers: Record<string, string>) =>
  ({
    socket: { remoteAddress },
    rawHeaders: Object.entries(headers).flat(),
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
  }) as unknown as Parameters<typeof isLocalScrape>[0];

describe("isLocalScrape", () => {
  it("takes a loopback peer naming this machine, with no forwarding header", () => {
    for (const [address, host] of [
      ["127.0.0.1", "127.0.0.1:3000"],
      ["::1", "[::1]:3000"],
      ["::ffff:127.0.0.1", "localhost:3000"],
      ["127.0.0.1", "localhost"],
    ])
      expect(isLocalScrape(fake(address, { Host: host })), `${address} ${host}`).toBe(true);
  });

  it("refuses any other peer, whatever it says it is", () => {
    for (const address of ["203.0.113.9", "10.0.0.5", "192.168.1.2", "::ffff:10.0.0.5", "fd00::2", "fe80::1", ""]) {
      expect(isLocalScrape(fake(address, { Host: "127.0.0.1:3000" })), address).toBe(false);
      expect(isLocalScrape(fake(address, { Host: "127.0.0.1:3000", "X-Forwarded-For": "127.0.0.1" })), address).toBe(false);
    }
  });

  it("refuses a loopback peer that passes a request on: any forwarding header, or the public Host", () => {
    for (const [name, value] of [
      ["X-Forwarded-For", "127.0.0.1"],
      ["x-forwarded-for", "203.0.113.9"],
      ["Forwarded", "for=127.0.0.1"],
      ["X-Real-IP", "127.0.0.1"],
      ["X-Forwarded-Host", "localhost"],
      ["X-Forwarded-Proto", "https"],
      ["Via", "1.1 nginx"],
    ])
      expect(isLocalScrape(fake("127.0.0.1", { Host: "127.0.0.1:3000", [name]: value })), name).toBe(false);
    // A proxy that forwards no address but passes the site's Host (docs/deploy.md asks for it).
    expect(isLocalScrape(fake("127.0.0.1", { Host: "news.example" }))).toBe(false);
    expect(isLocalScrape(fake("127.0.0.1", {}))).toBe(false);
  });
});

type Server = { base: string; port: number; host: string; close: () => Promise<void> };

/** An app as createApp mounts /metrics, trusting one proxy hop (TRUST_PROXY=1). */
async function serve(address: string): Promise<Server> {
  const app = express();
  app.set("trust proxy", 1);
  app.get("/metrics", metricsEndpoint({ METRICS_TOKEN: TOKEN }));
  app.get("/ip", (req, res) => void res.json({ ip: req.ip }));
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  const port = (server.address() as AddressInfo).port;
  const host = address.includes(":") ? `[${address}]` : address;
  return { base: `http://${host}:${port}`, port, host, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A GET with any Host (fetch will not send another): from `localAddress` when given. */
function get(server: Server, path: string, headers: Record<string, string>, localAddress?: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    http
      .get({ host: server.host.replace(/^\[|\]$/g, ""), port: server.port, path, headers, localAddress }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on("error", reject);
  });
}

const bearer = { Authorization: `Bearer ${TOKEN}` };

describe("/metrics over HTTP, TRUST_PROXY=1", () => {
  let local: Server;
  beforeAll(async () => {
    local = await serve("127.0.0.1");
  });
  afterAll(() => local?.close());

  it("serves a local scrape without the token", async () => {
    const res = await get(local, "/metrics", { Host: `127.0.0.1:${local.port}` });
    expect(res.status).toBe(200);
    expect(res.body).toContain("process_cpu_seconds_total");
  });

  it("refuses a loopback request with forwarding headers without the token, and serves it with the token", async () => {
    const passedOn: Record<string, string>[] = [
      { Host: `127.0.0.1:${local.port}`, "X-Forwarded-For": "127.0.0.1" },
      { Host: `127.0.0.1:${local.port}`, Forwarded: "for=127.0.0.1" },
      { Host: `127.0.0.1:${local.port}`, "X-Real-IP": "127.0.0.1" },
      // A same-host proxy passing the site's Host and no address.
      { Host: "news.example" },
    ];
    for (const headers of passedOn) {
      const refused = await get(local, "/metrics", headers);
      expect(refused.status, JSON.stringify(headers)).toBe(401);
      expect(refused.body).not.toContain("process_cpu_seconds_total");
      expect((await get(local, "/metrics", { ...headers, ...bearer })).status, JSON.stringify(headers)).toBe(200);
    }
  });
});

/** An address of this machine that is not loopback, for a connection whose peer is not loopback. */
const outside = Object.values(os.networkInterfaces())
  .flat()
  .find((a) => a && !a.internal && a.family === "IPv4")?.address;

describe.skipIf(!outside)(`/metrics from a non-loopback address of this machine (${outside ?? "none: skipped"}), TRUST_PROXY=1`, () => {
  let server: Server;
  beforeAll(async () => {
    server = await serve(outside!);
  });
  afterAll(() => server?.close());

  it("refuses `X-Forwarded-For: 127.0.0.1` from another address, though Express makes req.ip loopback of it", async () => {
    const headers = { Host: `127.0.0.1:${server.port}`, "X-Forwarded-For": "127.0.0.1" };
    // What made it pass before: TRUST_PROXY=1 takes the header's address as the client's.
    expect(JSON.parse((await get(server, "/ip", headers, outside)).body)).toEqual({ ip: "127.0.0.1" });
    const refused = await get(server, "/metrics", headers, outside);
    expect(refused.status).toBe(401);
    expect(refused.body).not.toContain("process_cpu_seconds_total");
    // No forwarding header at all, a loopback Host: still not this machine's loopback.
    expect((await get(server, "/metrics", { Host: `127.0.0.1:${server.port}` }, outside)).status).toBe(401);
    expect((await get(server, "/metrics", { ...headers, ...bearer }, outside)).status).toBe(200);
  });
});
