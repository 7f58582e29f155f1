/**
 * The Redis the tests use (TEST_REDIS_URL, else the machine's on 6379), and whether one answers there: tests
 * that need it are skipped, and say so, when none does.
 */
import { tcpAnswers } from "./services.ts";

export const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

export const redisAnswers = (url = REDIS_URL) => tcpAnswers(url, 6379, 500);
