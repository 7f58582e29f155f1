import { inject } from "vitest";

/** The seeded server of this test worker (started by global-setup.ts). */
export function sharedServer(): { baseUrl: string; dataDir: string } {
  const index = (Number(process.env.VITEST_POOL_ID ?? 1) - 1) % inject("baseUrls").length;
  return { baseUrl: inject("baseUrls")[index], dataDir: inject("dataDirs")[index] };
}
