import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkConfig } from "#server/config.server.ts";
import { openDatabase, type DatabaseHandle } from "#server/db/client.server.ts";
import { checkReadiness } from "./readiness.server.ts";

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "ready-"));
const configFor = (dataDir: string) => checkConfig({ DATA_DIR: dataDir }).config;

describe("readiness", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = openDatabase({ inMemory: true });
    await handle.ping(); // started, as it is once the server listens
  });
  afterAll(() => handle.close());

  it("is ready when the database answers, the data folder takes a file and the secret is stored (and leaves no probe behind)", async () => {
    const dataDir = tempDir();
    const report = await checkReadiness({ config: configFor(dataDir), database: () => Promise.resolve(handle) });
    expect(report).toEqual({ status: "ready", database: "pglite", dataDir: "ok", authSecret: "ok" });
    expect(fs.readdirSync(dataDir)).toEqual([".auth-secret"]);
  });

  it("replaces an empty .auth-secret (a write that once met a full disk) and is then ready", async () => {
    const dataDir = tempDir();
    fs.writeFileSync(path.join(dataDir, ".auth-secret"), "");
    const report = await checkReadiness({ config: configFor(dataDir), database: () => Promise.resolve(handle) });
    expect(report.status).toBe("ready");
    expect(fs.readFileSync(path.join(dataDir, ".auth-secret"), "utf8")).toMatch(/^[A-Za-z0-9_-]{64}$/);
  });

  it("is unavailable when the data folder cannot take a file, and the secret cannot be stored there", async () => {
    const file = path.join(tempDir(), "not-a-folder");
    fs.writeFileSync(file, "");
    const report = await checkReadiness({ config: configFor(path.join(file, "data")), database: () => Promise.resolve(handle) });
    expect(report).toEqual({ status: "unavailable", database: "pglite", dataDir: "not writable", authSecret: "unusable" });
  });

  it("is unavailable when sign-in cannot be set up", async () => {
    const report = await checkReadiness({
      config: configFor(tempDir()),
      database: () => Promise.resolve(handle),
      auth: () => Promise.reject(new Error("no secret at start")),
    });
    expect(report).toMatchObject({ status: "unavailable", authSecret: "unusable" });
  });

  it("is unavailable when the database fails", async () => {
    const closed = openDatabase({ inMemory: true });
    await closed.close();
    const report = await checkReadiness({ config: configFor(tempDir()), database: () => Promise.resolve(closed) });
    expect(report).toMatchObject({ status: "unavailable", database: "unreachable", dataDir: "ok", authSecret: "ok" });
  });

  it("answers when the database neither answers nor fails (a server that accepts and stays silent)", async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as net.AddressInfo;
    const hanging = openDatabase({ url: `postgres://nobody@127.0.0.1:${port}/none` });
    try {
      const report = await checkReadiness({ config: configFor(tempDir()), database: () => Promise.resolve(hanging), timeoutMs: 200 });
      expect(report).toMatchObject({ status: "unavailable", database: "unreachable" });
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
      await hanging.close();
    }
  });
});
