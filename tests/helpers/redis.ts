/**
 * The Redis the tests use (TEST_REDIS_URL, else the machine's on 6379), and whether one answers there: tests
 * that need it are skipped, and say so, when none does.
 */
import net from "node:net";

export const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

export function redisAnswers(url = REDIS_URL): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = net.connect({ host: hostname, port: Number(port || 6379) });
    socket.setTimeout(500);
    socket.once("connect", () => {
      socket.end("QUIT\r\n");
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}
