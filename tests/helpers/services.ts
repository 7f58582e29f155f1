/**
 * Whether a service the tests may use (PostgreSQL, Redis) answers at an address: tests that need one are skipped,
 * and say so, when none does.
 */
import net from "node:net";

export function tcpAnswers(url: string | undefined, fallbackPort: number, timeoutMs = 1000): Promise<boolean> {
  if (!url) return Promise.resolve(false);
  const { hostname, port } = new URL(url);
  return new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || fallbackPort) });
    socket.setTimeout(timeoutMs);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}
