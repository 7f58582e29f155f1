/**
 * Requests to addresses readers give us (push endpoints now; any later webhook or fetch of a reader-supplied URL):
 * issue 39, docs/decisions/0134-outbound-requests-and-push-delivery.md. Every such request goes through an agent
 * made here, never through Node's global agent or `fetch`.
 *
 * - The address is checked when the socket connects, not when the URL was saved: the name is resolved by the
 *   agent's own lookup and EVERY answer is checked, so a name that answered a public address yesterday and
 *   127.0.0.1 now (DNS rebinding, an /etc/hosts entry, the machine's own host name) is refused then. An address
 *   literal, which Node connects to without a lookup, is checked before the socket is made.
 * - Two layers: `request-filtering-agent` (refuses what ipaddr.js does not call "unicast") and our own table of
 *   ranges (`refusedRange`, on node:net's BlockList), which adds what that library lets through (the IPv4-compatible
 *   ::a.b.c.d of ::/96, 3fff::/20) and names each range in the error and the log.
 * - Only the ports the caller names (443 for push).
 * - `outboundRequest` gives each request a total deadline (connect, TLS, request and answer together): a server
 *   that trickles a byte a second is cut at the deadline, and at most `maxResponseBytes` of its answer are read.
 */
import dns from "node:dns";
import https from "node:https";
import net from "node:net";
import type { Duplex } from "node:stream";
import { RequestFilteringHttpsAgent } from "request-filtering-agent";
import { CodedError } from "#server/errors.server.ts";

/** Ranges no reader-supplied address may reach, most specific first (the first match names the refusal). */
const REFUSED_RANGES: readonly (readonly [range: string, name: string])[] = [
  // IPv4 (RFC 6890 and the IANA special-purpose registry).
  ["0.0.0.0/8", "this network (0.0.0.0 reaches this machine)"],
  ["10.0.0.0/8", "private"],
  ["100.64.0.0/10", "carrier-grade NAT (also Alibaba Cloud's metadata 100.100.100.200)"],
  ["127.0.0.0/8", "loopback"],
  ["169.254.0.0/16", "link-local (cloud metadata 169.254.169.254)"],
  ["172.16.0.0/12", "private"],
  ["192.0.0.0/24", "IETF protocol assignments"],
  ["192.0.2.0/24", "documentation"],
  ["192.88.99.0/24", "6to4 relay"],
  ["192.168.0.0/16", "private"],
  ["198.18.0.0/15", "benchmarking"],
  ["198.51.100.0/24", "documentation"],
  ["203.0.113.0/24", "documentation"],
  ["224.0.0.0/4", "multicast"],
  ["255.255.255.255/32", "broadcast"],
  ["240.0.0.0/4", "reserved"],
  // IPv6.
  ["::/128", "unspecified"],
  ["::1/128", "loopback"],
  ["::ffff:0:0/96", "IPv4-mapped"],
  ["::/96", "IPv4-compatible (::a.b.c.d)"],
  ["::ffff:0:0:0/96", "IPv4-translated"],
  ["64:ff9b::/96", "NAT64"],
  ["64:ff9b:1::/48", "local NAT64"],
  ["100::/64", "discard"],
  ["2001::/32", "Teredo (embeds an IPv4 address)"],
  ["2001:db8::/32", "documentation"],
  ["2001::/23", "IETF protocol assignments (benchmarking, ORCHID)"],
  ["2002::/16", "6to4 (embeds an IPv4 address)"],
  ["3fff::/20", "documentation"],
  ["fd00:ec2::254/128", "unique-local (AWS metadata)"],
  ["fc00::/7", "unique-local"],
  ["fec0::/10", "site-local"],
  ["fe80::/10", "link-local"],
  ["ff00::/8", "multicast"],
];

const lists = REFUSED_RANGES.map(([range, name]) => {
  const [prefix, bits] = range.split("/");
  const family = net.isIPv4(prefix) ? "ipv4" : "ipv6";
  const list = new net.BlockList();
  list.addSubnet(prefix, Number(bits), family);
  return { range, name, list };
});
/** Everything a public IPv6 address can be: global unicast (RFC 4291 §2.4); anything else is refused. */
const globalUnicast = new net.BlockList();
globalUnicast.addSubnet("2000::", 3, "ipv6");

/**
 * Why an address may not be reached from a reader-supplied URL ("loopback 127.0.0.0/8", …), or null when it is
 * a public address. Whatever is not an IP address is refused: only what a lookup answered comes here.
 */
export function refusedRange(address: string): string | null {
  const ip = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = net.isIP(ip);
  if (family === 0) return "not an IP address";
  const type = family === 4 ? "ipv4" : "ipv6";
  for (const { range, name, list } of lists) {
    // BlockList matches an IPv4-mapped IPv6 address against IPv4 ranges, and the reverse: only the same family here.
    if (net.isIPv4(range.split("/")[0]) === (family === 4) && list.check(ip, type)) return `${name} ${range}`;
  }
  if (family === 6 && !globalUnicast.check(ip, "ipv6")) return "not global unicast (outside 2000::/3)";
  return null;
}

/** A connection the guard refused: never retried at another address, and logged with the range. */
export class OutboundRefusedError extends CodedError {
  declare readonly code: "OUTBOUND_REFUSED";
  constructor(message: string) {
    // A refused address is what the guard is for, and the message names the range: a warning, not a fault.
    super("OUTBOUND_REFUSED", message, { level: "warn" });
  }
}

/** The request took longer, all told, than its deadline. */
export class OutboundDeadlineError extends CodedError {
  declare readonly code: "OUTBOUND_DEADLINE";
  constructor(ms: number) {
    super("OUTBOUND_DEADLINE", `no complete answer within ${ms} ms`, { level: "warn", context: { deadlineMs: ms } });
  }
}

export type OutboundAgentOptions = {
  /** The only ports a connection may go to (push: 443). */
  ports: readonly number[];
  /** Extra certificate authorities (tests trust their own local service's certificate). */
  ca?: string | Buffer;
  /**
   * TESTS ONLY: exact address and port pairs let through (a local push service on 127.0.0.1:<port>). The check
   * still runs for every other address and port; production code never passes it, and no setting reaches it.
   */
  allowForTests?: readonly { address: string; port: number }[];
  /** The resolver (tests give a name the answer they want; by default the system's, as Node uses it). */
  lookup?: net.LookupFunction;
  /** Sockets kept per host for the next request (push services take many requests in a row). */
  maxSockets?: number;
};

type LookupAddress = { address: string; family: number };
type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** An agent made by createOutboundAgent (a plain https.Agent is not one: it checks nothing). */
export type OutboundAgent = GuardedAgent;

/** The agent every request to a reader-supplied address goes through. */
export function createOutboundAgent(options: OutboundAgentOptions): OutboundAgent {
  return new GuardedAgent(options);
}

class GuardedAgent extends RequestFilteringHttpsAgent {
  readonly #guard: OutboundAgentOptions;

  constructor(guard: OutboundAgentOptions) {
    super({
      keepAlive: true,
      maxSockets: guard.maxSockets ?? 50,
      ...(guard.ca ? { ca: guard.ca } : {}),
      allowPrivateIPAddress: false,
      allowMetaIPAddress: false,
      allowIPAddressList: (guard.allowForTests ?? []).map((a) => a.address),
    });
    this.#guard = guard;
  }

  /** Why this address and port may not be reached, or null. */
  #refusal(address: string, port: number, host: string): string | null {
    if ((this.#guard.allowForTests ?? []).some((a) => a.address === address && a.port === port)) return null;
    if (!this.#guard.ports.includes(port)) return `port ${port} is not allowed`;
    const range = refusedRange(address);
    return range ? `${host} is ${address}, in ${range}` : null;
  }

  override createConnection(options: net.TcpNetConnectOpts, callback?: (err: Error | null, socket: Duplex) => void) {
    const host = String(options.host ?? "localhost").replace(/^\[|\]$/g, "");
    const port = Number(options.port ?? 443);
    if (net.isIP(host) || !this.#guard.ports.includes(port)) {
      // An address literal is connected to without a lookup: checked here. A wrong port: refused before any lookup.
      const refusal = net.isIP(host) ? this.#refusal(host, port, host) : this.#refusal("", port, host);
      if (refusal) return refusedSocket(new OutboundRefusedError(refusal), callback);
    }
    const resolve = (this.#guard.lookup ?? dns.lookup) as unknown as (h: string, o: dns.LookupOptions, cb: LookupCallback) => void;
    const lookup = (name: string, lookupOptions: dns.LookupOptions, cb: LookupCallback) => {
      resolve(name, lookupOptions, (err, address, family) => {
        if (err) return cb(err, address, family);
        const answers: LookupAddress[] = Array.isArray(address) ? address : [{ address, family: family ?? 0 }];
        for (const answer of answers) {
          const refusal = this.#refusal(answer.address, port, name);
          // One refused answer refuses the name: trying the next one would still have let it choose our network.
          if (refusal) return cb(new OutboundRefusedError(refusal), address, family);
        }
        cb(null, address, family);
      });
    };
    // request-filtering-agent wraps this lookup with its own check: both run on every answer.
    return super.createConnection({ ...options, lookup: lookup as unknown as net.LookupFunction }, callback);
  }
}

function refusedSocket(error: Error, callback?: (err: Error | null, socket: Duplex) => void): net.Socket {
  const socket = new net.Socket();
  if (callback) callback(error, socket);
  else process.nextTick(() => socket.destroy(error));
  return socket;
}

export type OutboundAnswer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/**
 * One HTTPS request through a guarded agent, settled within `deadlineMs` whatever the other side does: the answer
 * (any status), or an error (refused by the guard, no such host, refused, TLS, `OutboundDeadlineError`).
 */
export function outboundRequest(
  url: string,
  request: {
    agent: OutboundAgent;
    method: string;
    headers: Record<string, string | number>;
    body?: Buffer | string | null;
    deadlineMs: number;
    maxResponseBytes?: number;
  },
): Promise<OutboundAnswer> {
  return new Promise((resolve, reject) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return reject(new OutboundRefusedError("not a URL"));
    }
    if (target.protocol !== "https:" || target.username || target.password) return reject(new OutboundRefusedError("only https: URLs without credentials"));
    const max = request.maxResponseBytes ?? 64 * 1024;
    let settled = false;
    const settle = (error: Error | null, answer?: OutboundAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(answer!);
    };
    const req = https.request(target, { agent: request.agent, method: request.method, headers: request.headers }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        if (size >= max) return;
        chunks.push(chunk);
        size += chunk.length;
        // Enough of the answer to log: the rest is not waited for.
        if (size >= max) {
          settle(null, { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).subarray(0, max).toString("utf8") });
          req.destroy();
        }
      });
      res.on("end", () => settle(null, { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", (error) => settle(error));
    });
    // A deadline for the whole exchange: a socket idle time-out would never fire on a server trickling bytes.
    const timer = setTimeout(() => {
      const error = new OutboundDeadlineError(request.deadlineMs);
      settle(error);
      req.destroy(error);
    }, request.deadlineMs);
    req.on("error", (error) => settle(error));
    req.end(request.body ?? undefined);
  });
}
