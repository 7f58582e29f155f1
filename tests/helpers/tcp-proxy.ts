/**
 * A TCP proxy to a real server (PostgreSQL in the outage tests) that fails the way networks fail:
 *  - `cut()`: every connection closed and new ones refused, as when the server is stopped (a reset);
 *  - `partition()`: nothing relayed any more, either way, while every socket stays open and new connections
 *    are still accepted: bytes vanish, no FIN, no RST, as in a network partition or a failover that leaves the
 *    old address answering nothing. The connections held during it stay silent for good;
 *  - `restore()`: new connections are relayed again (those silenced by a partition are not: the client must
 *    notice them dead and open others).
 */
import net from "node:net";

export type TcpProxy = {
  port: number;
  cut: () => void;
  partition: () => void;
  restore: () => void;
  /** Connections accepted since the proxy started. */
  connections: () => number;
  close: () => Promise<void>;
};

export async function startTcpProxy(target: { hostname: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let mode: "relay" | "cut" | "partition" = "relay";
  let accepted = 0;
  /** Every pair's sockets whose bytes are dropped from now on. */
  const silenced = new WeakSet<net.Socket>();
  const silence = (s: net.Socket) => {
    silenced.add(s);
    s.unpipe();
    // Read and drop: the sender's writes complete and nothing tells it the bytes went nowhere.
    s.removeAllListeners("data");
    s.on("data", () => {});
    s.resume();
  };
  const server = net.createServer({ allowHalfOpen: true }, (client) => {
    accepted++;
    if (mode === "cut") return void client.destroy();
    const upstream = net.connect(target.port, target.hostname);
    const pair = [client, upstream];
    const close = () => pair.forEach((s) => (s.destroy(), sockets.delete(s)));
    for (const s of pair) {
      sockets.add(s);
      s.on("error", close);
      // A silenced socket's end is dropped too: a partition carries no FIN.
      s.on("end", () => silenced.has(s) || close());
      s.on("close", close);
    }
    if (mode === "partition") return pair.forEach(silence);
    client.pipe(upstream, { end: false });
    upstream.pipe(client, { end: false });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut() {
      mode = "cut";
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    partition() {
      mode = "partition";
      for (const s of sockets) silence(s);
    },
    restore() {
      mode = "relay";
    },
    connections: () => accepted,
    close: () => {
      for (const s of sockets) s.destroy();
      sockets.clear();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
