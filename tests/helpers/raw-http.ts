/**
 * HTTP as an attacker (or a broken client) speaks it, over a plain TCP socket: request lines fetch() cannot
 * send (TRACE, CONNECT, `*`, absolute-form), bodies that never finish, headers that never end, and chunked
 * bodies of any size sent with back-pressure. Also the server's resident memory, for the body-size checks.
 */
import fs from "node:fs";
import net from "node:net";

export type RawAnswer = {
  /** The status code of the first response, or null when the server sent nothing. */
  status: number | null;
  /** The first response's head (status line and headers) and everything after it. */
  head: string;
  body: string;
  /** How the socket ended: closed by the server, reset, or still open when `waitMs` ran out. */
  ended: "closed" | "reset" | "open";
};

function answerOf(received: Buffer, ended: RawAnswer["ended"]): RawAnswer {
  const text = received.toString("utf8");
  const split = text.indexOf("\r\n\r\n");
  const head = split < 0 ? text : text.slice(0, split);
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1];
  return { status: status ? Number(status) : null, head, body: split < 0 ? "" : text.slice(split + 4), ended };
}

/**
 * Sends `payload` as it is and waits until the server closes the connection, or `waitMs`. Add
 * `Connection: close` to a complete request so the server closes once it has answered.
 */
export function rawRequest(port: number, payload: string | Buffer, { waitMs = 30_000 } = {}): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let ended: RawAnswer["ended"] = "closed";
    const socket = net.connect(port, "127.0.0.1", () => socket.write(payload));
    const timer = setTimeout(() => {
      ended = "open";
      socket.destroy();
    }, waitMs);
    socket.on("data", (d) => chunks.push(d));
    socket.on("error", () => (ended = "reset"));
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(answerOf(Buffer.concat(chunks), ended));
    });
  });
}

/** Reads the first response's head from an open connection, leaving it open. */
export function firstResponse(socket: net.Socket): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const done = (ended: RawAnswer["ended"]) => {
      socket.off("data", onData);
      resolve(answerOf(Buffer.concat(chunks), ended));
    };
    const onData = (d: Buffer) => {
      chunks.push(d);
      if (Buffer.concat(chunks).includes("\r\n\r\n")) done("open");
    };
    socket.on("data", onData);
    socket.once("close", () => done("closed"));
  });
}

export type ChunkedResult = RawAnswer & { sent: number };

/**
 * POSTs a chunked body of `totalBytes` to `path`, 64 KB a chunk, as fast as the server takes it, and resolves
 * when the server has closed the connection or answered and the whole body was sent. `sent` says how much of
 * the body the server let through before it answered and cut the connection.
 */
export function sendChunked(port: number, path: string, totalBytes: number, headers: Record<string, string> = {}): Promise<ChunkedResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let sent = 0;
    let closed = false;
    let ended: RawAnswer["ended"] = "closed";
    const block = Buffer.alloc(64 * 1024, 0x61);
    const socket = net.connect(port, "127.0.0.1");
    const finish = () => {
      if (closed) return;
      closed = true;
      socket.destroy();
      resolve({ ...answerOf(Buffer.concat(chunks), ended), sent });
    };
    const lines = Object.entries({ "Content-Type": "application/x-www-form-urlencoded", ...headers }).map(([k, v]) => `${k}: ${v}\r\n`);
    socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${lines.join("")}Transfer-Encoding: chunked\r\n\r\n`);
    socket.on("data", (d) => {
      chunks.push(d);
      // Answered, and the whole body is out: the server may keep the connection for the next request.
      if (sent >= totalBytes && Buffer.concat(chunks).includes("\r\n\r\n")) finish();
    });
    socket.on("error", () => (ended = "reset"));
    socket.on("close", finish);
    const pump = () => {
      while (!closed && sent < totalBytes) {
        const piece = block.subarray(0, Math.min(block.length, totalBytes - sent));
        socket.write(`${piece.length.toString(16)}\r\n`);
        socket.write(piece);
        const more = socket.write("\r\n");
        sent += piece.length;
        if (!more) return void socket.once("drain", pump);
      }
      if (closed) return;
      socket.write("0\r\n\r\n");
      if (Buffer.concat(chunks).includes("\r\n\r\n")) finish();
    };
    pump();
  });
}

/** A process's resident memory in MB: now (VmRSS) and the most since start or the last resetPeakMemory (VmHWM). */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

/**
 * The process's RSS once it stops moving: four samples half a second apart within 3 MB, or what it is after 30 s.
 * A Node 24 process keeps its start-up heap for several seconds after it is ready (V8's memory reducer gives it
 * back once the process idles) and grows it further under the first load: a memory check begun in that window
 * measures start-up, not the requests.
 */
export async function settledMemory(pid: number): Promise<number> {
  const samples: number[] = [];
  const deadline = Date.now() + 30_000;
  for (;;) {
    samples.push(memoryOf(pid).rss);
    const last = samples.slice(-4);
    if ((last.length === 4 && Math.max(...last) - Math.min(...last) < 3) || Date.now() > deadline) return last.at(-1)!;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Starts VmHWM over from the current RSS (Linux: `5` to /proc/<pid>/clear_refs); false when not allowed or not done. */
export function resetPeakMemory(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, "5");
  } catch {
    return false;
  }
  // Some kernels take the write and keep the old peak (the process's start-up, not the test's load): then only
  // the sampled RSS tells.
  const after = memoryOf(pid);
  return after.peak <= after.rss + 4;
}
