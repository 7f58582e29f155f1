/**
 * The backup container against the system's GNU tar: what we write, tar reads (pax names in Arabic and past
 * 100 bytes, empty files); what tar writes in pax format, we read; links and truncation are refused.
 */
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ArchiveError, readArchive, writeTarGz, type EntrySource, type WrittenFile } from "./backup-archive.server.ts";

const hasTar = !spawnSync("tar", ["--version"], { stdio: "ignore" }).error;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "backup-archive-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function entriesOf(file: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  await readArchive(file, async (entries) => {
    for await (const entry of entries) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry.body) chunks.push(chunk);
      out.set(entry.name, Buffer.concat(chunks));
    }
  });
  return out;
}

const files: Record<string, Buffer> = {
  "manifest.json": Buffer.from('{"a":1}'),
  "files/uploads/articles/صورة-الغلاف.jpg": crypto.randomBytes(3000),
  [`files/uploads/articles/${"long-name-".repeat(15)}.png`]: crypto.randomBytes(700),
  "files/uploads/empty.txt": Buffer.alloc(0),
  "files/videos/big.bin": crypto.randomBytes(1024 * 1024 + 17),
  "exactly-512.bin": crypto.randomBytes(512),
};

describe("backup archive", () => {
  it("round-trips names, sizes and bytes, from memory and from files, reporting each file's checksum", async () => {
    const src = path.join(tmp, "src");
    const onDisk = Object.entries(files).filter(([name]) => name.startsWith("files/"));
    for (const [name, data] of onDisk) {
      fs.mkdirSync(path.dirname(path.join(src, name)), { recursive: true });
      fs.writeFileSync(path.join(src, name), data);
    }
    const written: WrittenFile[] = [];
    const file = path.join(tmp, "ours.tar.gz");
    await writeTarGz(
      file,
      [
        ...Object.entries(files).map(([name, data]): EntrySource => (name.startsWith("files/") ? { name, file: path.join(src, name) } : { name, data })),
        { name: "files/gone.txt", file: path.join(src, "no-such-file") },
      ],
      { onFile: (w) => void (w && written.push(w)) },
    );
    const back = await entriesOf(file);
    expect([...back.keys()]).toEqual(Object.keys(files));
    for (const [name, data] of Object.entries(files)) expect(back.get(name)!.equals(data)).toBe(true);
    expect(written.map((w) => w.name)).toEqual(onDisk.map(([name]) => name));
    for (const w of written) expect(w.sha256).toBe(crypto.createHash("sha256").update(files[w.name]).digest("hex"));
  });

  it.skipIf(!hasTar)("is read by GNU tar, and reads GNU tar's pax archives", async () => {
    const file = path.join(tmp, "for-gnu.tar.gz");
    await writeTarGz(
      file,
      Object.entries(files).map(([name, data]) => ({ name, data })),
    );
    const out = path.join(tmp, "gnu-out");
    fs.mkdirSync(out);
    const x = spawnSync("tar", ["-xzf", file, "-C", out], { encoding: "utf8" });
    expect(x.stderr).toBe("");
    for (const [name, data] of Object.entries(files)) expect(fs.readFileSync(path.join(out, name)).equals(data)).toBe(true);

    const theirs = path.join(tmp, "theirs.tar.gz");
    expect(spawnSync("tar", ["--format=pax", "-czf", theirs, "-C", out, "."]).status).toBe(0);
    const back = await entriesOf(theirs);
    for (const [name, data] of Object.entries(files)) expect(back.get(name)!.equals(data)).toBe(true);
  });

  it.skipIf(!hasTar)("refuses links, whatever they point at", async () => {
    const dir = path.join(tmp, "with-link");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "a.txt"), "a");
    fs.symlinkSync("/etc/passwd", path.join(dir, "evil"));
    const file = path.join(tmp, "link.tar.gz");
    expect(spawnSync("tar", ["--format=pax", "-czf", file, "-C", dir, "."]).status).toBe(0);
    await expect(entriesOf(file)).rejects.toThrow(/kind a backup never has/);
  });

  it("refuses a truncated archive and one with a damaged header", async () => {
    const plain = path.join(tmp, "plain.tar");
    const gz = path.join(tmp, "whole.tar.gz");
    await writeTarGz(gz, [{ name: "a.bin", data: crypto.randomBytes(5000) }]);
    const { gunzipSync } = await import("node:zlib");
    const tar = gunzipSync(fs.readFileSync(gz));
    fs.writeFileSync(plain, tar.subarray(0, 2048));
    await expect(entriesOf(plain)).rejects.toThrow(ArchiveError);
    await expect(entriesOf(plain)).rejects.toThrow(/truncated/);
    const damaged = Buffer.from(tar);
    damaged[10] ^= 1;
    fs.writeFileSync(plain, damaged);
    await expect(entriesOf(plain)).rejects.toThrow(/checksum does not match/);
  });
});
