import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "./client.ts";

describe("embedded database folder lock", () => {
  it("refuses a second opener of the same folder until the first closes", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lock-"));
    const first = openDatabase({ dataDir });
    expect(() => openDatabase({ dataDir })).toThrow(/in use by process/);
    await first.close();
    const second = openDatabase({ dataDir });
    await second.close();
  });

  it("takes over a lock left by a process that no longer exists", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lock-"));
    fs.writeFileSync(path.join(dataDir, "db.lock"), "999999");
    const h = openDatabase({ dataDir });
    expect(fs.readFileSync(path.join(dataDir, "db.lock"), "utf8")).toBe(String(process.pid));
    await h.close();
    expect(fs.existsSync(path.join(dataDir, "db.lock"))).toBe(false);
  });
});
