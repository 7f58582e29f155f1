/**
 * The layers' boundary in eslint.config.js (docs/architecture.md, decision 0117), checked with the repository's
 * own configuration: deliberate imports across it are reported, the allowed ones are not. The probes are linted
 * as text under paths of each layer (no file is written); type-checked rules are turned off for them, since
 * the boundary needs no type information and the probes are in no TypeScript project.
 */
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const boundaryRules = new Set(["@typescript-eslint/no-restricted-imports", "no-restricted-syntax"]);

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({
    cwd: root,
    overrideConfig: [{ files: ["**/*.{ts,tsx}"], ...tseslint.configs.disableTypeChecked }, { languageOptions: { parserOptions: { projectService: false } } }],
  });
});

/** The boundary's messages for `code` linted as the file `filePath` (relative to the repository). */
async function boundaryMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${filePath}` });
  expect(result.messages.filter((m) => m.fatal)).toEqual([]);
  return result.messages.filter((m) => m.ruleId !== null && boundaryRules.has(m.ruleId)).map((m) => m.message);
}

const serverValueImport = `import { openDatabase } from "#server/db/client.server.ts";\nexport const open = openDatabase;\n`;

describe("browser code (app/components, app/lib, app/enhance)", () => {
  it("may not import a server module", async () => {
    const messages = await boundaryMessages("app/components/probe.tsx", serverValueImport);
    expect(messages).toEqual([expect.stringContaining("must not import server code")]);
  });

  it("may not import a *.server module by a relative path, nor load one with import()", async () => {
    expect(await boundaryMessages("app/lib/probe.ts", `export { openDatabase } from "../../server/db/client.server.ts";\n`)).toHaveLength(1);
    const dynamic = `export const load = () => import("#server/db/client.server.ts");\n`;
    expect(await boundaryMessages("app/components/probe.tsx", dynamic)).toEqual([expect.stringContaining("must not import server code")]);
  });

  it("may not import Node's built-ins or a server-only package", async () => {
    const code = `import { readFile } from "node:fs/promises";\nimport sharp from "sharp";\nexport const x = [readFile, sharp];\n`;
    const messages = await boundaryMessages("app/lib/probe.ts", code);
    expect(messages).toEqual([expect.stringContaining("Node's built-in modules"), expect.stringContaining("server-only package")]);
  });

  it("may import types from the server, and anything from domain/ and app/", async () => {
    const code = [
      `import type { SocialPost } from "#server/social/posts.server.ts";`,
      `import { excerpt } from "#domain/format.ts";`,
      `import { useToast } from "#app/components/ui/toast.tsx";`,
      `export type Post = SocialPost;`,
      `export const x = [excerpt, useToast];`,
      ``,
    ].join("\n");
    expect(await boundaryMessages("app/components/probe.tsx", code)).toEqual([]);
  });
});

describe("domain/ (run on both sides)", () => {
  it("may not import a server module or the React app", async () => {
    expect(await boundaryMessages("domain/probe.ts", serverValueImport)).toEqual([expect.stringContaining("must not import server code")]);
    const app = `import { rootData } from "#app/lib/seo.ts";\nexport const data = rootData;\n`;
    expect(await boundaryMessages("domain/probe.ts", app)).toEqual([expect.stringContaining("must not import the React app")]);
  });

  it("may not import even a type from the server", async () => {
    const code = `import type { Config } from "#server/config.server.ts";\nexport type C = Config;\n`;
    expect(await boundaryMessages("domain/probe.ts", code)).toEqual([expect.stringContaining("must not import server code")]);
  });

  it("may import domain/ and libraries", async () => {
    const code = `import { z } from "zod/mini";\nimport { excerpt } from "#domain/format.ts";\nexport const x = [z, excerpt];\n`;
    expect(await boundaryMessages("domain/schemas/probe.ts", code)).toEqual([]);
  });
});

describe("server/", () => {
  it("may not import the React app, and may import domain/", async () => {
    const app = `import { rootData } from "#app/lib/seo.ts";\nexport const data = rootData;\n`;
    expect(await boundaryMessages("server/content/probe.server.ts", app)).toEqual([expect.stringContaining("must not import the React app")]);
    const domain = `import { excerpt } from "#domain/format.ts";\nexport const x = excerpt;\n`;
    expect(await boundaryMessages("server/content/probe.server.ts", domain)).toEqual([]);
  });
});

describe("outside the boundary", () => {
  it("route modules import server modules for their loaders and actions, and tests import anything", async () => {
    expect(await boundaryMessages("app/routes/public/probe.tsx", serverValueImport)).toEqual([]);
    expect(await boundaryMessages("app/components/probe.test.ts", serverValueImport)).toEqual([]);
    expect(await boundaryMessages("domain/probe.test.ts", serverValueImport)).toEqual([]);
  });
});
